// The Fika table: the street between the two cafés (yours at the bottom, the
// opponent's at the top, columns in the order you read your café), the supply,
// the groups, the colour order, the tips, your hand; the choices of the moment
// come from `legal` only, as clicks on the cards and spots they touch.
// The end screen closes to a bar that can open it again.

import { attrs, html, onClick, setHTML, toast } from '../../js/dom.js';
import { has, t } from '../../js/i18n.js';
import {
  hintKey, onTouchChange, setHTMLKeepingEndActions, tn,
} from '../kit.js';
import {
  back, cardName, empty, face, group as groupCard, installCss, installSprite, street as streetCard,
} from './cards.js';

const SPOTS = 5;
const LOG_SIZE = 60;

/** The keys a legal effect action touches: what must be clicked to choose it. */
function effectTokens(action, me) {
  const tokens = [];
  if (action.supply != null) tokens.push(`supply:${action.supply}`);
  if (action.hand != null) tokens.push(`hand:${action.hand}`);
  if (action.group != null) tokens.push(`group:${action.group}`);
  if (action.column != null) tokens.push(`street:${action.column}`);
  if (action.spots) action.spots.forEach((s) => tokens.push(`cafe:${action.cafe}:${s}`));
  else if (action.spot != null) tokens.push(`cafe:${action.cafe ?? me}:${action.spot}`);
  return tokens;
}

function pairKey(spot, card) { return `${spot}/${card}`; }

/** A card in a line of text: its colour's symbol and its number. */
function chip(card) {
  return html`<span class="chip c-${card.colour}" title="${cardName(card)}"><svg viewBox="0 0 24 24"><use href="#fika-${card.colour}"/></svg>${card.number}</span>`;
}

class FikaTable {
  constructor(root, ctx) {
    installSprite();
    installCss();
    this.ctx = ctx;
    this.view = null;
    this.legal = [];
    this.sel = [];          // tokens clicked so far (effects 1, 2, 3, 5, 6)
    this.pairs = [];        // effect 4: [[spot, card], ...]
    this.half = null;       // effect 4: a clicked spot or hand card waiting for its pair
    this.log = [];
    this.frame = 0;
    this.endClosed = false; // the end screen folded away
    setHTML(root, html`<div class="fika" data-testid="fika"></div>`);
    this.el = root.querySelector('.fika');
    this.unbind = [
      onClick(this.el, '[data-click]', (event, el) => this.click(el.dataset.click)),
      onClick(this.el, '[data-button]', (event, el) => this.button(el.dataset.button, el.dataset.value)),
    ];
    const onKey = (event) => {
      const el = event.target.closest && event.target.closest('[data-click]');
      if (el && (event.key === 'Enter' || event.key === ' ')) {
        event.preventDefault();
        this.focusToken = el.dataset.click;
        this.click(el.dataset.click);
      } else if (event.key === 'Escape' && (this.sel.length || this.pairs.length || this.half)) {
        this.clearSelection();
        this.draw();
      }
    };
    this.el.addEventListener('keydown', onKey);
    this.unbind.push(() => this.el.removeEventListener('keydown', onKey));
    this.unbind.push(onTouchChange(() => this.draw()));
  }

  get me() { return this.ctx.seat; }

  /** The seat drawn at the bottom: yours, or seat 0 for a spectator. */
  get bottom() { return this.me == null ? 0 : this.me; }

  // ---- messages from the server ---------------------------------------------------

  state(msg) {
    const before = this.view;
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.seq = msg.seq;
    if (!before || before.phase !== this.view.phase || before.round !== this.view.round
        || JSON.stringify(before.effect) !== JSON.stringify(this.view.effect)) {
      this.clearSelection();
    }
    this.draw(Boolean(before) && before.phase !== this.view.phase); // a new phase at once, the rest once a frame
  }

