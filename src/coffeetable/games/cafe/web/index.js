// The Café table: the draft row, your company area (big) and the others'
// (small), and what you may do now, built from `legal` only:
// take: click a shown card (a cup card asks which cube pays for it);
// place: a ghost of the card follows the mouse, standing only where a legal
//   `place` puts it; R, right-click, the wheel or the buttons turn it; click places
//   (on a touch screen a tap shows the ghost there and a second tap on it places);
// actions: the areas you may act on are highlighted by kind; click one
//   (dry and roast ask for a colour when there is a choice; deliver opens the
//   delivery panel), or Pass. The action phase is simultaneous.

import { html, setHTML, toast } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { hintKey, onTouchChange, setHTMLKeepingEndActions, tn, touchFirst } from '../kit.js';
import { areaSvg, gridBox } from './area.js';
import { Delivery } from './deliver.js';
import { S, glyph, installCss } from './icons.js';
import {
  cafeText, cubeIcon, doing, draftRow, endScreen, logLine, masterToken, payChoice, statusBar, track, warehouse,
} from './panels.js';
import { Placer } from './place.js';

const ACTS = ['produce', 'dry', 'roast', 'deliver'];
const LOG_SIZE = 120;
const BIG = 62; // px per grid cell of your own area
const SMALL = 24; // px per grid cell of the other players' areas

function miniIcon(icon) {
  return html`<svg class="mini-icon" viewBox="0 0 ${S} ${S}" aria-hidden="true">${glyph(icon)}</svg>`;
}

class CafeTable {
  constructor(root, ctx) {
    installCss();
    this.ctx = ctx;
    this.view = null;
    this.legal = [];
    this.log = [];
    this.payFor = null; // a cup card whose payment is being chosen
    this.colourFor = null; // an area key waiting for a colour (dry, roast)
    this.delivery = null; // a Delivery being composed
    this.placer = null;
    this.hideEnd = false;
    this.pending = false; // an action is on its way: offer nothing until the answer
    setHTML(root, html`
      <div class="cafe" data-testid="cafe">
        <div class="cf-top" data-testid="status"></div>
        <div class="cf-main">
          <section class="cf-mine">
            <div class="cf-draft-wrap"><h3 class="cf-draft-title"></h3><div class="cf-draft" data-testid="draft"></div></div>
            <div class="cf-controls" data-testid="controls"></div>
            <div class="cf-own"></div>
          </section>
          <aside class="cf-side">
            <div class="cf-others" data-testid="others"></div>
            <div class="panel cf-logbox"><h3 class="cf-log-title"></h3><ol class="cf-log" data-testid="log"></ol></div>
          </aside>
        </div>
        <div class="cf-over"></div>
      </div>`);
    this.el = root.querySelector('.cafe');
    const q = (sel) => this.el.querySelector(sel);
    this.parts = {
      top: q('.cf-top'), draft: q('.cf-draft'), draftTitle: q('.cf-draft-title'), controls: q('.cf-controls'),
      own: q('.cf-own'), others: q('.cf-others'), log: q('.cf-log'), logTitle: q('.cf-log-title'), over: q('.cf-over'),
    };
    this.handlers = {
      click: (e) => this.click(e),
      // pointermove, not mousemove: a tap sends a mousemove too, which would move the ghost before the tap is judged
      pointermove: (e) => { if (e.pointerType !== 'touch') this.pointer(e); },
      contextmenu: (e) => this.contextMenu(e),
      wheel: (e) => this.wheel(e),
    };
    for (const [name, fn] of Object.entries(this.handlers)) this.el.addEventListener(name, fn, { passive: false });
    this.onKey = (e) => this.key(e);
    document.addEventListener('keydown', this.onKey);
    this.stopTouchWatch = onTouchChange(() => this.render());
  }

  get me() { return this.ctx.seat; }

  /** The seat drawn big: yours, or seat 0 for a spectator. */
  get main() { return this.me == null ? 0 : this.me; }

  // ---- messages from the server -------------------------------------------------------

  state(msg) {
    const before = this.view;
    this.view = msg.view;
    this.legal = msg.legal || [];
    this.seq = msg.seq;
    this.pending = false;
    if (!before || before.phase !== this.view.phase || before.round !== this.view.round) this.clearChoices();
    this.keepValid();
    this.render();
  }

