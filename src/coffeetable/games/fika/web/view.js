// Fika's view: the street between the two cafés (yours at the bottom, the
// opponent's at the top, columns in the order you read your café), the supply, the
// groups, the colour order, the tips, your hand, the prompt and its buttons, the
// log and the end screen, drawn from the board (index.js) and its model.

import { attrs, html } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { hintKey, setHTMLKeepingEndActions } from '../../js/board.js';
import {
  back, cardName, empty, face, group as groupCard, street as streetCard,
} from './cards.js';
import { clickables, confirmable, moveTokens, readPos } from './model.js';
import { endWhy, previewBox, tieWords, viewKey } from './help.js';

/** A card in a line of text: its colour's symbol and its number. */
function chip(card) {
  return html`<span class="chip c-${card.colour}" title="${cardName(card)}"><svg viewBox="0 0 24 24"><use href="#fika-${card.colour}"/></svg>${card.number}</span>`;
}

export function render(b) {
  if (!b.view) return;
  const v = b.view;
  const clicks = clickables(b);
  const selected = new Set(b.sel);
  if (b.half) selected.add(b.half.spot != null ? `cafe:${b.me}:${b.half.spot}` : `hand:${b.half.card}`);
  b.pairs.forEach(([s, c]) => { selected.add(`cafe:${b.me}:${s}`); selected.add(`hand:${c}`); });
  const m = { v, clicks, selected };
  b.el.dataset.phase = v.phase;
  b.el.dataset.round = String(v.round);
  b.el.dataset.seq = String(b.seq ?? '');
  b.el.dataset.canAct = String(b.legal.length > 0);
  b.el.dataset.effect = v.effect ? String(v.effect.number) : '';
  const markup = html`
    <div class="fika-board" data-testid="board">
      ${playerBar(b, 1 - b.bottom, 'top')}
      ${cafe(b, m, 1 - b.bottom, 'top')}
      ${streetRow(b, m)}
      ${cafe(b, m, b.bottom, 'bottom')}
      ${playerBar(b, b.bottom, 'bottom')}
      ${prompt(b, m)}
      ${hand(b, m)}
    </div>
    <aside class="fika-side">
      ${coloursBox(b)}
      ${previewBox(b, scoreTable)}
      ${scoreBox(b)}
      ${logBox(b)}
      ${guide(b)}
    </aside>
    ${v.phase === 'over' ? endScreen(b) : ''}`;
  if (String(markup) === b.drawn) return; // unchanged: keep the elements (a press on them is not lost)
  b.drawn = String(markup);
  setHTMLKeepingEndActions(b.el, markup);
  if (b.focusToken) { // keep the keyboard's place across the redraw
    const again = b.el.querySelector(`[data-click="${b.focusToken}"]`) || b.el.querySelector('[data-click]');
    if (again) again.focus();
    b.focusToken = null;
  }
  const log = b.el.querySelector('.fika-log ol');
  if (log) log.scrollTop = log.scrollHeight;
}

/**
 * A place for a card. card: the face-up card in it, which the card viewer reads
 * (js/cardview.js: a tap, a long press, or i); spot: "seat:column" in a café.
 */
function cardSlot(b, m, token, inner, testid, extra = '', card = null, spot = null) {
  const can = m.clicks.has(token);
  const sel = m.selected.has(token);
  const keys = can || sel ? attrs({ 'data-click': token, tabindex: 0, role: 'button' }) : '';
  const readable = card ? attrs({
    'data-card-view': viewKey(card), 'data-spot': spot, tabindex: can || sel ? null : 0, role: can || sel ? null : 'button', 'aria-haspopup': 'dialog',
  }) : '';
  // The review points here: the reviewed move was played (or the bot would play) on this.
  const mark = b.marked(token, moveTokens);
  const marks = mark.split(' ').filter(Boolean).map((kind) => `marked-${kind}`).join(' ');
  return html`<div class="fk-slot ${can ? 'clickable' : ''} ${sel ? 'selected' : ''} ${marks} ${extra}"
    ${keys} ${readable} ${attrs({ 'data-review': mark || null })} data-testid="${testid}">${inner}</div>`;
}