  /** The match's recent events, sent on (re)connection: the log starts from them. */
  retell(events) {
    this.log = [];
    for (const ev of events) {
      const line = this.describe(ev);
      if (line) this.log.push({ text: line, round: ev.type === 'round_over' || ev.type === 'game_over' });
    }
    this.log.splice(0, Math.max(0, this.log.length - LOG_SIZE));
    this.draw();
  }

  event(ev) {
    const line = this.describe(ev);
    if (line) {
      this.log.push({ text: line, round: ev.type === 'round_over' || ev.type === 'game_over' });
      if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
      this.draw();
    }
  }

  rejected(msg) {
    toast(t('fika.refused', { reason: msg.reason || '' }), 'error');
    this.clearSelection();
    this.draw();
  }

  relabel() { this.draw(true); }

  seatsChanged() { this.draw(); }

  destroy() {
    cancelAnimationFrame(this.frame);
    this.unbind.forEach((fn) => fn());
  }

  // ---- names and words -------------------------------------------------------------

  name(seat) {
    const names = this.ctx.names() || [];
    const name = names[seat] || `#${seat + 1}`;
    return seat === this.me ? `${name} (${t('fika.you')})` : name;
  }

  /** The position of a column in its owner's reading order, 1..5. */
  static readPos(seat, column) { return seat === 1 ? SPOTS - column : column + 1; }

  describe(ev) {
    const name = ev.seat != null ? this.name(ev.seat) : '';
    const mine = (seat) => this.me != null && seat === this.me;
    switch (ev.type) {
      case 'colour':
        return t('fika.ev.colour', { name, colour: t(`fika.colour.${ev.colour}`), rank: t(`fika.rank.${ev.rank}`) });
      case 'picked': return t('fika.ev.picked', { name });
      case 'revealed':
        return t('fika.ev.revealed', {
          cards: (ev.order || []).map((s) => `${this.name(s)}: ${cardName(ev.picks[s])}`).join(' · '),
        });
      case 'placed':
        return t('fika.ev.placed', { name, card: cardName(ev.card), spot: FikaTable.readPos(ev.seat, ev.spot) });
      case 'skipped': return t('fika.ev.skipped', { name, n: ev.number });
      case 'effect': {
        const owner = ev.cafe != null ? this.name(ev.cafe) : name;
        const ownerSeat = ev.cafe != null ? ev.cafe : ev.seat;
        const params = {
          name,
          owner,
          supply: (ev.supply ?? 0) + 1,
          spot: ev.spot != null ? FikaTable.readPos(ownerSeat, ev.spot) : '',
          spots: (ev.spots || []).map((s) => FikaTable.readPos(ownerSeat, s)).join(', '),
          group: (ev.group ?? 0) + 1,
          column: (ev.column ?? 0) + 1,
        };
        const key = `fika.ev.effect${ev.number}`;
        if (ev.number === 4) return tn(key, (ev.spots || []).length || 1, params);
        // "your spot", "your café" rather than "Ada (you)'s spot"
        return t(mine(ownerSeat) && has(`${key}.yours`) ? `${key}.yours` : key, params);
      }
      case 'returned': return t(mine(ev.seat) ? 'fika.ev.returned.yours' : 'fika.ev.returned', { name });
      case 'lone': return tn('fika.ev.lone', ev.plays, { name });
      case 'round_over':
        return t('fika.ev.roundOver', {
          n: ev.round,
          coins: (ev.coins || []).map((c, s) => `${this.name(s)} ${c}`).join(' – '),
          name: this.name(ev.winner),
        });
      case 'game_over': return t('fika.ev.gameOver', { name: this.name((ev.winners || [])[0]) });
      default: return '';
    }
  }

  // ---- choices from legal ------------------------------------------------------------

  clearSelection() {
    this.sel = [];
    this.pairs = [];
    this.half = null;
  }

  byType(type) { return this.legal.filter((a) => a.type === type); }

  effectNumber() { return this.view && this.view.effect ? this.view.effect.number : null; }