  /** The match's recent events, sent on (re)connection: the log starts from them. */
  retell(events) {
    const told = events.filter((ev) => ev && ev.type && logLine(ev, (s) => this.logName(s)));
    this.log = told.slice(-LOG_SIZE);
    this.renderLog();
  }

  event(ev) {
    if (!ev || !ev.type || !logLine(ev, (s) => this.logName(s))) return;
    this.log.push(ev); // events, not lines: a language switch retells them
    if (this.log.length > LOG_SIZE) this.log.shift();
    this.renderLog();
  }

  rejected(msg) {
    toast(t('cafe.refused', { reason: msg.reason || '' }), 'error');
    this.pending = false;
    this.clearChoices();
    this.keepValid();
    this.render();
  }

  relabel() { this.render(); }

  seatsChanged() { this.render(); }

  destroy() {
    for (const [name, fn] of Object.entries(this.handlers)) this.el.removeEventListener(name, fn);
    document.removeEventListener('keydown', this.onKey);
    this.stopTouchWatch();
  }

  // ---- what is legal ------------------------------------------------------------------

  /** The legal actions on offer: none while an action of ours is on its way. */
  offered() { return this.pending ? [] : this.legal; }

  of(type) { return this.offered().filter((a) => a.type === type); }

  acts() { return this.offered().filter((a) => ACTS.includes(a.type)); }

  actsAt(areaKey) { return this.acts().filter((a) => `${a.area[0]},${a.area[1]}` === areaKey); }

  /** Area key -> the action kind offered there (an area has one icon, so one kind). */
  marks() {
    const out = new Map();
    for (const a of this.acts()) out.set(`${a.area[0]},${a.area[1]}`, a.type);
    return out;
  }

  clearChoices() {
    this.payFor = null;
    this.colourFor = null;
    this.delivery = null;
  }

  /** Drop choices the new legal actions no longer allow; (re)make the placer. */
  keepValid() {
    if (this.payFor && !this.of('take').some((a) => a.card === this.payFor)) this.payFor = null;
    if (this.colourFor && !this.actsAt(this.colourFor).length) this.colourFor = null;
    if (this.delivery && !this.actsAt(this.delivery.key).length) this.delivery = null;
    const places = this.of('place');
    const holding = this.view.holding;
    if (!places.length || !holding) this.placer = null;
    else if (!this.placer || this.placer.holding.id !== holding.id) {
      this.placer = new Placer(holding, places);
      this.placer.snap();
    } else {
      this.placer.places = places;
      this.placer.snap();
    }
  }

  // ---- input --------------------------------------------------------------------------

  click(event) {
    const el = event.target.closest('[data-take], [data-pay], [data-area], [data-act], [data-colour], [data-deliver]');
    const mine = event.target.closest('svg.cf-area.mine');
    if (this.placer && mine) {
      const before = this.placer.at;
      this.pointer(event);
      // a tap only shows the ghost where it lands; a tap on the ghost where it stands places it
      if (tapped(event) && this.placer.at !== before) this.drawGhost();
      else this.place();
      return;
    }
    if (!el || !this.el.contains(el)) return;
    const d = el.dataset;
    if (d.take) this.take(d.take);
    else if (d.pay) this.sendFirst(this.of('take').filter((a) => a.card === this.payFor && a.pay === d.pay));
    else if (d.area) this.area(d.area);
    else if (d.colour) this.sendFirst(this.actsAt(this.colourFor).filter((a) => a.colour === d.colour));
    else if (d.deliver) {
      const [cafe, colour, delta] = d.deliver.split(':');
      this.delivery.change(cafe, colour, Number(delta));
      this.renderControls();
    } else if (d.act) this.act(d.act);
  }

  take(card) {
    const options = this.of('take').filter((a) => a.card === card);
    if (options.some((a) => a.pay)) {
      this.payFor = this.payFor === card ? null : card;
      this.render();
    } else this.sendFirst(options);
  }

