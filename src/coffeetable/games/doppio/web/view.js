// Espresso Doppio's view: the status line, the reserve, the path of five spaces,
// the controls (set-up palette, Exchange, Undo, End turn, hints), the players'
// cards, the log, and the end and solo screens (the beans broken down per round
// and per card by breakdown.js; the end screen closes to a bar that opens it again).

import { attrs, html, setHTML } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { hintKey, setHTMLKeepingEndActions } from '../../js/board.js';
import { breakdown } from './breakdown.js';
import { endWhy } from './help.js';
import { cardText, logLine, pieceName } from './log.js';
import {
  exchangeOf, findCard, moveTargets, ordered, placeColours, placeTargets, scoresFor, selectablePieces,
} from './model.js';
import {
  KINDS, SPACE_H, SPACE_W, diagram, piece, pieceOnSpace,
} from './pieces.js';

const GAP = 12;

export function render(b) {
  const v = b.view;
  if (!v) return;
  b.parts.logTitle.textContent = t('doppio.log');
  const mine = b.legal.length > 0;
  b.el.dataset.phase = v.phase;
  b.el.dataset.round = String(v.round);
  b.el.dataset.turn = v.turn == null ? '' : String(v.turn);
  b.el.dataset.canAct = String(mine);
  b.el.dataset.actions = String(v.actions_taken);
  b.el.dataset.solo = String(v.solo);
  b.el.dataset.beans = v.players.map((p) => p.beans).join(',');
  b.el.dataset.selected = [...b.sel].map(([s, k]) => `${s}:${ordered(k).join('+')}`).join(' ');
  setHTML(b.parts.status, statusText(b));
  b.parts.status.classList.toggle('my-turn', mine);
  b.parts.reserve.textContent = t('doppio.reserve', { count: v.reserve });
  setHTML(b.parts.path, pathSvg(b));
  setHTML(b.parts.controls, controls(b));
  setHTML(b.parts.players, html`${playerOrder(b).map((p) => playerPanel(b, p))}`);
  renderOver(b);
  renderLog(b);
}

export function renderOver(b) {
  const over = b.view.phase === 'over';
  setHTMLKeepingEndActions(b.parts.over, over ? overScreen(b) : html``);
  b.parts.over.classList.toggle('closed', over && b.endClosed);
}

function playerOrder(b) {
  const seats = b.view.players.map((_, i) => i);
  if (b.me == null || b.me >= seats.length) return seats;
  return [b.me, ...seats.filter((s) => s !== b.me)];
}

function statusText(b) {
  const v = b.view;
  const mine = b.legal.length > 0;
  if (v.phase === 'over') return html`<strong>${t('doppio.gameOver')}</strong>`;
  const round = v.solo ? '' : html`<span class="d-round">${t('doppio.round', { n: v.round })}</span> `;
  if (v.phase === 'setup') {
    const kind = t(`doppio.kind.${v.setup.kind}`);
    const text = mine ? t('doppio.setupYou', { kind }) : b.waitFor(v.turn, t('doppio.setupOther', { name: b.name(v.turn), kind }));
    return html`${round}<span class="d-phase">${t('doppio.setup')}</span> ${text}`;
  }
  if (v.solo) {
    return html`${t('doppio.soloBudget', { n: v.players[0].beans })} <span class="muted">${t('doppio.soloHint')}</span>`;
  }
  if (mine) {
    return html`${round}<strong>${t('doppio.yourTurn')}</strong> <span class="muted">${t('doppio.actionsTaken', { n: v.actions_taken })}</span>`;
  }
  return html`${round}${b.waitFor(v.turn, t('doppio.theirTurn', { name: b.name(v.turn) }))}`;
}

/** The spaces a move touches (the review marks them). */
function spacesOf(action) {
  if (action.type === 'place') return [action.space];
  if (action.type === 'move' || action.type === 'exchange') return [action.from, action.to];
  return [];
}

