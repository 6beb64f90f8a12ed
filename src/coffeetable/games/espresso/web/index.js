// The Espresso table: keeps the latest state from the server, what the player
// has selected and the cards in flight, the game log's events, and redraws the board.

import { html, setHTML, stylesheet, toast } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { Board, setHTMLKeepingEndActions, touchFirst } from '../../js/board.js';
import { cardName, centre, hint, playerArea, shortcuts } from './board.js';
import { installSprite } from './cards.js';
import { LOG_SIZE, logLine, told } from './log.js';
import { bindInput } from './input.js';
import {
  analyse, cardAt, choices, followerKey, orderedTargets, sameCard, sourceKey, targetKey,
} from './moves.js';
import { countdown, flash, phaseOverlay, scoreSheet } from './overlays.js';
import { Ghost } from './ghost.js';

const PENDING_TIMEOUT_MS = 5000;
const NO_SELECTION = Object.freeze({ source: null, follower: null, card: null });

class EspressoBoard extends Board {
  constructor(root, ctx) {
    super(root, ctx, { game: 'espresso', logSize: LOG_SIZE });
    installSprite();
    // the board's own additions to css/table.css and css/cards.css (the phone, the log, the end bar)
    stylesheet('espresso-css', new URL('./espresso.css', import.meta.url).href);
    const sheet = document.getElementById('espresso-css');
    if (sheet && !sheet.sheet) sheet.addEventListener('load', () => this.scrollLog(), { once: true }); // the log's height comes with it
    this.analysis = analyse([], null);
    this.sel = NO_SELECTION;
    this.pending = new Map(); // position -> {card, ghost, timer}
    this.history = {}; // round number -> points per seat, from the view
    this.fresh = new Set();
    this.myPlays = 0;
    this.endClosed = false; // the match's end folded away
    setHTML(root, html`
      <div class="espresso" data-testid="espresso">
        <div class="board" data-testid="board"></div>
        <div class="side"><div class="side-scores"></div><div class="side-log"></div></div>
        <div class="overlay-layer"></div>
        <div class="fx-layer"></div>
      </div>`);
    this.el = root.querySelector('.espresso');
    this.fx = root.querySelector('.fx-layer');
    this.onDestroy(bindInput(this, this.el));
  }

  // ---- messages from the server (the rest: js/board.js) ---------------------------
  // Many states a second while playing are drawn once a frame; a new phase (the ready
  // check, the match's end) at once.

  stateChanged(previous) {
    this.analysis = analyse(this.legal, this.me);
    this.fresh = freshStacks(previous, this.view);
    this.history = Object.fromEntries((this.view.rounds || []).map((points, i) => [i + 1, points]));
    for (const [key, entry] of this.pending) {
      if (!sameCard(cardAt(this.view, key), entry.card)) this.resolve(key, 'land');
    }
    this.keepSelectionValid();
  }

  /** The log keeps the events it tells (log.js), as events: a language switch retells them. */
  logEntry(ev) { return told(ev) ? ev : null; }

  event(ev) {
    super.event(ev);
    if (ev.type === 'countdown') countdown(this.fx, ev.seconds ?? 3);
    else if (ev.type === 'round_over') {
      this.history[ev.round] = ev.points;
      flash(this.fx, ev.finito == null ? t('espresso.blockedShort') : t('espresso.finito'),
        { seconds: 1.6, cls: 'finito', testid: 'finito' });
    } else if ((ev.type === 'played' || ev.type === 'joker') && ev.seat === this.me) {
      this.myPlays += 1;
      const key = ev.type === 'played' ? sourceKey(ev, this.me) : null;
      for (const pendingKey of [...this.pending.keys()]) {
        if (key === null || pendingKey === key) this.resolve(pendingKey, 'land');
      }
      this.el.dataset.myPlays = String(this.myPlays);
    }
  }

  rejected(msg) {
    const action = msg.action || {};
    const key = action.source ? sourceKey(action, this.me) : null;
    // Lost the race: the server's code says so (a rate refusal also reads "slow down").
    const slow = msg.code === 'too_slow';
    const word = slow ? t('espresso.tooSlow') : t('espresso.refused');
    if (key && this.pending.has(key)) this.resolve(key, 'snap', word);
    else if (slow) flash(this.fx, word, { seconds: 1.2, cls: 'slow', testid: 'too-slow' });
    if (!slow) toast(t('espresso.refusedReason', { reason: msg.reason || '' }), 'error');
    this.draw();
  }

  destroy() {
    super.destroy();
    for (const key of [...this.pending.keys()]) this.resolve(key, 'land');
  }

  // ---- what the player does (called by input.js) ----------------------------------

  canPlay() { return this.me != null && this.view && this.view.phase === 'play'; }

