// The Café table: the draft row, your company area (big) and the others'
// (small), and what you may do now, built from `legal` only:
// take: click a shown card (a cup card asks which cube pays for it);
// place: a ghost of the card follows the mouse, standing only where a legal
//   `place` puts it; R, right-click, the wheel or the buttons turn it; click places
//   (on a touch screen a tap shows the ghost there and a second tap on it places);
// actions: the areas you may act on are highlighted by kind; click one
//   (dry and roast ask for a colour when there is a choice; deliver opens the
//   delivery panel), or Pass. The action phase is simultaneous.
// model.js reads `legal`, view.js draws, input.js maps the mouse, touch and keys.

import { html, setHTML } from '../../js/dom.js';
import { Board } from '../../js/board.js';
import { bindCardViewer } from '../../js/cardview.js';
import { describeCard } from './help.js';
import { installCss } from './icons.js';
import { bindInput } from './input.js';
import { keepValid } from './model.js';
import { logLine } from './panels.js';
import { render, renderLog } from './view.js';

class CafeBoard extends Board {
  constructor(root, ctx) {
    super(root, ctx, { game: 'cafe', logSize: 120, eachFrame: false });
    installCss();
    this.payFor = null; // a cup card whose payment is being chosen
    this.colourFor = null; // an area key waiting for a colour (dry, roast)
    this.delivery = null; // a Delivery being composed
    this.placer = null;
    this.hideEnd = false;
    this.pending = false; // an action is on its way: offer nothing until the answer
    setHTML(root, html`
      <div class="cafe-board" data-testid="cafe">
        <div class="cf-top" data-testid="status"></div>
        <div class="cf-main">
          <section class="cf-mine">
            <div class="cf-draft-wrap"><h3 class="cf-draft-title"></h3><div class="cf-draft" data-testid="draft"></div>
              <p class="cf-draft-hint muted small" data-testid="card-hint"></p></div>
            <div class="cf-controls" data-testid="controls"></div>
            <div class="cf-own"></div>
          </section>
          <aside class="cf-side">
            <div class="cf-others" data-testid="others"></div>
            <div class="panel cf-logbox"><h3 class="cf-log-title"></h3><ol class="cf-log" tabindex="0" data-testid="log"></ol></div>
          </aside>
        </div>
        <div class="cf-over"></div>
      </div>`);
    this.el = root.querySelector('.cafe-board');
    const q = (sel) => this.el.querySelector(sel);
    this.parts = {
      top: q('.cf-top'), draft: q('.cf-draft'), draftTitle: q('.cf-draft-title'), draftHint: q('.cf-draft-hint'), controls: q('.cf-controls'),
      own: q('.cf-own'), others: q('.cf-others'), log: q('.cf-log'), logTitle: q('.cf-log-title'), over: q('.cf-over'),
    };
    bindInput(this);
    // a take is a click (or Enter) on a takeable card; reading it is a tap on another, a long press or i
    this.onDestroy(bindCardViewer(this.el, { describe: (el) => describeCard(this, el), actionable: (el) => Boolean(el.dataset.take) }));
  }

  /** The seat drawn big: yours, or seat 0 for a spectator. */
  get main() { return this.me == null ? 0 : this.me; }

  stateChanged(before) {
    this.pending = false;
    if (!before || before.phase !== this.view.phase || before.round !== this.view.round) this.clearChoices();
    keepValid(this);
  }

  /** The log keeps events, not lines (a language switch retells them); only those it tells. */
  logEntry(ev) {
    return ev && ev.type && logLine(ev, (s) => this.seatName(s)) ? ev : null;
  }

  logChanged() { renderLog(this); }

  tellEvent(ev) { return logLine(ev, (s) => this.seatName(s)); }

  refused() {
    this.pending = false;
    this.clearChoices();
    keepValid(this);
  }

  clearChoices() {
    this.payFor = null;
    this.colourFor = null;
    this.delivery = null;
  }

  /** Send an action: nothing is offered until the server answers. */
  send(action) {
    if (!action) return false;
    this.placer = null;
    this.pending = true;
    return super.send(action);
  }

  /** The legal actions on offer: none while an action of ours is on its way. */
  offered() { return this.pending ? [] : this.legal; }

  of(type) { return this.offered().filter((a) => a.type === type); }

  render() { render(this); }
}

export default {
  name: 'cafe',
  mount: (root, ctx) => new CafeBoard(root, ctx),
};
