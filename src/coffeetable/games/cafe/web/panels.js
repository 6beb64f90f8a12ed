// The parts of the Café table around the areas: the draft row, a player's
// header (Master token, score, the action track, the warehouse), the end
// screen with the score breakdown, and the lines of the log.

import { attrs, html, joinHtml } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { COLOURS, cardSvg, cube } from './icons.js';

const TRACK = 8;
/** The solo ranking table from the view's [least points, rank] pairs, lowest first. */
function rankLines(ranks, mine) {
  return ranks.map(([least, rank], i) => {
    const next = ranks[i + 1];
    let range;
    if (i === 0 && next) range = t('cafe.rankUnder', { n: next[0] });
    else if (next) range = t('cafe.rankBetween', { a: least, b: next[0] - 1 });
    else range = t('cafe.rankFrom', { n: least });
    return html`<li class="${rank === mine ? 'me' : ''}" data-rank="${rank}">${range} — ${t(`cafe.rank.${rank}`)}</li>`;
  });
}

export function cubeIcon(colour) {
  return html`<svg viewBox="0 0 12 12" class="cf-svg cube-icon" aria-hidden="true">${cube(colour, 1, 1, 10)}</svg>`;
}

export function masterToken() {
  return html`<span class="cf-master" data-testid="master-token" title="${t('cafe.masterTip')}">${t('cafe.master')}</span>`;
}

/** A card's café in words: "Majestic: 1 yellow + 1 green = 3". */
export function cafeText(cafe) {
  const need = COLOURS.filter((c) => cafe.need[c]).map((c) => `${cafe.need[c]} ${t(`cafe.colour.${c}`)}`).join(' + ');
  return t('cafe.cafeText', { name: cafe.name || '', need, points: cafe.points });
}

/** The draft row: each shown card, clickable when a take of it is legal. */
export function draftRow(display, takes, payFor, ships = 0) {
  if (!display.length) return html`<p class="muted">${t('cafe.noDisplay')}</p>`;
  return html`${display.map((card) => {
    const options = takes.filter((a) => a.card === card.id);
    const paid = options.some((a) => a.pay);
    let note = '';
    if (card.cup) {
      if (!takes.length) note = t('cafe.cupCard');
      else if (!options.length) note = t('cafe.cannotPay');
      else if (!paid) note = t(ships >= 2 ? 'cafe.cupFreeShips' : 'cafe.cupFreeFallback');
      else note = t('cafe.cupCost');
    }
    const cafe = card.cafe ? html`<div class="dc-cafe">${cafeText(card.cafe)}</div>` : '';
    return html`<div class="cf-draft-card ${options.length ? 'takeable' : ''} ${payFor === card.id ? 'chosen' : ''}"
        ${attrs({ tabindex: 0, role: 'button', 'data-card-view': card.id, 'aria-haspopup': 'dialog' })}
        data-take="${options.length ? card.id : ''}" data-testid="draft-${card.id}" title="${card.id}">
      ${cardSvg(card)}
      <div class="dc-id">${card.id}${card.cup ? html` · <span class="dc-cup">${note}</span>` : ''}</div>${cafe}
    </div>`;
  })}`;
}

/** The pay choice for a cup card: one button per colour the warehouse can give. */
export function payChoice(card, takes, warehouse) {
  const options = takes.filter((a) => a.card === card && a.pay);
  return html`<div class="cf-choice" data-testid="pay-choice"><span>${t('cafe.payWith', { card })}</span>
    ${options.map((a) => html`<button type="button" data-pay="${a.pay}" data-testid="pay-${a.pay}">${cubeIcon(a.pay)}
      ${t(`cafe.colour.${a.pay}`)} (${warehouse[a.pay]})</button>`)}
    <button type="button" data-act="cancel" data-testid="cancel">${t('cafe.cancel')}</button></div>`;
}