function pathSvg(b) {
  const v = b.view;
  const setup = v.phase === 'setup';
  const targets = setup ? (b.colour ? placeTargets(b) : new Map()) : moveTargets(b);
  const selectable = b.legal.length ? selectablePieces(b) : new Set();
  const width = 5 * SPACE_W + 4 * GAP;
  const spaces = v.path.map((space, i) => {
    const x0 = i * (SPACE_W + GAP);
    const target = targets.has(i);
    const pieces = KINDS.map((kind) => {
      const colour = space[kind];
      if (!colour) return '';
      const key = `${i}:${kind}`;
      const sel = b.sel.has(i) && b.sel.get(i).has(kind);
      const cls = `${selectable.has(key) ? 'selectable' : ''} ${sel ? 'selected' : ''}`;
      // a piece that may be picked is a button for the keyboard too (Tab, then Enter or Space)
      const pick = selectable.has(key) ? attrs({
        'data-piece': 1, 'data-space': i, 'data-kind': kind, tabindex: 0, role: 'button',
        'aria-pressed': String(sel), 'aria-label': t('doppio.pieceOn', { piece: pieceName(kind, colour), n: i + 1 }),
      }) : '';
      return html`<g class="pwrap ${cls}" ${pick} data-testid="piece-${i}-${kind}" data-colour-id="${colour}">
        <title>${pieceName(kind, colour)}</title>${pieceOnSpace(kind, colour, x0)}</g>`;
    });
    const ghost = setup && target ? html`<g class="ghost">${pieceOnSpace(v.setup.kind, b.colour, x0)}</g>` : '';
    // The review points here: the reviewed move (or the bot's) was played on this space.
    const mark = b.marked(i, spacesOf);
    const marks = mark.split(' ').filter(Boolean).map((kind) => `marked-${kind}`).join(' ');
    return html`<g class="space ${target ? 'target' : ''} ${marks}" data-testid="space-${i}" ${attrs({ 'data-target': target ? i : null, 'data-review': mark || null })}>
      <rect class="space-bg" x="${x0}" y="0" width="${SPACE_W}" height="${SPACE_H}" rx="12"/>
      <text class="space-no" x="${x0 + 9}" y="20">${i + 1}</text>
      ${ghost}${pieces}
      ${target ? html`<g class="target-tab" data-target="${i}" data-testid="target-${i}" tabindex="0" role="button"
        aria-label="${t(setup ? 'doppio.placeHere' : 'doppio.moveHere')} · ${t('doppio.spaceN', { n: i + 1 })}">
        <rect x="${x0 + 20}" y="${SPACE_H + 5}" width="${SPACE_W - 40}" height="24" rx="12"/>
        <text x="${x0 + SPACE_W / 2}" y="${SPACE_H + 22}">${t(setup ? 'doppio.placeHere' : 'doppio.moveHere')}</text></g>` : ''}
    </g>`;
  });
  return html`<svg class="path-svg" viewBox="-6 -6 ${width + 12} ${SPACE_H + 42}" role="img" aria-label="${t('doppio.path')}">${spaces}</svg>`;
}

function controls(b) {
  const v = b.view;
  if (!b.legal.length) return html``;
  if (v.phase === 'setup') {
    const kind = v.setup.kind;
    const buttons = placeColours(b).map((colour) => html`
      <button type="button" class="d-colour ${colour === b.colour ? 'chosen' : ''}" data-colour="${colour}"
        data-testid="colour-${colour}"><svg viewBox="0 0 40 40" aria-hidden="true">${piece(kind, colour)}</svg>
        ${pieceName(kind, colour)}</button>`);
    const hint = b.colour ? t(hintKey('doppio.hintSpace')) : t('doppio.hintColour');
    return html`<div class="d-palette">${buttons}</div><p class="d-hint" data-testid="hint">${hint}</p>`;
  }
  if (b.confirmEnd) {
    const count = new Set(b.of('score').map((a) => a.card)).size;
    return html`<p class="d-warn" data-testid="end-turn-warning">${t('doppio.endTurnWarn', { count })}</p>
      <div class="d-buttons">
        <button type="button" class="primary" data-act="keep-turn" data-testid="keep-turn">${t('doppio.keepTurn')}</button>
        <button type="button" data-act="end_turn" data-testid="end-turn-anyway">${t('doppio.endTurnAnyway')}</button>
      </div>`;
  }
  const exchange = exchangeOf(b);
  const undo = b.legal.some((a) => a.type === 'undo');
  const end = b.legal.some((a) => a.type === 'end_turn');
  const moving = b.of('move').length > 0;
  let hint = '';
  if (!moving) hint = b.of('score').length ? t('doppio.hintScoreOnly') : '';
  else if (b.sel.size === 0) hint = t(hintKey('doppio.hintSelect'));
  else if (b.sel.size === 1) hint = moveTargets(b).size ? t(hintKey('doppio.hintTarget')) : t('doppio.hintNoTarget');
  else hint = exchange ? t('doppio.hintExchange') : t('doppio.hintNoExchange');
  if (b.of('score').length) hint += ` ${t(hintKey('doppio.hintScore'))}`;
  return html`
    <div class="d-buttons">
      ${b.sel.size === 2 ? html`<button type="button" class="primary" data-act="exchange" data-testid="exchange" ${attrs({ disabled: !exchange })}>${t('doppio.exchange')}</button>` : ''}
      ${b.sel.size ? html`<button type="button" data-act="clear" data-testid="clear">${t('doppio.clear')}</button>` : ''}
      ${undo ? html`<button type="button" data-act="undo" data-testid="undo">${t('doppio.undo')}</button>` : ''}
      ${end ? html`<button type="button" class="primary" data-act="end_turn" data-testid="end-turn">${t('doppio.endTurn')}</button>` : ''}
    </div>
    <p class="d-hint" data-testid="hint">${hint}</p>`;
}

