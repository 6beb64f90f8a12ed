// Espresso cards in SVG. Each colour has a symbol as well (red heart, green
// leaf, blue drop, yellow sun), so the cards read without telling colours
// apart; the owner's back (coffee, wine glass, ice cream, pizza, croissant,
// cake for seats 0-5) shows as a small emblem in a corner.

import { attrs, html, setHTML, trustedMarkup } from '../../js/dom.js';

export const COLOURS = ['red', 'green', 'blue', 'yellow'];
export const BACKS = ['coffee', 'wine', 'icecream', 'pizza', 'croissant', 'cake'];

// Static drawings of ours (trustedMarkup: no value of a game or a player in them).
const SUITS = {
  red: '<path d="M12 21s-7.6-4.6-9.3-9.2C1.4 8.5 3.4 5 6.9 5c2.1 0 3.7 1.2 5.1 3.1C13.4 6.2 15 5 17.1 5c3.5 0 5.5 3.5 4.2 6.8C19.6 16.4 12 21 12 21z"/>',
  green: '<path d="M4.5 19.5C4.6 10.4 10 4.2 20.5 3.5c-.4 10.4-6.4 15.8-14.4 15.6z"/>'
    + '<path d="M4 20.5 15.5 8.5" fill="none" stroke="#fffaf0" stroke-width="1.3" stroke-linecap="round"/>',
  blue: '<path d="M12 2.5c3.6 5 6.6 8.6 6.6 12.2a6.6 6.6 0 0 1-13.2 0C5.4 11.1 8.4 7.5 12 2.5z"/>',
  yellow: '<circle cx="12" cy="12" r="4.6"/><path d="M12 1.8v3.4M12 18.8v3.4M1.8 12h3.4M18.8 12h3.4'
    + 'M4.8 4.8l2.4 2.4M16.8 16.8l2.4 2.4M4.8 19.2l2.4-2.4M16.8 7.2l2.4-2.4" fill="none" stroke="currentColor"'
    + ' stroke-width="2.1" stroke-linecap="round"/>',
};

const EMBLEMS = {
  coffee: '<path d="M4 8h13v5a6 6 0 0 1-6 6h-1a6 6 0 0 1-6-6z"/>'
    + '<path d="M17 9.5h1.5a2.7 2.7 0 0 1 0 5.4H16.5" fill="none" stroke="currentColor" stroke-width="1.8"/>'
    + '<path d="M8 2.5c-1 1.5 1 2.5 0 4M12 2.5c-1 1.5 1 2.5 0 4" fill="none" stroke="currentColor" stroke-width="1.4" stroke-linecap="round"/>'
    + '<rect x="2" y="20.3" width="17" height="1.8" rx=".9"/>',
  wine: '<path d="M6.5 2.5h11c.4 5.6-2 9.2-5.5 9.2s-5.9-3.6-5.5-9.2z"/>'
    + '<rect x="11.1" y="11" width="1.8" height="8"/><rect x="7.5" y="19" width="9" height="2.2" rx="1.1"/>',
  icecream: '<circle cx="12" cy="7.5" r="5"/><path d="M7.2 10.5h9.6L12 22.5z"/>',
  pizza: '<path fill-rule="evenodd" d="M12 22.5 3 5.2a16 16 0 0 1 18 0z'
    + 'M9.3 9.2a1.6 1.6 0 1 0 3.2 0a1.6 1.6 0 1 0-3.2 0z'
    + 'M12.4 14a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0-3 0z'
    + 'M13.8 7.8a1.3 1.3 0 1 0 2.6 0a1.3 1.3 0 1 0-2.6 0z"/>',
  croissant: '<path fill-rule="evenodd" d="M1.5 17.5Q5 4.5 12 4.5t10.5 13q-4.5-3.6-10.5-3.6T1.5 17.5z'
    + 'M7.6 7.2l.9-.6 1.7 7.3-.9.1zM15.5 6.6l.9.6-1.7 6.8-.9-.1z"/>',
  cake: '<rect x="3.5" y="12" width="17" height="8.5" rx="1.2"/><rect x="6" y="8" width="12" height="4.6" rx="1"/>'
    + '<rect x="11.3" y="4.5" width="1.4" height="3.6"/><path d="M12 1.2c1 1.2 1.2 2 0 3-1.2-1-1-1.8 0-3z"/>',
};

/** The hidden <svg> of symbols every card refers to; inserted once per page. */
export function installSprite() {
  if (document.getElementById('espresso-sprite')) return;
  const symbols = [
    ...Object.entries(SUITS).map(([name, body]) => html`<symbol id="suit-${name}" viewBox="0 0 24 24">${trustedMarkup(body)}</symbol>`),
    ...Object.entries(EMBLEMS).map(([name, body]) => html`<symbol id="back-${name}" viewBox="0 0 24 24">${trustedMarkup(body)}</symbol>`),
  ];
  const holder = document.createElement('div');
  setHTML(holder, html`<svg id="espresso-sprite" class="svg-sprite" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">${symbols}</svg>`);
  document.body.prepend(holder.firstChild);
}

function backName(owner) {
  return BACKS[((owner ?? 0) % BACKS.length + BACKS.length) % BACKS.length];
}

/** A small emblem of a seat's back, e.g. next to a player's name. */
export function emblem(owner, cls = 'emblem') {
  return html`<svg class="${cls} seat-ink-${owner}" viewBox="0 0 24 24" aria-hidden="true"><use href="#back-${backName(owner)}"/></svg>`;
}

/** A face-up card: {colour, value, owner, as?}. label: text for screen readers. */
export function face(card, label = '') {
  const { colour, value, owner } = card;
  const joker = card.as != null ? html`<g class="joker-as"><rect x="31" y="57" width="24" height="15" rx="7.5"/>
    <text x="43" y="68.5">=${card.as}</text></g>` : '';
  // Unlabelled (a card under a stack, which its stack names): decoration for screen readers.
  const named = label ? attrs({ role: 'img', 'aria-label': label }) : attrs({ 'aria-hidden': 'true' });
  return html`<svg class="card face c-${colour}" viewBox="0 0 60 84" ${named}>
    <rect class="card-bg" x="1.5" y="1.5" width="57" height="81" rx="7"/>
    <rect class="card-band" x="5" y="5" width="50" height="74" rx="4.5"/>
    <use href="#suit-${colour}" class="suit-big" x="10" y="22" width="40" height="40"/>
    <text class="value" x="30" y="57">${value}</text>
    <text class="corner" x="10" y="17">${value}</text>
    <use href="#suit-${colour}" class="suit-small" x="4.5" y="19" width="11" height="11"/>
    <use href="#back-${backName(owner)}" class="owner-mark" x="44" y="6" width="11" height="11"/>
    ${joker}
  </svg>`;
}

/** A face-down card of a seat (its back). */
export function back(owner) {
  return html`<svg class="card back seat-back-${owner}" viewBox="0 0 60 84" aria-hidden="true">
    <rect class="card-bg" x="1.5" y="1.5" width="57" height="81" rx="7"/>
    <rect class="card-frame" x="6" y="6" width="48" height="72" rx="4.5"/>
    <use href="#back-${backName(owner)}" class="back-emblem" x="14" y="26" width="32" height="32"/>
  </svg>`;
}

/** An empty place where a card may lie. */
export function empty() {
  return html`<svg class="card empty" viewBox="0 0 60 84" aria-hidden="true">
    <rect x="2.5" y="2.5" width="55" height="79" rx="7"/></svg>`;
}
