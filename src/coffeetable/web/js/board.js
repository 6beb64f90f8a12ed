// What the four boards (games/<name>/index.js) share: the Board base class (the
// lifecycle js/table.js and js/replay.js call, the log ring, seat names, send,
// redraw scheduling), touch-first wording, and end screens whose action slot
// survives a redraw. Counted strings are i18n's own: t(key, {count}) (js/i18n.js).

import { setHTML, toast } from './dom.js';
import { has, t } from './i18n.js';

/**
 * A game's board: what js/table.js (and js/replay.js) drive through
 * `mount(root, ctx)` -> board. The base keeps the latest state (`view`, `legal`,
 * `seq`), the game log as a bounded ring, and schedules redraws; a board extends
 * it and implements:
 *
 * - `render()`: draw `this.view` (called by `draw()`; never before the first state);
 * - optionally `stateChanged(before)`: after a state message set `view`/`legal`/`seq`,
 *   before the redraw (`before` is the previous view, null on the first);
 * - optionally `logEntry(ev)`: what the log keeps of an event (default: the event
 *   itself when it has a type), or a falsy value for nothing;
 * - optionally `logChanged()`: the log grew or was retold (default: `draw()`);
 * - optionally `tellEvent(ev)`: the log's line for an event (text or markup, '' for
 *   none); the review tells moves with it (`tellMove`), in the log's words;
 * - optionally `clearChoices()`: drop what the player had half chosen (called by
 *   `send`, and by `refused(msg)`, the refusal's hook, unless the board overrides it);
 * - the `<game>.refused` string ("Refused: {reason}") and `<game>.seatName` ("Seat {n}"),
 *   `<game>.you` ("You") unless it overrides `rejected`, `seatName` or `name`.
 *
 * Options: `game` (its name: the prefix of those strings), `logSize` (the log
 * ring's length), `eachFrame` (true: redraws wait for the next animation frame,
 * many states a second drawn once; false: every `draw()` renders at once).
 */
export class Board {
  constructor(root, ctx, { game, logSize = 60, eachFrame = true } = {}) {
    this.root = root;
    this.ctx = ctx;
    this.game = game;
    this.logSize = logSize;
    this.eachFrame = eachFrame;
    this.view = null;
    this.legal = [];
    this.seq = undefined;
    this.log = []; // the log ring: at most logSize entries, the oldest dropped first
    this.frame = 0;
    // The review's marks, set by the replay: [{kind: 'played'|'best', action, seat}]
    // for a board to point at where a reviewed move was played (see marked()).
    this.marks = null;
    this.cleanups = [];
    this.onDestroy(onTouchChange(() => this.draw()));
  }

  /** The seat this board plays, or null for a spectator. */
  get me() { return this.ctx.seat; }

  // ---- the lifecycle table.js calls -------------------------------------------------

  /** A state message ({seq, view, legal, actors}): keep it, then redraw (a new phase at once). */
  state(msg) {
    const before = this.view;
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.seq = msg.seq;
    this.stateChanged(before);
    this.draw(Boolean(before) && before.phase !== this.view.phase);
  }

  /** The match's recent events, sent on (re)connection: the log starts from them. */
  retell(events) {
    this.log = (events || []).map((ev) => this.logEntry(ev)).filter(Boolean).slice(-this.logSize);
    this.logChanged();
  }

  /** One of the match's events: the log keeps what logEntry() makes of it. */
  event(ev) {
    const entry = this.logEntry(ev);
    if (!entry) return;
    this.log.push(entry);
    if (this.log.length > this.logSize) this.log.splice(0, this.log.length - this.logSize);
    this.logChanged();
  }

  /** The server refused our action: say why (`<game>.refused`), then refused(), then redraw. */
  rejected(msg) {
    toast(t(`${this.game}.refused`, { reason: msg.reason || '' }), 'error');
    this.refused(msg);
    this.draw();
  }

  /** The language changed: every text again, at once. */
  relabel() { this.draw(true); }

