// The card viewer every board shares: a card at full size with its words (its
// effect, its objective, what it scores now), readable on a phone, where the
// card's own small print is not. A board says which elements are cards and what
// each one says (describe); the viewer opens on
//   - a tap (touch or pen) on a card that has nothing else to do (not actionable);
//     a mouse's click does not, so a click that lands as the board redraws never
//     opens a dialog in the way: the mouse has the right button (and the tooltip),
//   - a long press on any card (its click is then swallowed: no move is made),
//   - the key "i" on a focused card (and Enter on one that is not actionable),
// as a modal <dialog>: Escape or its Close button closes it, and the focus goes
// back to the card. Every value goes in through html`` (js/dom.js); no inline style.

import { html, setHTML } from './dom.js';
import { t } from './i18n.js';

const LONG_PRESS_MS = 500; // held this long, a press reads the card instead of playing it
const MOVE_SLOP_PX = 10; // a press that moves further is a scroll or a drag
const SWALLOW_MS = 800; // the click that ends a long press comes within this

let open = null; // {dialog, opener, key, root}: the viewer on the page, at most one

/**
 * Open the viewer. card: {title, art (Markup: the card drawn large), parts:
 * [{key, label, text}], note (text, optional)}; from: the element to give the
 * focus back to (found again by its data-card-view inside root if redrawn).
 */
export function showCard(card, from = null, root = null) {
  closeCard();
  const dialog = document.createElement('dialog');
  dialog.className = 'card-viewer';
  dialog.setAttribute('data-testid', 'card-viewer');
  dialog.setAttribute('aria-label', card.title);
  const parts = (card.parts || []).map((p) => html`<div class="cv-part" data-testid="card-view-${p.key}">
    <dt>${p.label}</dt><dd>${p.text}</dd></div>`);
  setHTML(dialog, html`<div class="cv-body">
    <h2 class="cv-title" data-testid="card-view-title">${card.title}</h2>
    <div class="cv-art" aria-hidden="true">${card.art || ''}</div>
    <dl class="cv-parts">${parts}</dl>
    ${card.note ? html`<p class="cv-note" data-testid="card-view-note">${card.note}</p>` : ''}
    <button type="button" class="primary cv-close" data-testid="card-view-close">${t('cardview.close')}</button>
  </div>`);
  document.body.append(dialog);
  open = { dialog, opener: from, key: from && from.dataset ? from.dataset.cardView : null, root };
  dialog.addEventListener('close', () => finish(dialog));
  // the dialog's own keys are its own: Escape closes it (its default), and no board
  // listening on the page takes it as "drop the half-made choice"
  dialog.addEventListener('keydown', (event) => event.stopPropagation());
  dialog.addEventListener('click', (event) => {
    // the Close button, or a tap on the backdrop (outside the dialog's box)
    if (event.target.closest('.cv-close') || event.target === dialog) dialog.close();
  });
  dialog.showModal();
  dialog.querySelector('.cv-close').focus();
}

/** Close the viewer if one is open. */
export function closeCard() {
  if (open && open.dialog.open) open.dialog.close();
  else if (open) finish(open.dialog);
}

/** The dialog went: remove it, and give the focus back to its card. */
function finish(dialog) {
  if (!open || open.dialog !== dialog) return;
  const { opener, key, root } = open;
  open = null;
  dialog.remove();
  let target = opener && opener.isConnected ? opener : null;
  if (!target && key && root) target = root.querySelector(`[data-card-view="${CSS.escape(key)}"]`);
  if (target) target.focus();
}

/**
 * Make the cards inside root open the viewer. Options:
 * - selector: the card elements (default `[data-card-view]`);
 * - describe(el): the card's {title, art, parts, note}, or null for none;
 * - actionable(el): a click on el plays something (default: it has data-click), so
 *   neither a tap nor Enter opens the viewer on it (a long press and "i" still do);
 * - contextMenu: a right-click (and Android's long press) opens it too (default true).
 * Returns the function that stops it all (and closes an open viewer).
 */
export function bindCardViewer(root, {
  selector = '[data-card-view]', describe, actionable = (el) => el.hasAttribute('data-click'), contextMenu = true,
}) {
  let press = null; // {timer, x, y}
  let swallowUntil = 0;
  const cardOf = (event) => {
    const el = event.target.closest && event.target.closest(selector);
    return el && root.contains(el) ? el : null;
  };
  const view = (el) => {
    const card = describe(el);
    if (card) showCard(card, el, root);
    return Boolean(card);
  };
  const cancel = () => { if (press) clearTimeout(press.timer); press = null; };
  const listeners = {
    pointerdown: (event) => {
      const el = cardOf(event);
      if (!el || event.button > 0) return;
      cancel();
      press = {
        x: event.clientX,
        y: event.clientY,
        timer: setTimeout(() => {
          press = null;
          if (view(el)) swallowUntil = performance.now() + SWALLOW_MS;
        }, LONG_PRESS_MS),
      };
    },
    pointermove: (event) => {
      if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > MOVE_SLOP_PX) cancel();
    },
    pointerup: cancel,
    pointercancel: cancel,
    click: (event) => {
      const el = cardOf(event);
      if (performance.now() < swallowUntil) { // the end of a long press: not a move
        swallowUntil = 0;
        event.stopPropagation();
        event.preventDefault();
        return;
      }
      if (el && event.pointerType && event.pointerType !== 'mouse' && !actionable(el)) view(el);
    },
    contextmenu: (event) => {
      const el = contextMenu && cardOf(event);
      if (!el) return;
      event.preventDefault();
      event.stopPropagation(); // the board's own right-click (Café turns a card) is not for a card read
      cancel();
      if (!open) view(el);
      swallowUntil = performance.now() + SWALLOW_MS;
    },
    keydown: (event) => {
      const el = cardOf(event);
      if (!el || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'i' || event.key === 'I' || (event.key === 'Enter' && !actionable(el))) {
        if (view(el)) {
          event.preventDefault();
          event.stopPropagation();
        }
      }
    },
  };
  // capture: the viewer sees a long press's click before the board's own click handler
  for (const [type, fn] of Object.entries(listeners)) root.addEventListener(type, fn, true);
  return () => {
    cancel();
    for (const [type, fn] of Object.entries(listeners)) root.removeEventListener(type, fn, true);
    if (open && open.root === root) closeCard();
  };
}

/** Attributes that make a card element open the viewer: its key, focusable, named. */
export function cardViewAttrs(key, name) {
  return { 'data-card-view': key, tabindex: 0, 'aria-haspopup': 'dialog', 'aria-label': t('cardview.open', { card: name }) };
}