  choices() { return choices(this.analysis, this.sel, this.me); }

  pick(key) {
    if (!this.canPlay()) return;
    const { followers } = this.choices();
    if (this.sel.source && !this.sel.follower && followers.has(key)) this.sel = { ...this.sel, follower: key };
    else if (this.sel.follower === key) this.sel = { ...this.sel, follower: null };
    else if (this.sel.source === key) this.sel = NO_SELECTION;
    else if (this.analysis.sources.has(key) && !this.pending.has(key)) {
      this.sel = { source: key, follower: null, card: cardAt(this.view, key) };
    } else return;
    this.draw();
  }

  /** Play the selection on a target ("stack:3" or "new"); false when that target is not legal. */
  target(key, ghost = null) {
    if (!this.canPlay() || !this.sel.source) return false;
    const tkey = key === 'new' || key.startsWith('stack:') ? key : null;
    const action = tkey && this.choices().targets.get(tkey);
    if (!action) return false;
    this.send(action, ghost, key);
    return true;
  }

  /** Digit keys pick the n-th highlighted stack once a card is selected. */
  targetByNumber(n) {
    if (!this.sel.source) return false;
    const { targets, followers } = this.choices();
    if (!targets.size) return followers.size === 0;
    const order = orderedTargets(targets).filter((k) => k !== 'new');
    if (n <= order.length) this.target(order[n - 1]);
    return true;
  }

  enter() {
    if (this.view && this.view.phase === 'ready') { this.ready(); return; }
    const order = orderedTargets(this.choices().targets);
    if (order.length) this.target(order[0]);
  }

  /** Whether a pressed card may be dragged: it is now the selected card or the joker's follower. */
  canDrag(key) {
    return this.canPlay() && this.isSelected(key);
  }

  isSelected(key) { return this.sel.source === key || this.sel.follower === key; }

  flip(count) {
    if (!this.canPlay()) return;
    const flips = this.analysis.flips;
    const action = count ? flips.find((f) => f.count === count) : flips[0];
    if (action) this.ctx.send(action);
  }

  recycle() {
    if (this.canPlay() && this.analysis.recycle) this.ctx.send(this.analysis.recycle);
  }

  ready() {
    if (this.analysis.ready && this.ctx.send(this.analysis.ready)) {
      this.analysis = { ...this.analysis, ready: null };
      this.draw();
    }
  }

  /** Fold the match's end away (to look at the table) or open it again. */
  closeEnd(closed) {
    this.endClosed = closed;
    this.draw();
  }

  /** A press on a stack the selected card cannot go on: say why, keep the card selected. */
  notThere() {
    if (!this.canPlay() || !this.sel.source) return;
    const key = this.choices().targets.size ? 'espresso.notThere' : 'espresso.nowhere';
    toast(t(key, { card: cardName(this.sel.card) }), 'info', 3);
  }

  cancel() {
    if (this.sel.source) {
      this.sel = NO_SELECTION;
      this.draw();
    }
  }

  // ---- internals ----------------------------------------------------------------

  /** Drop a selection the new state made stale: the card moved, or it cannot go anywhere now. */
  keepSelectionValid() {
    const { source, follower, card } = this.sel;
    if (!source) return;
    if (this.view.phase !== 'play' || !this.analysis.sources.has(source)
        || !sameCard(cardAt(this.view, source), card)) {
      this.sel = NO_SELECTION;
    } else if (follower && !choices(this.analysis, { source }, this.me).followers.has(follower)) {
      this.sel = { ...this.sel, follower: null };
    }
  }

  send(action, ghost, targetKeyName) {
    const keys = [sourceKey(action, this.me)];
    if (action.type === 'joker') keys.push(followerKey(action, this.me));
    this.sel = NO_SELECTION;
    if (!this.ctx.send(action)) {
      if (ghost) ghost.snapBack();
      this.draw();
      return;
    }
    let flying = ghost;
    const placeEl = this.el.querySelector(`.place[data-pos="${keys[0]}"]`);
    if (!flying && placeEl) flying = new Ghost(placeEl.getBoundingClientRect(), placeEl.querySelector('svg.card'));
    if (flying) flying.flyTo(this.el.querySelector(`[data-target="${targetKeyName || targetKey(action.target)}"]`));
    keys.forEach((key, i) => {
      const timer = setTimeout(() => this.resolve(key, 'land'), PENDING_TIMEOUT_MS);
      this.pending.set(key, { card: cardAt(this.view, key), ghost: i === 0 ? flying : null, timer });
    });
    this.draw();
  }