/** The bar above the table: round, phase, Master, draft order, supply, deck. */
export function statusBar(v, name) {
  const supply = COLOURS.map((c) => html`<span class="sup" data-testid="supply-${c}">${cubeIcon(c)}${v.supply[c]}</span>`);
  const drafting = v.order.length > 1 && v.phase !== 'actions' && v.phase !== 'over';
  return html`<span class="cf-round" data-testid="round">${t('cafe.round', { n: v.round, of: v.rounds })}</span>
    <span class="cf-phase">${t(`cafe.phase.${v.phase}`)}</span>
    <span>${masterToken()} ${name(v.master)}</span>
    ${drafting ? html`<span class="muted">${t('cafe.order', { names: v.order.map((s) => name(s)).join(' → ') })}</span>` : ''}
    <span class="cf-supply" title="${t('cafe.supplyTip')}">${t('cafe.supply')} ${supply}</span>
    <span class="muted" data-testid="deck">${t('cafe.deck', { count: v.deck_count })}</span>`;
}

/** What a player is doing now, for their header. */
export function doing(v, seat) {
  const p = v.players[seat];
  if (v.phase === 'over') return '';
  if (v.phase === 'actions') {
    return p.actions_left > 0 ? t('cafe.doing.acting', { n: p.actions_left }) : t('cafe.doing.done');
  }
  if (v.turn === seat) return t(v.phase === 'take' ? 'cafe.doing.taking' : 'cafe.doing.placing');
  return v.order.indexOf(seat) < v.order.indexOf(v.turn) ? t('cafe.doing.placed') : t('cafe.doing.waiting');
}

/** The action track: a slot per action a round (1-8), the used ones crossed. */
export function track(player, acting) {
  const total = player.actions;
  const left = acting ? player.actions_left : total;
  const slots = Array.from({ length: TRACK }, (_, i) => {
    const n = i + 1;
    const cls = n > total ? 'off' : n <= total - left ? 'used' : 'left';
    return html`<span class="slot ${cls}">${n}</span>`;
  });
  return html`<div class="cf-track" title="${t('cafe.trackTip')}" data-actions="${total}" data-left="${acting ? player.actions_left : ''}">${slots}</div>`;
}

export function warehouse(player, seat) {
  const cubes = COLOURS.map((c) => html`<span class="wh-c" data-testid="warehouse-${seat}-${c}" data-n="${player.warehouse[c]}">
    ${cubeIcon(c)}${player.warehouse[c]}</span>`);
  return html`<div class="cf-warehouse" title="${t('cafe.warehouseTip')}"><span class="label">${t('cafe.warehouse')}</span>${cubes}</div>`;
}

/**
 * The end screen: cafés, warehouse (2a + b), total, tie-breaks; the solo rank.
 * hidden: folded away to a bar (the board shows); me: our seat, or null.
 * Its `.end-actions` slot is for the shared front end's buttons (Play again, ...).
 */