  /** Someone sat down or left: the names changed. */
  seatsChanged() { this.draw(); }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    for (const fn of this.cleanups.splice(0)) fn();
  }

  // ---- for the boards ---------------------------------------------------------------

  stateChanged() {}

  logEntry(ev) { return ev && ev.type ? ev : null; }

  logChanged() { this.draw(); }

  clearChoices() {}

  refused() { this.clearChoices(); }

  tellEvent() { return ''; }

  /**
   * The review's mark on a thing of the board ('played', 'best', both as
   * 'played best', or ''): `keysOf(action, seat)` lists the keys a move touches in the
   * board's own naming, and `key` is the thing drawn.
   */
  marked(key, keysOf) {
    if (!this.marks) return '';
    return this.marks.filter((m) => keysOf(m.action, m.seat).includes(key)).map((m) => m.kind).join(' ');
  }

  /**
   * A move of `seat` in the board's words (the review: what was played, what the bot
   * prefers): the log's lines for the public events it caused, or null when they tell
   * nothing (the review then names the action's type and fields).
   */
  tellMove(action, events, seat) {
    const lines = (events || []).map((ev) => this.tellEvent(ev)).filter(Boolean);
    return lines.length ? lines : null;
  }

  /** Run fn when the board goes (a listener's removal); returns fn. */
  onDestroy(fn) {
    this.cleanups.push(fn);
    return fn;
  }

  /** target.addEventListener(type, fn, options) until the board goes. */
  listen(target, type, fn, options) {
    target.addEventListener(type, fn, options);
    this.onDestroy(() => target.removeEventListener(type, fn, options));
  }

  /** A seat as the table names it: the player's name, else "Seat n" (`<game>.seatName`). */
  seatName(seat) {
    if (seat == null) return '';
    return (this.ctx.names() || [])[seat] || t(`${this.game}.seatName`, { n: seat + 1 });
  }

  /** A seat in the board's own sentences: "You" (`<game>.you`) for ours, else seatName(). */
  name(seat) {
    if (seat == null) return '';
    if (seat === this.me) return t(`${this.game}.you`);
    return this.seatName(seat);
  }

  /**
   * What a board says while `seat` is to act and it is someone else's: `text` ("Bo is
   * choosing a colour…"), or, while no one holds the seat yet, "Waiting for a player to
   * take seat 2".
   */
  waitFor(seat, text) {
    const free = typeof this.ctx.free === 'function' && seat != null && this.ctx.free(seat);
    return free ? t('table.waitingForSeat', { n: seat + 1 }) : text;
  }

  /** Send an action: the half-made choice goes, the board redraws; false when it could not go. */
  send(action) {
    this.clearChoices();
    const sent = this.ctx.send(action);
    this.draw();
    return sent;
  }

  /** Redraw: now, or (eachFrame) once at the next animation frame however often asked. */
  draw(now = false) {
    if (now || !this.eachFrame) {
      this.paint();
      return;
    }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.paint();
    });
  }

  paint() {
    if (this.view) this.render();
  }

  render() {
    throw new Error(`${this.constructor.name} must implement render()`);
  }
}

const TOUCH_FIRST = '(hover: none) and (pointer: coarse)';

/** A touch-first device (a phone or a tablet without a mouse): hints speak of taps, not keys. */
export function touchFirst() {
  return typeof matchMedia === 'function' && matchMedia(TOUCH_FIRST).matches;
}

/** Call fn when the device turns touch-first or not (a mouse plugged into a tablet); returns a stop function. */
export function onTouchChange(fn) {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia(TOUCH_FIRST);
  query.addEventListener('change', fn);
  return () => query.removeEventListener('change', fn);
}

/** The key of a hint with a touch form: "key.touch" on a touch-first device when it exists, else key. */
export function hintKey(key) {
  return touchFirst() && has(`${key}.touch`) ? `${key}.touch` : key;
}

/**
 * setHTML() for markup holding an end screen: the end screen's
 * `.end-actions` element (the slot the shared front end fills with "Play again",
 * "View the replay", "Back to the lobby") is kept across the redraw, with whatever
 * was put in it, so a board may redraw its end screen at will.
 */
export function setHTMLKeepingEndActions(el, markup) {
  const kept = el.querySelector('.end-actions');
  setHTML(el, markup);
  const fresh = el.querySelector('.end-actions');
  if (kept && fresh && kept !== fresh) fresh.replaceWith(kept);
}
