// Café's view: the status bar, the draft row, the controls of the moment (hints,
// pay and colour choices, the delivery panel, rotate/place, pass), your company
// area big and the others' small, the ghost of the card being placed, the log and
// the end screen; drawn from the board (index.js) and its model.

import { html, setHTML } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { hintKey, setHTMLKeepingEndActions } from '../../js/board.js';
import { areaSvg, gridBox } from './area.js';
import { S, glyph } from './icons.js';
import { acts, actsAt, marks, modeOf } from './model.js';
import {
  cafeText, cubeIcon, doing, draftRow, endScreen, logLine, masterToken, payChoice, statusBar, track, warehouse,
} from './panels.js';
import { soFar } from './help.js';

const BIG = 62; // px per grid cell of your own area
const SMALL = 24; // px per grid cell of the other players' areas

function miniIcon(icon) {
  return html`<svg class="cf-svg mini-icon" viewBox="0 0 ${S} ${S}" aria-hidden="true">${glyph(icon)}</svg>`;
}

export function render(b) {
  const v = b.view;
  if (!v) return;
  // keep the keyboard's place across a redraw
  const active = document.activeElement;
  const focus = active && b.el.contains(active) && active.dataset
    ? (active.dataset.area && `[data-area="${active.dataset.area}"]`) || (active.dataset.take && `[data-take="${active.dataset.take}"]`)
    : null;
  const d = b.el.dataset;
  d.phase = v.phase;
  d.round = String(v.round);
  d.seq = String(b.seq);
  d.canAct = String(b.legal.length > 0 && !b.pending);
  d.mode = modeOf(b);
  d.turn = v.turn == null ? '' : String(v.turn);
  d.master = String(v.master);
  d.players = String(v.players.length);
  d.holding = v.holding ? v.holding.id : '';
  setHTML(b.parts.top, statusBar(b.view, (seat) => b.name(seat)));
  // the draft row only while cards are drafted (not in the actions phase, not at the end)
  b.parts.draftTitle.parentElement.hidden = !v.display.length || v.phase === 'actions' || v.phase === 'over';
  b.parts.draftTitle.textContent = t(v.players.length === 1 ? 'cafe.draftSolo' : 'cafe.draft');
  b.parts.draftHint.textContent = v.display.length ? t(hintKey('cafe.view.hint')) : '';
  const ships = b.me == null ? 0 : v.players[b.me].ships;
  setHTML(b.parts.draft, draftRow(v.display, b.of('take'), b.payFor, ships));
  renderControls(b);
  setHTML(b.parts.own, playerPanel(b, b.main, true));
  setHTML(b.parts.others, html`${v.players.map((_, s) => s).filter((s) => s !== b.main)
    .map((s) => playerPanel(b, s, false))}`);
  drawGhost(b);
  b.parts.logTitle.textContent = t('cafe.log');
  renderLog(b);
  renderEnd(b);
  const again = focus && b.el.querySelector(focus);
  if (again) again.focus();
}

export function renderControls(b) {
  setHTML(b.parts.controls, controls(b));
  b.parts.controls.classList.toggle('mine', b.offered().length > 0);
}

function controls(b) {
  const v = b.view;
  if (v.phase === 'over') return html`<p class="cf-hint"><strong>${t('cafe.end.title')}</strong></p>`;
  const mode = modeOf(b);
  if (mode === 'take') {
    const hint = html`<p class="cf-hint" data-testid="hint">${t(v.players.length === 1 ? 'cafe.hint.takeSolo' : 'cafe.hint.take')}</p>`;
    return b.payFor ? html`${hint}${payChoice(b.payFor, b.of('take'), v.players[b.me].warehouse)}` : hint;
  }
  if (mode === 'place') {
    return html`<p class="cf-hint" data-testid="hint">${t(hintKey('cafe.hint.place'), { card: v.holding.id })}</p>
      <div class="cf-buttons">
        <button type="button" data-act="rotate-ccw" data-testid="rotate-ccw" title="Shift+R">⟲ ${t('cafe.rotate')}</button>
        <button type="button" data-act="rotate-cw" data-testid="rotate-cw" title="R">⟳ ${t('cafe.rotate')}</button>
        <button type="button" class="primary" data-act="place" data-testid="place-button">${t('cafe.placeHere')}</button>
        <span class="cf-ghost-info" data-testid="ghost-info"></span>
      </div>`;
  }
  if (mode === 'act') {
    const me = v.players[b.me];
    const kinds = [...new Set(acts(b).map((a) => a.type))];
    const legend = kinds.map((k) => html`<span class="cf-chip hl-${k}">${t(`cafe.act.${k}`)}</span>`);
    let extra = '';
    if (b.colourFor) {
      const options = actsAt(b, b.colourFor);
      extra = html`<div class="cf-choice" data-testid="colour-choice"><span>${t(`cafe.chooseColour.${options[0].type}`)}</span>
        ${options.map((a) => html`<button type="button" data-colour="${a.colour}" data-testid="colour-${a.colour}">${cubeIcon(a.colour)}
          ${t(`cafe.colour.${a.colour}`)}</button>`)}
        <button type="button" data-act="cancel" data-testid="cancel">${t('cafe.cancel')}</button></div>`;
    } else if (b.delivery) extra = b.delivery.render(me.cafes);
    const left = t('cafe.actionsLeft', { count: me.actions_left });
    return html`<p class="cf-hint" data-testid="hint">${left} ${t(kinds.length ? hintKey('cafe.hint.act') : 'cafe.hint.actNone')}
      ${legend}</p>
      <div class="cf-buttons"><button type="button" data-act="pass" data-testid="pass-button">${t('cafe.pass')}</button></div>${extra}`;
  }
  return html`<p class="cf-hint" data-testid="hint">${waitText(b)}</p>`;
}