  resolve(key, how, word) {
    const entry = this.pending.get(key);
    if (!entry) return;
    this.pending.delete(key);
    clearTimeout(entry.timer);
    if (entry.ghost) {
      if (how === 'snap') entry.ghost.snapBack(word);
      else entry.ghost.land();
    }
    if (how === 'snap') {
      // The joker's follower went back too.
      for (const [other, e] of [...this.pending]) {
        if (!e.ghost) { this.pending.delete(other); clearTimeout(e.timer); }
      }
    }
  }

  /** The containers of the board's parts, made again only when the seats change. */
  layout() {
    const key = `${this.me}/${this.view.players.length}`;
    if (this.slots && this.slots.key === key) return this.slots;
    const seats = this.view.players.map((_, i) => i);
    const others = this.me == null ? seats : seats.filter((s) => s !== this.me);
    const slot = (name) => html`<div class="slot" data-slot="${name}"></div>`;
    setHTML(this.el.querySelector('.board'), html`
      <div class="others">${others.map((s) => slot(`p${s}`))}</div>
      ${slot('centre')}
      ${this.me != null ? html`<div class="mine">${slot('hint')}${slot(`p${this.me}`)}${slot('shortcuts')}</div>` : slot('hint')}`);
    this.slots = { key };
    for (const el of this.el.querySelectorAll('[data-slot]')) this.slots[el.dataset.slot] = el;
    this.slots.side = this.el.querySelector('.side-scores');
    this.slots.log = this.el.querySelector('.side-log');
    this.slots.overlay = this.el.querySelector('.overlay-layer');
    for (const el of [this.slots.side, this.slots.log, this.slots.overlay]) drawn.delete(el);
    return this.slots;
  }

  render() {
    if (!this.view) return;
    const ch = this.choices();
    const order = orderedTargets(ch.targets);
    const labels = new Map(order.filter((k) => k !== 'new').slice(0, 9).map((k, i) => [k, String(i + 1)]));
    if (ch.targets.has('new')) labels.set('new', 'N');
    const m = {
      view: this.view,
      me: this.me,
      names: this.ctx.names(),
      analysis: this.analysis,
      canAct: this.legal.length > 0,
      sel: this.sel,
      choices: ch,
      targetLabels: labels,
      pending: new Set(this.pending.keys()),
      fresh: this.fresh,
      history: this.history,
      touch: touchFirst(),
      endClosed: this.endClosed,
    };
    this.el.dataset.phase = this.view.phase;
    this.el.dataset.round = String(this.view.round);
    this.el.dataset.selected = this.sel.source || '';
    this.el.dataset.canAct = String(this.legal.length > 0);
    this.el.classList.toggle('watching', this.me == null);
    this.el.classList.toggle('touch', m.touch);
    const slots = this.layout();
    this.view.players.forEach((_, seat) => patch(slots[`p${seat}`], playerArea(m, seat)));
    patch(slots.centre, centre(m));
    patch(slots.hint, hint(m));
    if (slots.shortcuts) patch(slots.shortcuts, shortcuts(m));
    patch(slots.side, scoreSheet(m));
    this.renderLog(slots.log, m);
    patch(slots.overlay, phaseOverlay(m));
    slots.overlay.classList.toggle('closed', this.view.phase === 'over' && this.endClosed);
    this.fresh = new Set();
  }

  renderLog(el, m) {
    const zero = Boolean((this.view.options || {}).zero);
    const lines = this.log.map((ev) => logLine(ev, m.names, zero)).filter(Boolean).slice(-60);
    const changed = patch(el, html`<section class="panel game-log"><h3>${t('espresso.log')}</h3>
      <ol tabindex="0" data-testid="game-log" data-count="${lines.length}">${lines.map((line) => html`<li>${line}</li>`)}</ol></section>`);
    if (changed) this.scrollLog();
  }

  /** The log shows its latest lines. */
  scrollLog() {
    const list = this.el.querySelector('.side-log ol');
    if (list) list.scrollTop = list.scrollHeight;
  }
}

const drawn = new WeakMap();

/** Replace an element's content only when its markup changed: what did not change
 * keeps its elements (a press on them is not lost, animations do not restart), and
 * the end screen's action slot keeps what was put in it. True when it changed. */
function patch(el, markup) {
  const text = String(markup);
  if (drawn.get(el) === text) return false;
  setHTMLKeepingEndActions(el, markup);
  drawn.set(el, text);
  return true;
}

function freshStacks(before, after) {
  const fresh = new Set();
  if (!before || !after || before.round !== after.round) return fresh;
  (after.centre || []).forEach((stack, i) => {
    if (!before.centre[i] || before.centre[i].length !== stack.length) fresh.add(i);
  });
  return fresh;
}

export default {
  name: 'espresso',
  mount: (root, ctx) => new EspressoBoard(root, ctx),
};
