// The replay viewer's "Review with the bot" panel (server/review.py): a button
// starts the review of the finished match (POST /api/tables/{id}/review); the
// panel polls its progress (GET) and, once done, lists each person's decisions
// that cost something by the bot's estimate, biggest first. Clicking one asks
// the viewer to jump to the position where it was decided, seen by that seat.
// Turn-based games only: for a real-time game the panel stays empty.

import { api } from './api.js';
import { attrs, html, onClick, setHTML, stylesheet } from './dom.js';
import { has, t } from './i18n.js';

const POLL_MS = 600;
//: A decision costing less than this (half a point of win chance) is the bot's too.
const NOTABLE = 0.005;
//: The list shows this many at first; "Show all" shows the rest.
const SHOWN = 10;

/**
 * Mount the panel in `root`. `options`: {tableId, game, names() -> seat names,
 * players() -> how many seats (solo: the cost is of the score estimate, there is
 * no win chance), tell(action, events, seat) -> the move in the board's words (lines)
 * or null, jump(frame, seat, note() -> markup to show over the board there, marks:
 * [{kind: 'played'|'best', action, seat}] for the board to point at)}.
 * Returns {relabel(), destroy()}.
 */
export function mountReview(root, options) {
  stylesheet('review-css', '/static/css/review.css');
  const view = { destroyed: false, review: null, error: null, timer: null, all: false, chosen: null, turnBased: null };

  function schedule() {
    clearTimeout(view.timer);
    view.timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    if (view.destroyed) return;
    try {
      view.review = await api.review(options.tableId);
      view.error = null;
    } catch (err) {
      if (err.status !== 404) view.error = err;
      view.review = null;
    }
    if (view.destroyed) return;
    render();
    if (view.review && view.review.status === 'running') schedule();
  }

  async function begin() {
    view.error = null;
    try {
      view.review = await api.startReview(options.tableId);
    } catch (err) {
      view.error = err;
    }
    if (view.destroyed) return;
    render();
    if (view.review && view.review.status === 'running') schedule();
  }

  function render() {
    if (view.turnBased === false) {
      setHTML(root, html``);
      return;
    }
    const review = view.review;
    setHTML(root, html`<section class="review-panel" data-testid="review-panel"
        data-status="${review ? review.status : 'none'}">
      <h2>${t('review.title')}</h2>
      ${body(review)}
      ${view.error ? html`<p class="error" data-testid="review-error">${errorText(view.error)}</p>` : ''}
    </section>`);
  }

  function body(review) {
    if (!review || review.status === 'failed') {
      return html`<p class="muted">${t('review.explain')}</p>
        ${review ? html`<p class="error" data-testid="review-failed">${t('review.failed')}</p>` : ''}
        <button type="button" class="primary" data-action="start" data-testid="review-start">${t('review.start')}</button>`;
    }
    if (review.status === 'running') {
      return html`<p data-testid="review-progress-text">${t('review.progress', { done: review.done, total: review.total })}</p>
        <progress data-testid="review-progress" max="${Math.max(1, review.total)}" value="${review.done}"></progress>`;
    }
    if (review.total === 0) return html`<p data-testid="review-nobody">${t('review.nobody')}</p>`;
    const judged = review.decisions || [];
    const mistakes = judged.filter((j) => j.cost != null && j.cost >= NOTABLE);
    const shown = view.all ? mistakes : mistakes.slice(0, SHOWN);
    const matched = judged.filter((j) => j.cost != null && j.cost < NOTABLE).length;
    const unweighed = judged.filter((j) => j.cost == null).length;
    return html`<p class="muted" data-testid="review-summary">${t('review.summary', { count: judged.length, matched })}
        ${unweighed ? t('review.unweighed', { count: unweighed }) : ''}</p>
      ${mistakes.length === 0 ? html`<p data-testid="review-none">${t('review.noMistakes')}</p>` : html`
      <ol class="review-mistakes" data-testid="review-mistakes">${shown.map((j) => item(j))}</ol>
      ${mistakes.length > shown.length ? html`<button type="button" data-action="all" data-testid="review-all">${t('review.showAll', { count: mistakes.length })}</button>` : ''}`}`;
  }

  function details(j) {
    const names = options.names();
    const who = names[j.seat] ?? t('table.emptySeat', { n: j.seat + 1 });
    return html`<span class="review-where">${t('review.move', { n: j.index + 1, round: j.round })} · ${who}</span>
      <span class="review-cost" data-testid="review-cost">${t(options.players() === 1 ? 'review.costSolo' : 'review.cost', { points: Math.round(j.cost * 1000) / 10 })}</span>
      <span class="review-played" data-testid="review-played">${t('review.played', { action: words(j, 'played') })}</span>
      <span class="review-best" data-testid="review-best">${t('review.best', { action: words(j, 'best') })}</span>`;
  }

  // A move in the board's words, as its log tells it (options.tell), else its type and fields.
  function words(j, which) {
    const lines = options.tell ? options.tell(j[which], j[`${which}_events`] || [], j.seat) : null;
    return lines ? lines.map(plain).join(' · ') : describe(options.game, j[which]);
  }

  function item(j) {
    const chosen = view.chosen === j.index;
    return html`<li><button type="button" class="review-mistake${chosen ? ' chosen' : ''}" data-testid="review-mistake"
        data-frame="${j.index}" data-seat="${j.seat}" ${attrs({ 'aria-current': chosen ? 'true' : null })}>
      ${details(j)}
    </button></li>`;
  }

  onClick(root, '[data-action]', (event, button) => {
    if (button.dataset.action === 'start') begin();
    else if (button.dataset.action === 'all') {
      view.all = true;
      render();
    }
  });
  onClick(root, '[data-testid="review-mistake"]', (event, button) => {
    view.chosen = Number(button.dataset.frame);
    render();
    const judged = (view.review && view.review.decisions) || [];
    const j = judged.find((d) => d.index === view.chosen);
    // The note the viewer shows over the board while it is at this position.
    const note = j ? () => html`<div class="review-note">${details(j)}</div>` : null;
    // The board marks where the move was played and where the bot would have played.
    const marks = j ? [{ kind: 'played', action: j.played, seat: j.seat }, { kind: 'best', action: j.best, seat: j.seat }] : null;
    options.jump(Number(button.dataset.frame), Number(button.dataset.seat), note, marks);
  });

  async function start() {
    try {
      const games = await api.games();
      const found = games.find((g) => g.name === options.game);
      view.turnBased = !(found && found.realtime);
    } catch {
      view.turnBased = true; // the server says no itself if it must
    }
    if (view.destroyed) return;
    if (!view.turnBased) {
      render();
      return;
    }
    poll();
  }

  start();
  return {
    relabel() { if (view.turnBased !== null) render(); },
    destroy() {
      view.destroyed = true;
      clearTimeout(view.timer);
    },
  };
}

function errorText(err) {
  if (err.status === 429) return t('review.busy');
  if (err.status === 409) return err.reason;
  return t('error.network', { reason: err.reason });
}

// A log line is text or markup (a round's end in bold): the review wants its words.
function plain(line) {
  if (typeof line === 'string') return line;
  const holder = document.createElement('span');
  setHTML(holder, line);
  return holder.textContent;
}

/**
 * An action in words: its type (a game's own `<game>.action.<type>` string if it
 * has one, else ours, else the type itself), then its fields.
 */
export function describe(game, action) {
  if (!action || typeof action !== 'object') return String(action);
  const type = String(action.type ?? '');
  const name = has(`${game}.action.${type}`) ? t(`${game}.action.${type}`)
    : has(`review.type.${type}`) ? t(`review.type.${type}`) : type;
  const fields = Object.entries(action)
    .filter(([key]) => key !== 'type')
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.map((v) => (Array.isArray(v) ? v.join('↔') : String(v))).join(', ') : String(value)}`);
  return fields.length ? `${name} (${fields.join(' · ')})` : name;
}