  area(areaKey) {
    const options = this.actsAt(areaKey);
    if (!options.length) return;
    const kind = options[0].type;
    this.clearChoices();
    if (kind === 'deliver') {
      const info = this.view.players[this.main].areas.find((a) => `${a.id[0]},${a.id[1]}` === areaKey);
      this.delivery = new Delivery(info, options);
    } else if (options.length === 1) {
      this.send(options[0]);
      return;
    } else this.colourFor = areaKey;
    this.render();
  }

  act(name) {
    if (name === 'pass') this.sendFirst(this.of('pass'));
    else if (name === 'cancel') { this.clearChoices(); this.render(); }
    else if (name === 'rotate-cw' || name === 'rotate-ccw') this.rotate(name === 'rotate-cw' ? 1 : -1);
    else if (name === 'place') this.place();
    else if (name === 'deliver-go' && this.delivery) this.send(this.delivery.action());
    else if (name === 'deliver-none' && this.delivery) { this.delivery.none(); this.renderControls(); }
    else if (name === 'hide-end') { this.hideEnd = !this.hideEnd; this.renderEnd(); }
    else if (name === 'close-end') { this.hideEnd = true; this.renderEnd(); }
  }

  /** The mouse over your area: the ghost follows, snapped to the nearest legal spot. */
  pointer(event) {
    if (!this.placer) return;
    const svg = event.target.closest && event.target.closest('svg.cf-area.mine');
    if (!svg || !svg.getScreenCTM()) return;
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const p = point.matrixTransform(svg.getScreenCTM().inverse());
    const was = this.placer.at;
    this.placer.moveTo(p.x / S, p.y / S);
    if (this.placer.at !== was) this.drawGhost();
  }

  contextMenu(event) {
    if (!this.placer || !event.target.closest('.cf-own')) return;
    event.preventDefault(); // right-click turns the card
    this.rotate(1);
  }

  wheel(event) {
    if (!this.placer || !event.target.closest('svg.cf-area.mine')) return;
    event.preventDefault();
    // a trackpad sends a burst of small wheel events: one quarter turn per burst
    if (event.timeStamp - (this.lastWheel || -Infinity) < 180) return;
    this.lastWheel = event.timeStamp;
    this.rotate(event.deltaY < 0 ? -1 : 1);
  }