  /** The effect actions still possible with what was clicked so far. */
  candidates() {
    const effects = this.byType('effect');
    if (this.effectNumber() === 4) {
      const chosen = this.pairs.map(([s, c]) => pairKey(s, c));
      return effects.filter((a) => {
        const keys = a.swaps.map(([s, c]) => pairKey(s, c));
        if (!chosen.every((k) => keys.includes(k))) return false;
        if (!this.half) return true;
        return a.swaps.some(([s, c]) => !chosen.includes(pairKey(s, c))
          && (this.half.spot != null ? s === this.half.spot : c === this.half.card));
      });
    }
    return effects.filter((a) => {
      const tokens = effectTokens(a, this.me);
      return this.sel.every((tok) => tokens.includes(tok));
    });
  }

  /** token -> what a click on it does, for every clickable thing now. */
  clickables() {
    const out = new Map();
    if (!this.view || this.me == null) return out;
    for (const a of this.byType('pick')) out.set(`hand:${a.card}`, { send: a });
    for (const a of this.byType('place')) out.set(`cafe:${this.me}:${a.spot}`, { send: a });
    if (this.view.phase !== 'effect') return out;
    const cands = this.candidates();
    if (this.effectNumber() === 4) {
      const chosen = this.pairs.map(([s, c]) => pairKey(s, c));
      const usedSpots = this.pairs.map(([s]) => s);
      const usedCards = this.pairs.map(([, c]) => c);
      for (const a of cands) {
        for (const [s, c] of a.swaps) {
          if (chosen.includes(pairKey(s, c))) continue;
          if (this.half == null) {
            if (!usedSpots.includes(s)) out.set(`cafe:${this.me}:${s}`, { half: { spot: s } });
            if (!usedCards.includes(c)) out.set(`hand:${c}`, { half: { card: c } });
          } else if (this.half.spot != null && s === this.half.spot) {
            out.set(`hand:${c}`, { pair: [s, c] });
          } else if (this.half.card != null && c === this.half.card) {
            out.set(`cafe:${this.me}:${s}`, { pair: [s, c] });
          }
        }
      }
      return out;
    }
    for (const a of cands) {
      const tokens = effectTokens(a, this.me);
      const rest = tokens.filter((tok) => !this.sel.includes(tok));
      for (const tok of rest) {
        if (!out.has(tok)) out.set(tok, { add: tok });
        if (rest.length === 1) out.set(tok, { add: tok, send: a });
      }
    }
    return out;
  }

  /** Effect 4: the legal action made of exactly the chosen pairs, if any. */
  confirmable() {
    if (this.effectNumber() !== 4 || !this.pairs.length || this.half) return null;
    const chosen = this.pairs.map(([s, c]) => pairKey(s, c)).sort().join();
    return this.byType('effect').find((a) => a.swaps.map(([s, c]) => pairKey(s, c)).sort().join() === chosen) || null;
  }

  click(token) {
    if (this.sel.includes(token)) { // a second click undoes
      this.sel = this.sel.filter((x) => x !== token);
      this.draw();
      return;
    }
    if (this.half && ((this.half.spot != null && token === `cafe:${this.me}:${this.half.spot}`)
        || (this.half.card != null && token === `hand:${this.half.card}`))) {
      this.half = null;
      this.draw();
      return;
    }
    const what = this.clickables().get(token);
    if (!what) return;
    if (what.half) this.half = what.half;
    else if (what.pair) { this.pairs.push(what.pair); this.half = null; }
    else if (what.send) { this.send(what.send); return; }
    else if (what.add) this.sel.push(what.add);
    this.draw();
  }

  button(kind, value) {
    if (kind === 'colour') {
      const action = this.byType('colour').find((a) => a.colour === value);
      if (action) this.send(action);
    } else if (kind === 'skip' || kind === 'stop') {
      const action = this.byType(kind)[0];
      if (action) this.send(action);
    } else if (kind === 'confirm') {
      const action = this.confirmable();
      if (action) this.send(action);
    } else if (kind === 'clear') {
      this.clearSelection();
      this.draw();
    } else if (kind === 'close-end' || kind === 'open-end') {
      this.endClosed = kind === 'close-end';
      this.draw();
    }
  }