function waitText(b) {
  const v = b.view;
  if (b.me == null) return t('cafe.watching');
  if (b.pending) return t('cafe.sending');
  if (v.phase === 'take') return b.waitFor(v.turn, t('cafe.wait.take', { name: b.name(v.turn) }));
  if (v.phase === 'place') return b.waitFor(v.turn, t('cafe.wait.place', { name: b.name(v.turn) }));
  const busy = v.players.map((p, s) => (p.actions_left > 0 ? s : null)).filter((s) => s != null);
  return t('cafe.wait.actions', { names: busy.map((s) => b.name(s)).join(', ') });
}

/** The squares a move of `seat` was made on, as `seat:x:y` (the review marks them). */
function squaresOf(action, seat) {
  if (action.area) return [`${seat}:${action.area[0]}:${action.area[1]}`];
  if (action.type === 'place') return [`${seat}:${action.x}:${action.y}`];
  return [];
}

function playerPanel(b, seat, big) {
  const v = b.view;
  const p = v.players[seat];
  const mine = big && seat === b.me && !b.pending;
  const active = (v.phase === 'actions' && p.actions_left > 0) || (v.turn === seat && v.phase !== 'over');
  const reach = mine && b.placer ? b.placer.reach() : [];
  const box = gridBox(p.squares, reach);
  const cell = big ? BIG : SMALL;
  const svg = areaSvg(p, {
    box,
    marks: mine ? marks(b) : new Map(),
    selected: b.colourFor || (b.delivery && b.delivery.key),
    targets: mine && b.delivery ? b.delivery.targets() : null,
    ghost: mine,
    testid: `area-${seat}`,
    review: (x, y) => b.marked(`${seat}:${x}:${y}`, squaresOf),
    label: seat === b.me ? t('cafe.areaMine') : t('cafe.areaOf', { name: b.name(seat) }),
    cafeTitle: (cafe) => cafeText(cafe),
    tip: (sq) => t(`cafe.icon.${sq.icon}`),
    actLabel: (kind) => t(`cafe.act.${kind}`),
    className: `${mine ? 'mine' : ''} ${mine && b.placer ? 'placing' : ''}`,
    width: (box.x1 - box.x0 + 1) * cell + 8,
  });
  return html`<div class="cf-player panel ${big ? 'big' : 'small'} ${active ? 'active' : ''}" data-testid="player-${seat}"
      data-score="${p.score}" data-actions-left="${p.actions_left}" data-cards="${JSON.stringify(p.cards)}">
    <header>
      <strong class="cf-name">${b.name(seat)}</strong>
      ${v.master === seat ? masterToken() : ''}
      <span class="cf-score" data-testid="score-${seat}">${t('cafe.points', { count: p.score })}</span>
      ${soFar(p, seat)}
      <span class="cf-doing">${doing(v, seat)}</span>
    </header>
    <div class="cf-stats">${track(p, v.phase === 'actions')}${warehouse(p, seat)}
      <span class="cf-counts" title="${t('cafe.countsTip')}" data-testid="counts-${seat}">${miniIcon('cup')} ${p.cups}
        ${miniIcon('ship')} ${p.ships}</span></div>
    <div class="cf-svg-wrap">${svg}</div>
  </div>`;
}

export function drawGhost(b) {
  const layer = b.parts.own.querySelector('.ghost-layer');
  if (!layer) return;
  const p = b.view.players[b.main];
  const occupied = new Set(p.squares.map((s) => `${s.x},${s.y}`));
  setHTML(layer, b.placer ? b.placer.ghost(occupied) : html``);
  const info = b.parts.controls.querySelector('.cf-ghost-info');
  if (info && b.placer) {
    const covers = b.placer.covers(p);
    const names = new Map(p.cafes.map((c) => [c.id, c.name || c.id]));
    const lost = covers.cafes.filter((id) => !(p.cafes.find((c) => c.id === id) || {}).lost);
    info.textContent = t('cafe.covers', { count: covers.squares })
      + (lost.length ? ` ${t('cafe.coversCafe', { count: lost.length, cafes: lost.map((id) => names.get(id)).join(', ') })}` : '');
    info.classList.toggle('warn', lost.length > 0);
  }
}

export function renderLog(b) {
  setHTML(b.parts.log, html`${b.log.slice(-60)
    .map((ev) => html`<li>${logLine(ev, (s) => b.seatName(s))}</li>`)}`);
  b.parts.log.dataset.count = String(b.log.length);
  b.parts.log.scrollTop = b.parts.log.scrollHeight;
}

export function renderEnd(b) {
  const v = b.view;
  const show = v.phase === 'over';
  setHTMLKeepingEndActions(b.parts.over, show ? endScreen(v, (s) => b.name(s), b.hideEnd, b.me) : html``);
  b.parts.over.classList.toggle('hidden', show && b.hideEnd);
}
