// The Fika table: the street between the two cafés; the choices of the moment
// come from `legal` only, as clicks on the cards and spots they touch.
// model.js says what the state means (what a click does), view.js draws it,
// input.js maps clicks and keys, log.js tells the events. The end screen closes
// to a bar that can open it again.

import { html, setHTML } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { Board } from '../../js/board.js';
import { bindCardViewer } from '../../js/cardview.js';
import { cardName, cardOf, installCss, installSprite } from './cards.js';
import { bindInput } from './input.js';
import { describeCard } from './help.js';
import { describe } from './log.js';
import { render } from './view.js';

class FikaBoard extends Board {
  constructor(root, ctx) {
    super(root, ctx, { game: 'fika', logSize: 60 });
    installSprite();
    installCss();
    this.sel = [];          // tokens clicked so far (effects 1, 2, 3, 5, 6)
    this.pairs = [];        // effect 4: [[spot, card], ...]
    this.half = null;       // effect 4: a clicked spot or hand card waiting for its pair
    this.endClosed = false; // the end screen folded away
    setHTML(root, html`<div class="fika" data-testid="fika"></div>`);
    this.el = root.querySelector('.fika');
    this.onDestroy(bindInput(this));
    this.onDestroy(bindCardViewer(this.el, { describe: (el) => describeCard(this, el) }));
  }

  /** The seat drawn at the bottom: yours, or seat 0 for a spectator. */
  get bottom() { return this.me == null ? 0 : this.me; }

  stateChanged(before) {
    if (!before || before.phase !== this.view.phase || before.round !== this.view.round
        || JSON.stringify(before.effect) !== JSON.stringify(this.view.effect)) {
      this.clearChoices();
    }
  }

  /** The log keeps lines (told when they happen), a round's end in bold. */
  logEntry(ev) {
    const line = describe(this, ev);
    return line ? { text: line, round: ev.type === 'round_over' || ev.type === 'game_over' } : null;
  }

  tellEvent(ev) { return describe(this, ev); }

  /** A pick is secret until both have picked: the review names the card picked. */
  tellMove(action, events, seat) {
    if (action.type === 'pick') return [t('fika.ev.pickedCard', { name: this.name(seat), card: cardName(cardOf(action.card)) })];
    return super.tellMove(action, events, seat);
  }

  /** A seat in the board's sentences: "Ada (you)" for yours. */
  name(seat) {
    const names = this.ctx.names() || [];
    const name = names[seat] || `#${seat + 1}`;
    return seat === this.me ? `${name} (${t('fika.you')})` : name;
  }

  clearChoices() {
    this.sel = [];
    this.pairs = [];
    this.half = null;
  }

  byType(type) { return this.legal.filter((a) => a.type === type); }

  effectNumber() { return this.view && this.view.effect ? this.view.effect.number : null; }

  render() { render(this); }
}

export default {
  name: 'fika',
  mount: (root, ctx) => new FikaBoard(root, ctx),
};