  send(action) {
    this.clearSelection();
    this.ctx.send(action);
    this.draw();
  }

  // ---- drawing ---------------------------------------------------------------------

  draw(now = false) {
    if (now) { this.render(); return; }
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => { this.frame = 0; this.render(); });
  }

  /** Columns left to right on the screen: the bottom player's reading order. */
  columns() { return this.bottom === 1 ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4]; }

  render() {
    if (!this.view) return;
    const v = this.view;
    const clicks = this.clickables();
    const selected = new Set(this.sel);
    if (this.half) selected.add(this.half.spot != null ? `cafe:${this.me}:${this.half.spot}` : `hand:${this.half.card}`);
    this.pairs.forEach(([s, c]) => { selected.add(`cafe:${this.me}:${s}`); selected.add(`hand:${c}`); });
    const m = { v, clicks, selected };
    this.el.dataset.phase = v.phase;
    this.el.dataset.round = String(v.round);
    this.el.dataset.seq = String(this.seq ?? '');
    this.el.dataset.canAct = String(this.legal.length > 0);
    this.el.dataset.effect = v.effect ? String(v.effect.number) : '';
    const markup = html`
      <div class="fika-board" data-testid="board">
        ${this.playerBar(1 - this.bottom, 'top')}
        ${this.cafe(m, 1 - this.bottom, 'top')}
        ${this.streetRow(m)}
        ${this.cafe(m, this.bottom, 'bottom')}
        ${this.playerBar(this.bottom, 'bottom')}
        ${this.prompt(m)}
        ${this.hand(m)}
      </div>
      <aside class="fika-side">
        ${this.coloursBox()}
        ${this.scoreBox()}
        ${this.logBox()}
        ${this.guide()}
      </aside>
      ${v.phase === 'over' ? this.endScreen() : ''}`;
    if (String(markup) === this.drawn) return; // unchanged: keep the elements (a press on them is not lost)
    this.drawn = String(markup);
    setHTMLKeepingEndActions(this.el, markup);
    if (this.focusToken) { // keep the keyboard's place across the redraw
      const again = this.el.querySelector(`[data-click="${this.focusToken}"]`) || this.el.querySelector('[data-click]');
      if (again) again.focus();
      this.focusToken = null;
    }
    const log = this.el.querySelector('.fika-log ol');
    if (log) log.scrollTop = log.scrollHeight;
  }

  cardSlot(m, token, inner, testid, extra = '') {
    const can = m.clicks.has(token);
    const sel = m.selected.has(token);
    const keys = can || sel ? attrs({ 'data-click': token, tabindex: 0, role: 'button' }) : '';
    return html`<div class="fk-slot ${can ? 'clickable' : ''} ${sel ? 'selected' : ''} ${extra}"
      ${keys} data-testid="${testid}">${inner}</div>`;
  }

  playerBar(seat, where) {
    const p = this.view.players[seat];
    const tips = Array.from({ length: 2 }, (_, i) => html`<span class="tip ${i < p.tips ? 'won' : ''}">${i < p.tips ? '★' : '☆'}</span>`);
    let pickState = '';
    if (this.view.phase === 'pick' && seat !== this.me) {
      pickState = html`<span class="pick-state ${p.picked ? 'done' : ''}" data-testid="picked-${seat}">${p.picked ? html`${back()} ${t('fika.picked')}` : t('fika.notPicked')}</span>`;
    }
    if (p.pick && (seat !== this.me || this.view.phase !== 'pick')) {
      pickState = html`<span class="pick-state shown" data-testid="pick-${seat}">${face(p.pick)}</span>`;
    }
    const hand = seat === this.me ? '' : html`<span class="muted">${tn('fika.handCount', p.hand_count)}</span>`;
    // the tooltip keeps "tip(s)" (fika.tipsOf) while tests/browser/test_hostile.py pins it; the lists say fika.tipsCount
    return html`<div class="pbar pbar-${where}" data-testid="player-${seat}">
      <b>${seat === this.me ? t('fika.yourCafe') : t('fika.cafeOf', { name: this.name(seat) })}</b>
      ${where === 'top' ? html`<span class="muted small">${t('fika.readsLeft')}</span>` : ''}
      <span class="tips" title="${t('fika.tipsOf', { name: this.name(seat), n: p.tips })}" data-testid="tips-${seat}" data-tips="${p.tips}">${tips}</span>
      ${hand} ${pickState}
    </div>`;
  }

  cafe(m, seat, where) {
    const cafe = this.view.players[seat].cafe;
    const effect = this.view.effect;
    const cells = this.columns().map((col) => {
      const card = cafe[col];
      const token = `cafe:${seat}:${col}`;
      const fresh = effect && effect.seat === seat && effect.spot === col ? 'fresh' : '';
      const inner = card ? face(card) : empty(String(FikaTable.readPos(seat, col)));
      return this.cardSlot(m, token, inner, `cafe-${seat}-${col}`, fresh);
    });
    return html`<div class="row cafe cafe-${where}" data-testid="cafe-${seat}">${cells}</div>`;
  }

  groupHtml(m, g, index) {
    const threeAt = g.facing == null ? null : (g.facing === this.bottom ? 'bottom' : 'top');
    let title = g.facing == null ? t('fika.group') : t('fika.cups3For', { name: this.name(g.facing) });
    if (g.facing != null && g.facing === this.me) title = t('fika.cups3ForYou');
    const known = g.card ? html`<span class="known-label">${t('fika.groupKnown', { card: cardName(g.card) })}</span>` : '';
    return html`<div class="group-wrap" title="${title}">
      ${this.cardSlot(m, `group:${index}`, groupCard(threeAt, g.card), `group-${index}`)}${known}</div>`;
  }

  streetRow(m) {
    const v = this.view;
    const onStreet = new Map();
    v.groups.forEach((g, i) => { if (g.column != null) onStreet.set(g.column, i); });
    const cells = this.columns().map((col) => {
      const gi = onStreet.get(col);
      const inner = gi != null ? this.groupHtml(m, v.groups[gi], gi) : streetCard(col);
      if (gi != null) return html`<div class="street-cell" data-testid="street-${col}">${inner}</div>`;
      return html`<div class="street-cell">${this.cardSlot(m, `street:${col}`, inner, `street-${col}`)}</div>`;
    });
    const beside = v.groups.map((g, i) => (g.column == null ? this.groupHtml(m, g, i) : ''));
    const supply = v.supply.map((card, i) => this.cardSlot(m, `supply:${i}`, face(card), `supply-${i}`));
    return html`<div class="street-zone">
      <div class="beside" data-testid="beside"><div class="label">${t('fika.beside')}</div><div class="cards">${beside}</div></div>
      <div class="row street" data-testid="street">${cells}</div>
      <div class="supply" data-testid="supply"><div class="label">${t('fika.supply')}</div><div class="cards">${supply}</div></div>
    </div>`;
  }

  prompt(m) {
    const v = this.view;
    const actors = v.phase === 'colours' ? [v.colour_order.length === 0 ? v.chooser : 1 - v.chooser]
      : v.phase === 'pick' ? [0, 1].filter((s) => (v.lone ? s === v.lone.seat : true) && !v.players[s].picked)
        : v.order.slice(0, 1);
    const other = actors.find((s) => s !== this.me);
    const mine = this.legal.length > 0;
    let text = '';
    const buttons = [];
    if (v.phase === 'over') text = t('fika.prompt.over');
    else if (this.me == null) text = t('fika.prompt.watch');
    else if (v.phase === 'colours') {
      if (mine) {
        text = t('fika.prompt.colour', { rank: t(`fika.rank.${v.colour_order.length + 1}`) });
        for (const a of this.byType('colour')) {
          buttons.push(html`<button type="button" class="colour-btn c-${a.colour}" data-button="colour" data-value="${a.colour}" data-testid="colour-${a.colour}">
            <svg viewBox="0 0 24 24"><use href="#fika-${a.colour}"/></svg> ${t(`fika.colour.${a.colour}`)}</button>`);
        }
      } else text = t('fika.prompt.colourWait', { name: this.name(other ?? 1 - this.me) });
    } else if (v.phase === 'pick') {
      text = mine ? t('fika.prompt.pick') : t('fika.prompt.pickWait', { name: this.name(1 - this.me) });
    } else if (v.phase === 'place') {
      text = mine ? t('fika.prompt.place', { card: cardName(v.players[this.me].pick) })
        : t('fika.prompt.placeWait', { name: this.name(v.order[0]) });
    } else if (v.phase === 'effect') {
      text = mine ? t(hintKey(`fika.prompt.effect${v.effect.number}`))
        : t('fika.prompt.effectWait', { name: this.name(v.effect.seat), n: v.effect.number });
    }
    if (mine && v.phase === 'effect') {
      if (this.effectNumber() === 4) {
        const ok = this.confirmable();
        buttons.push(html`<button type="button" class="primary" data-button="confirm" data-testid="confirm-button" ${attrs({ disabled: !ok })}>${t('fika.confirm')}</button>`);
      }
      if (this.sel.length || this.pairs.length || this.half) {
        buttons.push(html`<button type="button" data-button="clear" data-testid="clear-button">${t('fika.clear')}</button>`);
      }
      buttons.push(html`<button type="button" data-button="skip" data-testid="skip-button">${t('fika.skip')}</button>`);
    }
    if (this.byType('stop').length) {
      buttons.push(html`<button type="button" data-button="stop" data-testid="stop-button">${t('fika.stop')}</button>`);
    }
    let lone = '';
    if (v.lone && v.phase !== 'over') {
      lone = html`<div class="lone" data-testid="lone">${v.lone.seat === this.me ? tn('fika.lone', v.lone.left)
        : tn('fika.loneOther', v.lone.left, { name: this.name(v.lone.seat) })}</div>`;
    }
    const order = v.order.length
      ? html`<div class="order" data-testid="order">${t('fika.order', { names: v.order.map((s) => this.name(s)).join(' → ') })}</div>` : '';
    return html`<div class="prompt ${mine ? 'mine' : ''}" data-testid="prompt">
      <span class="round">${t('fika.round', { n: v.round })}</span>
      <span class="text" data-testid="prompt-text">${text}</span>
      ${order}${lone}
      <span class="buttons">${buttons}</span>
    </div>`;
  }

  hand(m) {
    if (this.me == null) return '';
    const p = this.view.players[this.me];
    const pickId = p.pick ? p.pick.id : null;
    const cards = (p.hand || []).map((card) => this.cardSlot(
      m, `hand:${card.id}`, face(card), `hand-card-${card.id}`, card.id === pickId ? 'picked' : '',
    ));
    return html`<div class="hand-zone"><div class="label">${t('fika.hand')}</div>
      <div class="row hand" data-testid="hand" data-count="${(p.hand || []).length}">${cards}</div></div>`;
  }

  coloursBox() {
    const order = this.view.colour_order;
    const items = [1, 2, 3].map((rank) => {
      const colour = order[rank - 1];
      return html`<li data-testid="colour-rank-${rank}">${rank}. ${t(`fika.rank.${rank}`)}:
        ${colour ? html`<span class="chip c-${colour}"><svg viewBox="0 0 24 24"><use href="#fika-${colour}"/></svg>${t(`fika.colour.${colour}`)}</span>` : '—'}</li>`;
    });
    const tips = [0, 1].map((s) => html`<li>${tn('fika.tipsCount', this.view.players[s].tips, { name: this.name(s) })}</li>`);
    return html`<section class="box"><h3>${t('fika.colourOrder')}</h3><ol class="colour-order" data-testid="colour-order">${items}</ol>
      <h3>${t('fika.tips')}</h3><ul class="plain">${tips}</ul></section>`;
  }

  scoreBox() {
    const r = this.view.last_round;
    if (!r) return '';
    const columns = (seat) => (seat === 1 ? [4, 3, 2, 1, 0] : [0, 1, 2, 3, 4]);
    const table = (seat) => {
      const lines = new Map((r.cards[seat] || []).map((line) => [line.column, line]));
      const rows = columns(seat).map((col) => lines.get(col)).filter(Boolean).map((line) => html`
        <tr class="${line.met ? 'met' : 'miss'}" data-testid="score-line-${seat}-${line.column}">
          <td>${chip(line.card)}</td>
          <td>${line.met ? `✔ ${t('fika.met')}` : `✘ ${t('fika.notMet')}`}${line.as != null ? html`<br><small>${t('fika.asNumber', { n: line.as })}</small>` : ''}</td>
          <td>${line.multiplier > 1 ? `×${line.multiplier}` : ''}</td>
          <td class="num">${line.coins}</td></tr>`);
      return html`<div class="score-cafe ${r.winner === seat ? 'winner' : ''}"><h4>${this.name(seat)}</h4>
        <table>${rows}<tr class="total"><td colspan="3">${t('fika.total')}</td><td class="num" data-testid="round-coins-${seat}">${r.coins[seat]}</td></tr></table></div>`;
    };
    return html`<section class="box round-score" data-testid="round-score" data-round="${r.round}">
      <h3>${t('fika.lastRound', { n: r.round })}</h3>
      <div class="score-cafes">${table(this.bottom)}${table(1 - this.bottom)}</div>
      <p><b>${r.winner === this.me ? t('fika.roundWinnerYou') : t('fika.roundWinner', { name: this.name(r.winner) })}</b></p></section>`;
  }

  logBox() {
    const items = this.log.map((e) => html`<li class="${e.round ? 'strong' : ''}">${e.text}</li>`);
    return html`<section class="box fika-log"><h3>${t('fika.log')}</h3><ol data-testid="log" data-count="${this.log.length}">${items}</ol></section>`;
  }

  guide() {
    const rows = [1, 2, 3, 4, 5, 6].map((n) => html`<tr><td class="num">${n}</td><td>${t(`fika.effect.${n}`)}</td><td>${t(`fika.objective.${n}`)}</td></tr>`);
    return html`<details class="box guide"><summary>${t('fika.guide')}</summary>
      <table><tr><th></th><th>${t('fika.guideEffect')}</th><th>${t('fika.guideObjective')}</th></tr>${rows}</table></details>`;
  }

  endScreen() {
    const v = this.view;
    const winner = (v.winners || [])[0];
    const title = winner === this.me ? t('fika.endYou') : t('fika.endWinner', { name: this.name(winner) });
    const tips = [0, 1].map((s) => `${this.name(s)} ${v.players[s].tips}`).join(' – ');
    return html`<div class="fika-end ${this.endClosed ? 'closed' : ''}" data-testid="end-screen" data-winner="${winner}">
      <div class="card-panel">
        <button type="button" class="end-close" data-button="close-end" data-testid="end-close"
          title="${t('fika.end.closeTip')}" aria-label="${t('fika.end.close')}">×</button>
        <h2>${t('fika.endTitle')}</h2><p class="big">${title}</p>
        <p>${t('fika.endTips', { tips })}</p>
        <div class="end-actions" data-testid="end-actions"></div>
        <button type="button" class="end-open" data-button="open-end" data-testid="end-open">${t('fika.end.show')}</button>
      </div></div>`;
  }
}

export default {
  name: 'fika',
  mount: (root, ctx) => new FikaTable(root, ctx),
};
