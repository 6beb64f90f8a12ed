// The generic board: how the site shows a game that ships no board of its own
// (games/<name>/web/index.js): its view as readable text, its legal actions as buttons,
// the events as a log. Enough for a game's author to see their game live at once.
// Everything the game sends is text here: it goes through html`…` (escaped), never markup.

import { html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';

const LOG_SIZE = 40;

/** A JSON value as one short line of text. */
function text(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** An action or an event as a line: its type, then its other fields. */
export function describe(item) {
  if (!item || typeof item !== 'object') return text(item);
  const fields = Object.entries(item).filter(([key]) => key !== 'type');
  const rest = fields.map(([key, value]) => `${key} ${text(value)}`).join(', ');
  return rest ? `${item.type ?? '?'}: ${rest}` : String(item.type ?? '?');
}

function viewRows(view) {
  const entries = view && typeof view === 'object' ? Object.entries(view) : [['view', view]];
  return entries.map(([key, value]) => html`<dt>${key}</dt><dd>${text(value)}</dd>`);
}

class GenericBoard {
  constructor(root, ctx) {
    this.ctx = ctx;
    this.legal = [];
    this.log = [];
    setHTML(root, html`<div class="generic-board" data-testid="generic-board">
      <p class="generic-turn" data-testid="generic-turn"></p>
      <dl class="generic-view" data-testid="generic-view"></dl>
      <div class="generic-actions" data-testid="generic-actions"></div>
      <ol class="generic-log" tabindex="0" data-testid="game-log"></ol>
    </div>`);
    this.el = root.querySelector('.generic-board');
    this.unbind = onClick(this.el, '[data-index]', (event, button) => {
      const action = this.legal[Number(button.dataset.index)];
      if (action) this.ctx.send(action);
    });
  }

  state(msg) {
    this.legal = Array.isArray(msg.legal) ? msg.legal : [];
    const mine = this.ctx.seat != null && Array.isArray(msg.actors) && msg.actors.includes(this.ctx.seat);
    this.el.dataset.canAct = String(this.legal.length > 0);
    this.el.querySelector('.generic-turn').textContent = mine ? t('generic.yourMove') : t('generic.waiting');
    setHTML(this.el.querySelector('.generic-view'), html`${viewRows(msg.view)}`);
    setHTML(this.el.querySelector('.generic-actions'), html`${this.legal.map((action, index) => html`
      <button type="button" data-index="${index}" data-testid="action-${index}">${describe(action)}</button>`)}`);
  }

  event(ev) {
    this.log = [...this.log, describe(ev)].slice(-LOG_SIZE);
    setHTML(this.el.querySelector('.generic-log'), html`${this.log.map((line) => html`<li>${line}</li>`)}`);
  }

  retell(events) {
    for (const ev of events) this.event(ev || {});
  }

  rejected(msg) {
    toast(msg.reason || t('generic.refused'), 'error');
  }

  relabel() {}

  seatsChanged() {}

  destroy() {
    this.unbind();
  }
}

export default {
  mount(root, ctx) {
    return new GenericBoard(root, ctx);
  },
};