function playerBar(b, seat, where) {
  const p = b.view.players[seat];
  const tips = Array.from({ length: 2 }, (_, i) => html`<span class="tip ${i < p.tips ? 'won' : ''}">${i < p.tips ? '★' : '☆'}</span>`);
  let pickState = '';
  if (b.view.phase === 'pick' && seat !== b.me) {
    pickState = html`<span class="pick-state ${p.picked ? 'done' : ''}" data-testid="picked-${seat}">${p.picked ? html`${back()} ${t('fika.picked')}` : t('fika.notPicked')}</span>`;
  }
  if (p.pick && (seat !== b.me || b.view.phase !== 'pick')) {
    const read = attrs({ 'data-card-view': viewKey(p.pick), tabindex: 0, role: 'button', 'aria-haspopup': 'dialog' });
    pickState = html`<span class="pick-state shown" ${read} data-testid="pick-${seat}">${face(p.pick)}</span>`;
  }
  const hand = seat === b.me ? '' : html`<span class="muted">${t('fika.handCount', { count: p.hand_count })}</span>`;
  // the tooltip keeps "tip(s)" (fika.tipsOf) while tests/browser/test_hostile.py pins it; the lists say fika.tipsCount
  return html`<div class="pbar pbar-${where}" data-testid="player-${seat}">
    <b>${seat === b.me ? t('fika.yourCafe') : t('fika.cafeOf', { name: b.name(seat) })}</b>
    ${where === 'top' ? html`<span class="muted small">${t('fika.readsLeft')}</span>` : ''}
    <span class="tips" title="${t('fika.tipsOf', { name: b.name(seat), n: p.tips })}" data-testid="tips-${seat}" data-tips="${p.tips}">${tips}</span>
    ${hand} ${pickState}
  </div>`;
}

function cafe(b, m, seat, where) {
  const cafe = b.view.players[seat].cafe;
  const effect = b.view.effect;
  const cells = columns(b).map((col) => {
    const card = cafe[col];
    const token = `cafe:${seat}:${col}`;
    const fresh = effect && effect.seat === seat && effect.spot === col ? 'fresh' : '';
    const inner = card ? face(card) : empty(String(readPos(seat, col)));
    return cardSlot(b, m, token, inner, `cafe-${seat}-${col}`, fresh, card, `${seat}:${col}`);
  });
  return html`<div class="row cafe cafe-${where}" data-testid="cafe-${seat}">${cells}</div>`;
}

function groupHtml(b, m, g, index) {
  const threeAt = g.facing == null ? null : (g.facing === b.bottom ? 'bottom' : 'top');
  let title = g.facing == null ? t('fika.group') : t('fika.cups3For', { name: b.name(g.facing) });
  if (g.facing != null && g.facing === b.me) title = t('fika.cups3ForYou');
  const known = g.card ? html`<span class="known-label">${t('fika.groupKnown', { card: cardName(g.card) })}</span>` : '';
  return html`<div class="group-wrap" title="${title}">
    ${cardSlot(b, m, `group:${index}`, groupCard(threeAt, g.card), `group-${index}`)}${known}</div>`;
}

function streetRow(b, m) {
  const v = b.view;
  const onStreet = new Map();
  v.groups.forEach((g, i) => { if (g.column != null) onStreet.set(g.column, i); });
  const cells = columns(b).map((col) => {
    const gi = onStreet.get(col);
    const inner = gi != null ? groupHtml(b, m, v.groups[gi], gi) : streetCard(col);
    if (gi != null) return html`<div class="street-cell" data-testid="street-${col}">${inner}</div>`;
    return html`<div class="street-cell">${cardSlot(b, m, `street:${col}`, inner, `street-${col}`)}</div>`;
  });
  const beside = v.groups.map((g, i) => (g.column == null ? groupHtml(b, m, g, i) : ''));
  const supply = v.supply.map((card, i) => cardSlot(b, m, `supply:${i}`, face(card), `supply-${i}`, '', card));
  return html`<div class="street-zone">
    <div class="beside" data-testid="beside"><div class="label">${t('fika.beside')}</div><div class="cards">${beside}</div></div>
    <div class="row street" data-testid="street">${cells}</div>
    <div class="supply" data-testid="supply"><div class="label">${t('fika.supply')}</div><div class="cards">${supply}</div></div>
  </div>`;
}

