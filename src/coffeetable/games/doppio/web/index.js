// The Espresso Doppio table: the path of five spaces, the players' cards, and
// what the player may do, built from `legal` only (never guessed from the view).
//
// Set-up: pick a colour of the piece being placed, then a highlighted space.
// Play: click pieces to select them (on one space: then a highlighted space
// moves them there; on two spaces: "Exchange" swaps them), click a fulfilled
// card to score it (both ways round legal: choose upright or turned 180°),
// Undo and End turn. Solo has no turns: each move costs a bean.
// model.js reads `legal`, view.js draws, input.js maps clicks and keys, log.js
// tells the events (the end screen's breakdown reads the log: it keeps them all).

import { html, setHTML } from '../../js/dom.js';
import { Board } from '../../js/board.js';
import { bindCardViewer } from '../../js/cardview.js';
import { describeCard } from './help.js';
import { bindInput } from './input.js';
import { keepValid } from './model.js';
import { installCss } from './pieces.js';
import { logLine } from './log.js';
import { render, renderLog, renderOver } from './view.js';

class DoppioBoard extends Board {
  constructor(root, ctx) {
    super(root, ctx, { game: 'doppio', logSize: 200, eachFrame: false });
    installCss();
    this.sel = new Map(); // space -> Set of kinds
    this.colour = null; // set-up: the colour chosen
    this.choice = null; // a card whose orientation is being chosen
    this.confirmEnd = false; // "End turn" pressed with a card still to score: asked first
    this.endClosed = false; // the end screen folded away
    setHTML(root, html`
      <div class="doppio" data-testid="doppio">
        <div class="d-top">
          <div class="d-status" data-testid="turn-status"></div>
          <div class="d-reserve" data-testid="reserve"></div>
        </div>
        <div class="d-main">
          <div class="d-board">
            <div class="d-path" data-testid="path"></div>
            <div class="d-controls" data-testid="controls"></div>
            <div class="d-players"></div>
          </div>
          <aside class="d-side panel">
            <h3 data-i18n="doppio.log"></h3>
            <ol class="d-log" tabindex="0" data-testid="game-log"></ol>
          </aside>
        </div>
        <div class="d-over"></div>
      </div>`);
    this.el = root.querySelector('.doppio');
    this.parts = {
      status: this.el.querySelector('.d-status'),
      reserve: this.el.querySelector('.d-reserve'),
      path: this.el.querySelector('.d-path'),
      controls: this.el.querySelector('.d-controls'),
      players: this.el.querySelector('.d-players'),
      log: this.el.querySelector('.d-log'),
      logTitle: this.el.querySelector('.d-side h3'),
      over: this.el.querySelector('.d-over'),
    };
    bindInput(this);
    // a click scores a card that can be scored; reading a card is a tap on another, a long press or i
    this.onDestroy(bindCardViewer(this.el, { describe: (el) => describeCard(this, el), actionable: (el) => el.hasAttribute('data-card') }));
  }

  tellEvent(ev) { return logLine(this, ev); }

  stateChanged() {
    this.el.dataset.seq = String(this.seq);
    if (!this.of('score').length) this.confirmEnd = false;
    keepValid(this);
  }

  logChanged() {
    renderLog(this);
    if (this.view && this.view.phase === 'over') renderOver(this); // the breakdown reads the log
  }

  clearChoices() {
    this.sel.clear();
    this.choice = null;
    this.confirmEnd = false; // "End turn" pressed with a card still to score: asked first
  }

  /** A refusal keeps the selection (sending dropped the one that went). */
  refused() {}

  of(type) { return this.legal.filter((a) => a.type === type); }

  /** Redraw, keeping the keyboard's place: the element focused before, by its test id. */
  render() {
    const active = document.activeElement;
    const focused = active && this.el.contains(active) ? active.getAttribute('data-testid') : null;
    render(this);
    if (!focused || this.el.contains(document.activeElement)) return;
    const again = this.el.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
    if (again && again.matches('[tabindex], button')) again.focus();
    else this.parts.path.querySelector('[tabindex]')?.focus(); // it went (a piece moved): the path
  }
}

export default {
  name: 'doppio',
  mount: (root, ctx) => new DoppioBoard(root, ctx),
};