  key(event) {
    if (event.target.closest && event.target.closest('input, select, textarea')) return;
    if (event.key === 'Escape') { this.clearChoices(); this.render(); return; }
    const focused = event.target.closest && event.target.closest('[data-area], [data-take]');
    if (focused && this.el.contains(focused) && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault(); // the keyboard uses a focused area or draft card like a click
      if (focused.dataset.area) this.area(focused.dataset.area);
      else if (focused.dataset.take) this.take(focused.dataset.take);
      return;
    }
    if (!this.placer) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key === 'r' || event.key === 'R') this.rotate(event.shiftKey ? -1 : 1);
    else if (steps[event.key]) { this.placer.step(...steps[event.key]); this.drawGhost(); }
    else if (event.key === 'Enter') this.place();
    else return;
    event.preventDefault();
  }

  rotate(delta) {
    this.placer.rotate(delta);
    this.drawGhost();
  }

  place() {
    if (this.placer && this.placer.at) this.send(this.placer.at);
  }

  sendFirst(options) {
    if (options.length) this.send(options[0]);
  }

  send(action) {
    if (!action) return;
    this.clearChoices();
    this.placer = null;
    this.pending = true;
    this.ctx.send(action);
    this.render();
  }

  // ---- drawing ------------------------------------------------------------------------

  name(seat) {
    if (seat == null) return '';
    if (seat === this.me) return t('cafe.you');
    return this.ctx.names()[seat] || t('cafe.seatName', { n: seat + 1 });
  }

  /** A seat in the log: its name even for you ("You" would not agree with the verbs in every language). */
  logName(seat) {
    if (seat == null) return '';
    return this.ctx.names()[seat] || t('cafe.seatName', { n: seat + 1 });
  }

  mode() {
    if (this.pending) return 'wait';
    if (this.of('take').length) return 'take';
    if (this.placer) return 'place';
    if (this.legal.length) return 'act';
    return 'wait';
  }

  render() {
    const v = this.view;
    if (!v) return;
    // keep the keyboard's place across a redraw
    const active = document.activeElement;
    const focus = active && this.el.contains(active) && active.dataset
      ? (active.dataset.area && `[data-area="${active.dataset.area}"]`) || (active.dataset.take && `[data-take="${active.dataset.take}"]`)
      : null;
    const d = this.el.dataset;
    d.phase = v.phase;
    d.round = String(v.round);
    d.seq = String(this.seq);
    d.canAct = String(this.legal.length > 0 && !this.pending);
    d.mode = this.mode();
    d.turn = v.turn == null ? '' : String(v.turn);
    d.master = String(v.master);
    d.players = String(v.players.length);
    d.holding = v.holding ? v.holding.id : '';
    setHTML(this.parts.top, statusBar(this.view, (seat) => this.name(seat)));
    this.parts.draftTitle.textContent = t(v.players.length === 1 ? 'cafe.draftSolo' : 'cafe.draft');
    const ships = this.me == null ? 0 : v.players[this.me].ships;
    setHTML(this.parts.draft, draftRow(v.display, this.of('take'), this.payFor, ships));
    this.renderControls();
    setHTML(this.parts.own, this.playerPanel(this.main, true));
    setHTML(this.parts.others, html`${v.players.map((_, s) => s).filter((s) => s !== this.main)
      .map((s) => this.playerPanel(s, false))}`);
    this.drawGhost();
    this.parts.logTitle.textContent = t('cafe.log');
    this.renderLog();
    this.renderEnd();
    const again = focus && this.el.querySelector(focus);
    if (again) again.focus();
  }

  renderControls() {
    setHTML(this.parts.controls, this.controls());
    this.parts.controls.classList.toggle('mine', this.offered().length > 0);
  }

  controls() {
    const v = this.view;
    if (v.phase === 'over') return html`<p class="cf-hint"><strong>${t('cafe.end.title')}</strong></p>`;
    const mode = this.mode();
    if (mode === 'take') {
      const hint = html`<p class="cf-hint" data-testid="hint">${t(v.players.length === 1 ? 'cafe.hint.takeSolo' : 'cafe.hint.take')}</p>`;
      return this.payFor ? html`${hint}${payChoice(this.payFor, this.of('take'), v.players[this.me].warehouse)}` : hint;
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
      const me = v.players[this.me];
      const kinds = [...new Set(this.acts().map((a) => a.type))];
      const legend = kinds.map((k) => html`<span class="cf-chip hl-${k}">${t(`cafe.act.${k}`)}</span>`);
      let extra = '';
      if (this.colourFor) {
        const options = this.actsAt(this.colourFor);
        extra = html`<div class="cf-choice" data-testid="colour-choice"><span>${t(`cafe.chooseColour.${options[0].type}`)}</span>
          ${options.map((a) => html`<button type="button" data-colour="${a.colour}" data-testid="colour-${a.colour}">${cubeIcon(a.colour)}
            ${t(`cafe.colour.${a.colour}`)}</button>`)}
          <button type="button" data-act="cancel" data-testid="cancel">${t('cafe.cancel')}</button></div>`;
      } else if (this.delivery) extra = this.delivery.render(me.cafes);
      const left = tn('cafe.actionsLeft', me.actions_left);
      return html`<p class="cf-hint" data-testid="hint">${left} ${t(kinds.length ? hintKey('cafe.hint.act') : 'cafe.hint.actNone')}
        ${legend}</p>
        <div class="cf-buttons"><button type="button" data-act="pass" data-testid="pass-button">${t('cafe.pass')}</button></div>${extra}`;
    }
    return html`<p class="cf-hint" data-testid="hint">${this.waitText()}</p>`;
  }

  waitText() {
    const v = this.view;
    if (this.me == null) return t('cafe.watching');
    if (this.pending) return t('cafe.sending');
    if (v.phase === 'take') return t('cafe.wait.take', { name: this.name(v.turn) });
    if (v.phase === 'place') return t('cafe.wait.place', { name: this.name(v.turn) });
    const busy = v.players.map((p, s) => (p.actions_left > 0 ? s : null)).filter((s) => s != null);
    return t('cafe.wait.actions', { names: busy.map((s) => this.name(s)).join(', ') });
  }

  playerPanel(seat, big) {
    const v = this.view;
    const p = v.players[seat];
    const mine = big && seat === this.me && !this.pending;
    const active = (v.phase === 'actions' && p.actions_left > 0) || (v.turn === seat && v.phase !== 'over');
    const reach = mine && this.placer ? this.placer.reach() : [];
    const box = gridBox(p.squares, reach);
    const cell = big ? BIG : SMALL;
    const svg = areaSvg(p, {
      box,
      marks: mine ? this.marks() : new Map(),
      selected: this.colourFor || (this.delivery && this.delivery.key),
      targets: mine && this.delivery ? this.delivery.targets() : null,
      ghost: mine,
      testid: `area-${seat}`,
      label: seat === this.me ? t('cafe.areaMine') : t('cafe.areaOf', { name: this.name(seat) }),
      cafeTitle: (cafe) => cafeText(cafe),
      tip: (sq) => t(`cafe.icon.${sq.icon}`),
      actLabel: (kind) => t(`cafe.act.${kind}`),
      className: `${mine ? 'mine' : ''} ${mine && this.placer ? 'placing' : ''}`,
      width: (box.x1 - box.x0 + 1) * cell + 8,
    });
    return html`<div class="cf-player panel ${big ? 'big' : 'small'} ${active ? 'active' : ''}" data-testid="player-${seat}"
        data-score="${p.score}" data-actions-left="${p.actions_left}" data-cards="${JSON.stringify(p.cards)}">
      <header>
        <strong class="cf-name">${this.name(seat)}</strong>
        ${v.master === seat ? masterToken() : ''}
        <span class="cf-score" data-testid="score-${seat}">${tn('cafe.points', p.score)}</span>
        <span class="cf-doing">${doing(v, seat)}</span>
      </header>
      <div class="cf-stats">${track(p, v.phase === 'actions')}${warehouse(p, seat)}
        <span class="cf-counts" title="${t('cafe.countsTip')}" data-testid="counts-${seat}">${miniIcon('cup')} ${p.cups}
          ${miniIcon('ship')} ${p.ships}</span></div>
      <div class="cf-svg-wrap">${svg}</div>
    </div>`;
  }

  drawGhost() {
    const layer = this.parts.own.querySelector('.ghost-layer');
    if (!layer) return;
    const p = this.view.players[this.main];
    const occupied = new Set(p.squares.map((s) => `${s.x},${s.y}`));
    setHTML(layer, this.placer ? this.placer.ghost(occupied) : html``);
    const info = this.parts.controls.querySelector('.cf-ghost-info');
    if (info && this.placer) {
      const covers = this.placer.covers(p);
      const names = new Map(p.cafes.map((c) => [c.id, c.name || c.id]));
      const lost = covers.cafes.filter((id) => !(p.cafes.find((c) => c.id === id) || {}).lost);
      info.textContent = tn('cafe.covers', covers.squares)
        + (lost.length ? ` ${tn('cafe.coversCafe', lost.length, { cafes: lost.map((id) => names.get(id)).join(', ') })}` : '');
      info.classList.toggle('warn', lost.length > 0);
    }
  }

  renderLog() {
    setHTML(this.parts.log, html`${this.log.slice(-60)
      .map((ev) => html`<li>${logLine(ev, (s) => this.logName(s))}</li>`)}`);
    this.parts.log.dataset.count = String(this.log.length);
    this.parts.log.scrollTop = this.parts.log.scrollHeight;
  }

  renderEnd() {
    const v = this.view;
    const show = v.phase === 'over';
    setHTMLKeepingEndActions(this.parts.over, show ? endScreen(v, (s) => this.name(s), this.hideEnd, this.me) : html``);
    this.parts.over.classList.toggle('hidden', show && this.hideEnd);
  }
}

/** A click that is a tap of a finger (on a touch-first device, a click that does not say). */
function tapped(event) {
  return event.pointerType === 'touch' || (!event.pointerType && touchFirst());
}

export default {
  name: 'cafe',
  mount: (root, ctx) => new CafeTable(root, ctx),
};