function prompt(b, m) {
  const v = b.view;
  const actors = v.phase === 'colours' ? [v.colour_order.length === 0 ? v.chooser : 1 - v.chooser]
    : v.phase === 'pick' ? [0, 1].filter((s) => (v.lone ? s === v.lone.seat : true) && !v.players[s].picked)
      : v.order.slice(0, 1);
  const other = actors.find((s) => s !== b.me);
  const mine = b.legal.length > 0;
  let text = '';
  const buttons = [];
  if (v.phase === 'over') text = t('fika.prompt.over');
  else if (b.me == null) text = t('fika.prompt.watch');
  else if (v.phase === 'colours') {
    if (mine) {
      text = t('fika.prompt.colour', { rank: t(`fika.rank.${v.colour_order.length + 1}`) });
      for (const a of b.byType('colour')) {
        buttons.push(html`<button type="button" class="colour-btn c-${a.colour}" data-button="colour" data-value="${a.colour}" data-testid="colour-${a.colour}">
          <svg viewBox="0 0 24 24"><use href="#fika-${a.colour}"/></svg> ${t(`fika.colour.${a.colour}`)}</button>`);
      }
    } else text = b.waitFor(other ?? 1 - b.me, t('fika.prompt.colourWait', { name: b.name(other ?? 1 - b.me) }));
  } else if (v.phase === 'pick') {
    text = mine ? t('fika.prompt.pick') : b.waitFor(1 - b.me, t('fika.prompt.pickWait', { name: b.name(1 - b.me) }));
  } else if (v.phase === 'place') {
    text = mine ? t('fika.prompt.place', { card: cardName(v.players[b.me].pick) })
      : t('fika.prompt.placeWait', { name: b.name(v.order[0]) });
  } else if (v.phase === 'effect') {
    text = mine ? t(hintKey(`fika.prompt.effect${v.effect.number}`))
      : t('fika.prompt.effectWait', { name: b.name(v.effect.seat), n: v.effect.number });
  }
  if (mine && v.phase === 'effect') {
    if (b.effectNumber() === 4) {
      const ok = confirmable(b);
      buttons.push(html`<button type="button" class="primary" data-button="confirm" data-testid="confirm-button" ${attrs({ disabled: !ok })}>${t('fika.confirm')}</button>`);
    }
    if (b.sel.length || b.pairs.length || b.half) {
      buttons.push(html`<button type="button" data-button="clear" data-testid="clear-button">${t('fika.clear')}</button>`);
    }
    buttons.push(html`<button type="button" data-button="skip" data-testid="skip-button">${t('fika.skip')}</button>`);
  }
  if (b.byType('stop').length) {
    buttons.push(html`<button type="button" data-button="stop" data-testid="stop-button">${t('fika.stop')}</button>`);
  }
  let lone = '';
  if (v.lone && v.phase !== 'over') {
    lone = html`<div class="lone" data-testid="lone">${v.lone.seat === b.me ? t('fika.lone', { count: v.lone.left })
      : t('fika.loneOther', { count: v.lone.left, name: b.name(v.lone.seat) })}</div>`;
  }
  const order = v.order.length
    ? html`<div class="order" data-testid="order">${t('fika.order', { names: v.order.map((s) => b.name(s)).join(' → ') })}</div>` : '';
  return html`<div class="prompt ${mine ? 'mine' : ''}" data-testid="prompt">
    <span class="round">${t('fika.round', { n: v.round })}</span>
    <span class="text" data-testid="prompt-text">${text}</span>
    ${order}${lone}
    <span class="buttons">${buttons}</span>
  </div>`;
}

function hand(b, m) {
  if (b.me == null) return '';
  const p = b.view.players[b.me];
  const pickId = p.pick ? p.pick.id : null;
  const cards = (p.hand || []).map((card) => cardSlot(b, 
    m, `hand:${card.id}`, face(card), `hand-card-${card.id}`, card.id === pickId ? 'picked' : '', card,
  ));
  return html`<div class="hand-zone"><div class="label">${t('fika.hand')}</div>
    <p class="card-hint muted small" data-testid="card-hint">${t(hintKey('fika.view.hint'))}</p>
    <div class="row hand" data-testid="hand" data-count="${(p.hand || []).length}">${cards}</div></div>`;
}

function coloursBox(b) {
  const order = b.view.colour_order;
  const items = [1, 2, 3].map((rank) => {
    const colour = order[rank - 1];
    return html`<li data-testid="colour-rank-${rank}">${rank}. ${t(`fika.rank.${rank}`)}:
      ${colour ? html`<span class="chip c-${colour}"><svg viewBox="0 0 24 24"><use href="#fika-${colour}"/></svg>${t(`fika.colour.${colour}`)}</span>` : '—'}</li>`;
  });
  const tips = [0, 1].map((s) => html`<li>${t('fika.tipsCount', { count: b.view.players[s].tips, name: b.name(s) })}</li>`);
  return html`<section class="box"><h3>${t('fika.colourOrder')}</h3><ol class="colour-order" data-testid="colour-order">${items}</ol>
    <h3>${t('fika.tips')}</h3><ul class="plain">${tips}</ul></section>`;
}