export function endScreen(view, name, hidden = false, me = null) {
  const look = html`<button type="button" data-act="hide-end" data-testid="${hidden ? 'end-open' : 'hide-end'}">${t(hidden ? 'cafe.end.show' : 'cafe.end.look')}</button>`;
  const close = html`<button type="button" class="end-close" data-act="close-end" data-testid="end-close"
    title="${t('cafe.end.closeTip')}" aria-label="${t('cafe.end.close')}">×</button>`;
  const slot = html`<div class="end-actions" data-testid="end-actions"></div>`;
  const winners = view.winners || [];
  const rows = view.players.map((p, s) => {
    const counts = COLOURS.map((c) => p.warehouse[c]);
    const [a, b] = [...counts].sort((x, y) => x - y);
    const done = p.cafes.filter((c) => c.complete).map((c) => c.name || c.id).join(', ');
    return html`<tr class="${winners.includes(s) ? 'win' : ''}" data-testid="final-row-${s}">
      <th>${name(s)}${winners.includes(s) ? ' ★' : ''}</th>
      <td><strong data-testid="cafe-points-${s}">${p.cafe_points}</strong> <span class="muted small">${done}</span></td>
      <td><span class="small">${joinHtml(COLOURS.map((c) => html`${cubeIcon(c)}${p.warehouse[c]}`), ' ')}</span>
        <span class="muted small">2×${a} + ${b} =</span> <strong data-testid="warehouse-points-${s}">${p.warehouse_points}</strong></td>
      <td class="total" data-testid="final-score-${s}">${view.scores[s]}</td>
      <td class="small" data-testid="tie-${s}">${t('cafe.end.tieValue', { roast: p.tie_break.roast, dry: p.tie_break.dry })}</td></tr>`;
  });
  const table = html`<div class="cf-table-wrap"><table class="cf-score-table"><thead><tr><th></th><th>${t('cafe.end.cafes')}</th>
    <th>${t('cafe.end.warehouse')}</th><th>${t('cafe.end.total')}</th><th>${t('cafe.end.tie')}</th></tr></thead>
    <tbody>${rows}</tbody></table></div>`;
  if (view.players.length === 1) {
    const rank = view.rank || 'apprentice';
    // cafe.end.rankIs says "{n} points" even for 1: tests/browser/test_cafe.py pins that wording
    return html`<div class="cf-end panel" data-testid="end-screen" data-solo="true" data-rank="${rank}" data-winners="0">
      ${close}<h2>${t('cafe.end.solo')}</h2>
      <p class="cf-big" data-testid="solo-rank">${t('cafe.end.rankIs', { rank: t(`cafe.rank.${rank}`), n: view.scores[0] })}</p>
      ${table}
      <ul class="cf-ranks">${rankLines(view.solo_ranks || [], rank)}</ul>
      ${slot}<p>${look}</p></div>`;
  }
  const names = winners.map((s) => name(s)).join(', ');
  let line = t(winners.length > 1 ? 'cafe.end.winners' : 'cafe.end.winner', { names });
  if (winners.length === 1 && winners[0] === me) line = t('cafe.end.youWin');
  const tied = winners.length === 1 && view.scores.filter((x) => x === view.scores[winners[0]]).length > 1;
  return html`<div class="cf-end panel" data-testid="end-screen" data-winners="${winners.join(',')}">
    ${close}<h2>${t('cafe.end.title')}</h2>
    <p class="cf-big" data-testid="winner-line">${line}</p>
    ${tied ? html`<p class="muted">${t('cafe.end.byTie')}</p>` : ''}
    ${table}
    <p class="muted small">${t('cafe.end.rules')}</p>
    ${slot}<p>${look}</p></div>`;
}

/** A log line for an event, or '' for events not worth a line. */
export function logLine(ev, name) {
  const who = ev.seat != null ? name(ev.seat) : '';
  switch (ev.type) {
    case 'round': return html`<strong>${t('cafe.log.round', { n: ev.round, name: name(ev.master) })}</strong>`;
    case 'took':
      return t(ev.paid ? 'cafe.log.tookPaid' : 'cafe.log.took', { name: who, card: ev.card, colour: ev.paid ? t(`cafe.colour.${ev.paid}`) : '' });
    case 'placed': {
      const lost = (ev.lost || []).length ? ` ${t('cafe.log.lost', { cafes: ev.lost.join(', ') })}` : '';
      const back = Object.values(ev.returned || {}).reduce((a, b) => a + b, 0);
      return t('cafe.log.placed', { count: (ev.covered || []).length, name: who, card: ev.card })
        + (back ? ` ${t('cafe.log.returned', { count: back })}` : '') + lost;
    }
    case 'produced': return t('cafe.log.produced', { name: who, cubes: t(`cafe.cubes.${ev.colour}`, { count: ev.cubes }) });
    case 'dried': return t('cafe.log.dried', { name: who, cubes: t(`cafe.cubes.${ev.colour}`, { count: ev.cubes }) });
    case 'roasted': return t('cafe.log.roasted', { name: who, cubes: t(`cafe.cubes.${ev.colour}`, { count: ev.cubes }) });
    case 'delivered': {
      const toCafes = Object.values(ev.to || {}).reduce((sum, by) => sum + Object.values(by).reduce((a, b) => a + b, 0), 0);
      const stored = Object.values(ev.warehouse || {}).reduce((a, b) => a + b, 0);
      const done = (ev.completed || []).length ? ` ${t('cafe.log.completed', { cafes: ev.completed.join(', ') })}` : '';
      return t('cafe.log.delivered', { name: who, cafes: t('cafe.cubeCount', { count: toCafes }), stored: t('cafe.cubeCount', { count: stored }) }) + done;
    }
    case 'passed': return t('cafe.log.passed', { name: who });
    case 'round_over': return html`<span class="muted">${t('cafe.log.roundOver', { n: ev.round })}</span>`;
    case 'game_over': return html`<strong>${t('cafe.end.title')}</strong>`;
    case 'clock': return t('cafe.log.clock', { name: who });
    default: return '';
  }
}
