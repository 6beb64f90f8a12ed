// What lies over the board between rounds: the ready check with the last
// round's summary, the 3-2-1 countdown, FINITO, and the end of the match.
// Also the score sheet (points per round and totals).

import { html, joinHtml, trustedMarkup } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { emblem } from './cards.js';

const TROPHY = trustedMarkup('<svg class="trophy-icon" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 3h12v3h3v2a5 5 0 0 1-4.6 5 6 6 0 0 1-3.4 2.8V18h3v3H8v-3h3v-2.2A6 6 0 0 1 7.6 13 5 5 0 0 1 3 8V6h3zm0 5H5a3 3 0 0 0 1.3 2.4A7 7 0 0 1 6 8zm12 0a7 7 0 0 1-.3 2.4A3 3 0 0 0 19 8z"/></svg>');

function nameOf(m, seat) {
  return m.names[seat] || t('espresso.seatName', { n: seat + 1 });
}

function roundSummary(m, last) {
  if (!last) return '';
  const headline = last.blocked || last.finito == null
    ? t('espresso.blocked')
    : t('espresso.finitoBy', { name: nameOf(m, last.finito) });
  const rows = m.view.players.map((p, seat) => html`
    <tr class="${seat === last.finito ? 'finito' : ''}">
      <td>${emblem(seat)} ${nameOf(m, seat)}</td>
      <td class="num" data-testid="round-points-${seat}">${last.points[seat] ?? 0}</td>
      <td class="num">${p.score}</td></tr>`);
  return html`
    <div class="round-summary" data-testid="round-summary" data-round="${last.round}">
      <h3>${t('espresso.roundOver', { n: last.round })}</h3>
      <p class="headline">${headline}</p>
      <table><thead><tr><th></th><th>${t('espresso.points')}</th><th>${t('espresso.total')}</th></tr></thead>
      <tbody>${rows}</tbody></table>
    </div>`;
}

function readyCheck(m) {
  const me = m.me;
  const mine = me != null ? m.view.players[me] : null;
  const list = m.view.players.map((p, seat) => html`
    <li class="${p.ready ? 'ok' : ''}">${emblem(seat)} ${nameOf(m, seat)}
      <span>${p.ready ? '✓' : '…'}</span></li>`);
  let action = html`<p class="muted">${t('espresso.waitingPlayers')}</p>`;
  if (mine && !mine.ready && m.analysis.ready) {
    action = html`<button type="button" class="primary big" data-action="ready" data-testid="ready-button">${t('espresso.ready')}</button>
      <p class="muted">${t('espresso.readyHint')}</p>`;
  } else if (mine) {
    action = html`<p class="muted" data-testid="ready-waiting">${t('espresso.readyWait')}</p>`;
  }
  return html`
    <div class="overlay" data-testid="ready-check">
      <div class="dialog">
        ${roundSummary(m, m.view.last_round)}
        <h2>${t('espresso.roundTitle', { n: m.view.round, target: m.view.target })}</h2>
        <ul class="ready-list">${list}</ul>
        ${action}
      </div>
    </div>`;
}

/** The end of the match; closed, a bar above the table with the shared buttons and "Show the result". */
function matchOver(m) {
  const winners = m.view.winners || [];
  const names = winners.map((s) => nameOf(m, s)).join(', ');
  const headline = m.me != null && winners.includes(m.me)
    ? t('espresso.youWon')
    : t(winners.length > 1 ? 'espresso.winners' : 'espresso.winner', { names });
  const actions = html`<div class="end-actions" data-testid="end-actions"></div>`;
  if (m.endClosed) {
    return html`<div class="end-bar" data-testid="match-over-bar">${actions}
      <button type="button" data-action="open-end" data-testid="end-open">${t('espresso.end.show')}</button></div>`;
  }
  return html`
    <div class="overlay" data-testid="match-over">
      <div class="dialog">
        <button type="button" class="end-close" data-action="close-end" data-testid="end-close"
          title="${t('espresso.end.closeTip')}" aria-label="${t('espresso.end.close')}">×</button>
        <h2>${t('espresso.matchOver')}</h2>
        <p class="headline trophy" data-testid="winners" data-winners="${winners.join(',')}">${TROPHY} ${headline}</p>
        ${roundSummary(m, m.view.last_round)}
        ${actions}
      </div>
    </div>`;
}

/** The overlay for the view's phase (none while playing). */
export function phaseOverlay(m) {
  if (m.view.phase === 'ready') return readyCheck(m);
  if (m.view.phase === 'over') return matchOver(m);
  return html``;
}

/** The score sheet: one column per round seen, and the totals. */
export function scoreSheet(m) {
  const rounds = Object.keys(m.history).map(Number).sort((a, b) => a - b);
  const head = rounds.map((r) => html`<th>${t('espresso.roundShort', { n: r })}</th>`);
  const rows = m.view.players.map((p, seat) => html`
    <tr class="${seat === m.me ? 'me' : ''}">
      <td>${emblem(seat)} ${nameOf(m, seat)}</td>
      ${rounds.map((r) => html`<td class="num">${m.history[r][seat] ?? ''}</td>`)}
      <td class="num total" data-testid="total-${seat}">${p.score}</td></tr>`);
  return html`
    <aside class="score-sheet panel" data-testid="score-sheet">
      <h3>${t('espresso.scores')} <span class="muted">${t('espresso.roundOf', { n: m.view.round, target: m.view.target })}</span></h3>
      <div class="sheet-wrap"><table><thead><tr><th></th>${head}<th>${t('espresso.total')}</th></tr></thead><tbody>${rows}</tbody></table></div>
      ${variantTags(m.view.options || {})}
    </aside>`;
}

// The rules played, each saying what it means ("Zero: every 0 is a joker"): a bare
// name ("Normalo") told a new player nothing.
function variantTags(options) {
  const tags = [];
  if (options.zero) tags.push(t('espresso.option.zero'));
  if (options.chaos) tags.push(t('espresso.option.chaos'));
  if (!tags.length) tags.push(t('espresso.variant.normalo'));
  return html`<p class="variants">${joinHtml(tags.map((x) => html`<span class="tag">${x}</span>`), ' ')}</p>`;
}

/** A big word in the middle of the board for a moment: "3", "ESPRESSO!", "FINITO!". */
export function flash(root, text, { seconds = 1, cls = '', testid = 'flash' } = {}) {
  const el = document.createElement('div');
  el.className = `flash ${cls}`;
  el.setAttribute('data-testid', testid);
  el.textContent = text;
  root.append(el);
  setTimeout(() => el.remove(), seconds * 1000);
  return el;
}

/** 3, 2, 1, ESPRESSO! over the hold the server announced (shorter when bots are fast). */
export function countdown(root, seconds) {
  const layer = document.createElement('div');
  layer.className = 'flash countdown';
  layer.setAttribute('data-testid', 'countdown');
  root.append(layer);
  let left = 3;
  const step = Math.max(0, seconds) * 1000 / 3;
  const tick = () => {
    layer.textContent = left > 0 ? String(left) : t('espresso.go');
    layer.classList.toggle('go', left <= 0);
    layer.style.animation = 'none';
    void layer.offsetWidth; // restart the pop animation
    layer.style.animation = '';
    if (left <= 0) {
      setTimeout(() => layer.remove(), 900);
      return;
    }
    left -= 1;
    setTimeout(tick, step);
  };
  tick();
  return layer;
}