function playerPanel(b, seat) {
  const v = b.view;
  const p = v.players[seat];
  const active = v.turn === seat && v.phase !== 'over';
  const cards = p.cards.map((card) => cardBox(b, card, seat));
  const scored = p.scored.map((card) => html`<span class="d-scored-card" title="${cardText(card)}">${card.beans}</span>`);
  return html`
    <section class="d-player panel ${active ? 'active' : ''} ${seat === b.me ? 'me' : ''}" data-testid="player-${seat}">
      <header>
        <strong>${b.name(seat)}</strong>
        ${active ? html`<span class="badge">${t(v.phase === 'setup' ? 'doppio.placing' : 'doppio.playing')}</span>` : ''}
        <span class="d-beans" data-testid="beans-${seat}" data-beans="${p.beans}">${t('doppio.beans', { count: p.beans })}</span>
        <span class="muted" data-testid="pile-${seat}" data-count="${p.pile.count}">${t('doppio.pile', { n: p.pile.count })}</span>
        <span class="muted" data-testid="scored-${seat}" data-count="${p.scored.length}">${t('doppio.scored', { n: p.scored.length })}</span>
      </header>
      <div class="d-cards">${cards.length ? cards : html`<span class="muted">${t('doppio.noCards')}</span>`}</div>
      ${scored.length ? html`<div class="d-scored">${scored}</div>` : ''}
    </section>`;
}

function cardBox(b, card, seat) {
  const options = seat === b.me ? scoresFor(b, card.id) : [];
  const text = cardText(card);
  const choosing = b.choice === card.id;
  const choice = choosing ? html`
    <div class="d-choice" data-testid="score-choice">
      ${options.map((a) => html`<button type="button" data-score="${a.turned}" data-card="${card.id}"
        data-testid="score-${a.turned ? 'turned' : 'upright'}">
        <span class="${a.turned ? 'flip' : ''}">${diagram(card)}</span>${t(a.turned ? 'doppio.turned' : 'doppio.upright')}</button>`)}
    </div>` : '';
  return html`
    <div class="dcard ${options.length ? 'scorable' : ''} ${choosing ? 'choosing' : ''}" title="${text}"
      ${attrs({ 'data-card': options.length ? card.id : null, 'data-card-view': card.id, tabindex: 0, role: 'button', 'aria-haspopup': 'dialog' })} data-testid="card-${seat}-${card.id}">
      <div class="dc-head"><span class="dc-no">#${card.id}</span><span class="dc-beans">${t('doppio.cardBeans', { n: card.beans })}</span></div>
      ${diagram(card)}
      <div class="dc-text">${text}</div>
      ${options.length ? html`<div class="dc-cta">${t('doppio.scoreIt')}</div>` : ''}
    </div>${choice}`;
}

/** The close button, the slot for the shared buttons (Play again, ...) and the button that opens it again. */
function endChrome(b) {
  return {
    close: html`<button type="button" class="end-close" data-act="close-end" data-testid="end-close"
      title="${t('doppio.end.closeTip')}" aria-label="${t('doppio.end.close')}">×</button>`,
    actions: html`<div class="end-actions" data-testid="end-actions"></div>`,
    open: html`<button type="button" class="end-open" data-act="open-end" data-testid="end-open">${t('doppio.end.show')}</button>`,
  };
}