/** One café's scoring, card by card (a round's, or the preview's: prefix tells the test ids). */
function scoreTable(b, r, seat, prefix = 'score') {
  const columns = seat === 1 ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4];
  const lines = new Map((r.cards[seat] || []).map((line) => [line.column, line]));
  const rows = columns.map((col) => lines.get(col)).filter(Boolean).map((line) => html`
    <tr class="${line.met ? 'met' : 'miss'}" data-testid="${prefix}-line-${seat}-${line.column}">
      <td>${chip(line.card)}</td>
      <td>${line.met ? `✔ ${t('fika.met')}` : `✘ ${t('fika.notMet')}`}${line.as != null ? html`<br><small>${t('fika.asNumber', { n: line.as })}</small>` : ''}</td>
      <td>${line.multiplier > 1 ? `×${line.multiplier}` : ''}</td>
      <td class="num">${line.coins}</td></tr>`);
  const total = prefix === 'score' ? 'round-coins' : `${prefix}-coins`;
  return html`<div class="score-cafe ${r.winner === seat ? 'winner' : ''}"><h4>${b.name(seat)}</h4>
    <table>${rows}<tr class="total"><td colspan="3">${t('fika.total')}</td><td class="num" data-testid="${total}-${seat}">${r.coins[seat]}</td></tr></table></div>`;
}

function scoreBox(b) {
  const r = b.view.last_round;
  if (!r) return '';
  const tie = tieWords(b, r);
  return html`<section class="box round-score" data-testid="round-score" data-round="${r.round}">
    <h3>${t('fika.lastRound', { n: r.round })}</h3>
    <div class="score-cafes">${scoreTable(b, r, b.bottom)}${scoreTable(b, r, 1 - b.bottom)}</div>
    <p><b>${r.winner === b.me ? t('fika.roundWinnerYou') : t('fika.roundWinner', { name: b.name(r.winner) })}</b></p>
    ${tie ? html`<p class="small" data-testid="round-tie">${tie}</p>` : ''}</section>`;
}

function logBox(b) {
  const items = b.log.map((e) => html`<li class="${e.round ? 'strong' : ''}">${e.text}</li>`);
  return html`<section class="box fika-log"><h3>${t('fika.log')}</h3><ol tabindex="0" data-testid="log" data-count="${b.log.length}">${items}</ol></section>`;
}

function guide(b) {
  const rows = [1, 2, 3, 4, 5, 6].map((n) => html`<tr><td class="num">${n}</td><td>${t(`fika.effect.${n}`)}</td><td>${t(`fika.objective.${n}`)}</td></tr>`);
  return html`<details class="box guide"><summary>${t('fika.guide')}</summary>
    <table><tr><th></th><th>${t('fika.guideEffect')}</th><th>${t('fika.guideObjective')}</th></tr>${rows}</table></details>`;
}

function endScreen(b) {
  const v = b.view;
  const winner = (v.winners || [])[0];
  const title = winner === b.me ? t('fika.endYou') : t('fika.endWinner', { name: b.name(winner) });
  const tips = [0, 1].map((s) => `${b.name(s)} ${v.players[s].tips}`).join(' – ');
  return html`<div class="fika-end ${b.endClosed ? 'closed' : ''}" data-testid="end-screen" data-winner="${winner}">
    <div class="card-panel">
      <button type="button" class="end-close" data-button="close-end" data-testid="end-close"
        title="${t('fika.end.closeTip')}" aria-label="${t('fika.end.close')}">×</button>
      <h2>${t('fika.endTitle')}</h2><p class="big">${title}</p>
      <p>${t('fika.endTips', { tips })}</p>
      ${endWhy(b)}
      <div class="end-actions" data-testid="end-actions"></div>
      <button type="button" class="end-open" data-button="open-end" data-testid="end-open">${t('fika.end.show')}</button>
    </div></div>`;
}

/** Columns left to right on the screen: the bottom player's reading order. */
function columns(b) { return b.bottom === 1 ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4]; }