function overScreen(b) {
  const v = b.view;
  const chrome = endChrome(b);
  const lines = breakdown(v, b.log);
  if (v.solo) {
    const beans = v.players[0].beans;
    const rank = v.rank || 'tea';
    return html`
      <div class="d-end panel" data-testid="solo-over" data-rank="${rank}" data-beans="${beans}">
        ${chrome.close}
        <h2>${t('doppio.soloOver')}</h2>
        <p class="d-big">${t('doppio.beans', { count: beans })}</p>
        <p class="d-rank">${t(`doppio.rank.${rank}`)}</p>
        <ol class="d-ranks">${['tea', 'filter', 'french_press', 'espresso_machine', 'barista'].map((r) =>
          html`<li class="${r === rank ? 'me' : ''}">${t(`doppio.rankRange.${r}`)} — ${t(`doppio.rank.${r}`)}</li>`)}</ol>
        ${lines[0].rounds[0].cards ? html`<div class="d-breakdown" data-testid="breakdown">
          <h3>${t('doppio.end.perCard')}</h3>${cardChips(b, 0, lines[0].rounds[0].cards)}</div>` : ''}
        ${chrome.actions}${chrome.open}
      </div>`;
  }
  const winners = v.winners || [];
  const names = winners.map((s) => b.name(s));
  const title = winners.includes(b.me) ? t('doppio.youWin')
    : t(winners.length > 1 ? 'doppio.winnersAre' : 'doppio.winnerIs', { names: names.join(', ') });
  const rounds = lines[0].rounds.map((r) => r.round);
  const partial = lines.some((line) => line.rounds.some((r) => !r.cards));
  const rows = v.players.map((p, s) => html`
    <tr class="${winners.includes(s) ? 'win' : ''}" data-testid="final-row-${s}"><th>${b.name(s)}</th>
      ${lines[s].rounds.map((r) => html`<td class="num" data-testid="round-beans-${s}-${r.round}"
        data-beans="${r.beans == null ? '' : r.beans}">${r.beans == null ? '—' : r.beans}</td>`)}
      <td class="num total" data-testid="final-beans-${s}" data-beans="${p.beans}">${t('doppio.beans', { count: p.beans })}</td></tr>`);
  const cards = v.players.map((p, s) => html`
    <li data-testid="card-lines-${s}"><b>${b.name(s)}</b>
      ${lines[s].rounds.map((r) => html`<div class="d-round-cards" data-testid="round-cards-${s}-${r.round}"><span class="muted">${t('doppio.end.roundCards', { n: r.round })}</span>
        ${r.cards ? cardChips(b, s, r.cards) : html`<span class="muted">${t('doppio.end.unknown')}</span>`}</div>`)}</li>`);
  return html`
    <div class="d-end panel" data-testid="doppio-over" data-winners="${winners.join(',')}">
      ${chrome.close}
      <h2>${t('doppio.gameOver')}</h2>
      <p class="d-big" data-testid="winner-line">${title}</p>
      ${endWhy(b)}
      <div class="d-breakdown" data-testid="breakdown">
        <table class="d-score-table"><thead><tr><th></th>
          ${rounds.map((r) => html`<th>${t('doppio.end.round', { n: r })}</th>`)}<th>${t('doppio.end.total')}</th></tr></thead>
          <tbody>${rows}</tbody></table>
        <h3>${t('doppio.end.perCard')}</h3>
        <ul class="d-card-lines">${cards}</ul>
        ${partial ? html`<p class="muted small">${t('doppio.end.partial')}</p>` : ''}
      </div>
      ${chrome.actions}${chrome.open}
    </div>`;
}

/** What each scored card earned: "#6 +3" chips (×2 when met twice, ↻ when turned). */
function cardChips(b, seat, cards) {
  if (!cards.length) return html`<span class="muted">${t('doppio.end.noCards')}</span>`;
  return html`<span class="d-chips">${cards.map((c) => {
    const card = c.text ? c : findCard(b, c.card);
    const tip = t('doppio.end.cardTip', { count: c.matches, card: card ? cardText(card) : `#${c.card}` });
    return html`<span class="d-chip" data-testid="card-beans-${seat}-${c.card}" data-beans="${c.beans}" title="${tip}">#${c.card}${c.turned ? ' ↻' : ''}
      <b>+${c.beans}</b>${c.matches > 1 ? html` <small>×${c.matches}</small>` : ''}</span>`;
  })}</span>`;
}

export function renderLog(b) {
  const items = b.log.map((ev) => logLine(b, ev)).filter(Boolean);
  setHTML(b.parts.log, html`${items.slice(-60).map((line) => html`<li>${line}</li>`)}`);
  b.parts.log.scrollTop = b.parts.log.scrollHeight;
}
