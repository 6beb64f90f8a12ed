// Fika's cards in SVG. Each colour has a symbol too (brown: coffee bean,
// green: leaf, pink: flower), so the cards read without telling colours apart.
// The number is big; the effect and objective show as short lines (the full
// texts are in the card viewer, help.js, in the card's tooltip and in the card guide).

import { attrs, html, setHTML, stylesheet, trustedMarkup } from '../../js/dom.js';
import { t } from '../../js/i18n.js';

export const COLOURS = ['brown', 'green', 'pink'];
const COINS = { 1: 5, 2: 6, 3: 7, 4: 7, 5: 8, 6: 9 };

// Static drawings of ours (trustedMarkup: no value of a game or a player in them).
const SYMBOLS = {
  brown: '<ellipse cx="12" cy="12" rx="7" ry="9.5" transform="rotate(30 12 12)"/>'
    + '<path d="M8.5 4.5c4 3 -1 11 4.5 15" fill="none" stroke="#fff8ee" stroke-width="1.6" stroke-linecap="round"/>',
  green: '<path d="M4.5 19.5C4.6 10.4 10 4.2 20.5 3.5c-.4 10.4-6.4 15.8-14.4 15.6z"/>'
    + '<path d="M4 20.5 15.5 8.5" fill="none" stroke="#f4fff2" stroke-width="1.3" stroke-linecap="round"/>',
  pink: '<circle cx="12" cy="6.2" r="4.2"/><circle cx="17.6" cy="10.4" r="4.2"/><circle cx="15.4" cy="17" r="4.2"/>'
    + '<circle cx="8.6" cy="17" r="4.2"/><circle cx="6.4" cy="10.4" r="4.2"/><circle cx="12" cy="12" r="3" fill="#ffe9a8"/>',
};

const CUP = trustedMarkup('<path d="M4 8h13v5a6 6 0 0 1-6 6h-1a6 6 0 0 1-6-6z"/>'
  + '<path d="M17 9.5h1.5a2.7 2.7 0 0 1 0 5.4H16.5" fill="none" stroke="currentColor" stroke-width="1.8"/>');

/** Load the game's stylesheet once (the table and the rules page use it). */
export function installCss() {
  stylesheet('fika-css', new URL('./fika.css', import.meta.url).href);
}

/** The hidden <svg> of symbols the cards refer to; inserted once per page. */
export function installSprite() {
  if (document.getElementById('fika-sprite')) return;
  const symbols = Object.entries(SYMBOLS)
    .map(([name, body]) => html`<symbol id="fika-${name}" viewBox="0 0 24 24">${trustedMarkup(body)}</symbol>`);
  const holder = document.createElement('div');
  setHTML(holder, html`<svg id="fika-sprite" class="svg-sprite" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">${symbols}<symbol id="fika-cup" viewBox="0 0 22 22">${CUP}</symbol></svg>`);
  document.body.prepend(holder.firstChild);
}

/** Squeeze a line into the card's width when it is long. */
function fit(text, width = 52, perChar = 3.1) {
  return text.length * perChar > width ? attrs({ textLength: width, lengthAdjust: 'spacingAndGlyphs' }) : '';
}

/** A card from its id, as games/fika/cards.py numbers them: six numbers a colour, in COLOURS' order. */
export function cardOf(id) {
  return { id, colour: COLOURS[Math.floor(id / 6)], number: (id % 6) + 1 };
}

export function cardName(card) {
  if (!card) return t('fika.empty');
  return t('fika.cardName', { colour: t(`fika.colour.${card.colour}`), number: card.number });
}

/** A face-up café card {id, colour, number}; as: the value a 6 counts as. */
export function face(card, { as = null } = {}) {
  const { colour, number } = card;
  const title = `${cardName(card)} — ${t(`fika.effect.${number}`)} · ${t(`fika.objective.${number}`)}`;
  const asBadge = as != null
    ? html`<g class="as"><rect x="34" y="4" width="22" height="13" rx="6.5"/><text x="45" y="14">=${as}</text></g>` : '';
  return html`<svg class="fcard face c-${colour}" viewBox="0 0 60 84" role="img" aria-label="${cardName(card)}">
    <title>${title}</title>
    <rect class="bg" x="1.5" y="1.5" width="57" height="81" rx="6"/>
    <rect class="band" x="4.5" y="4.5" width="51" height="42" rx="4"/>
    <use href="#fika-${colour}" class="sym-big" x="24" y="8" width="30" height="30"/>
    <text class="num" x="16" y="38">${number}</text>
    <use href="#fika-${colour}" class="sym-small" x="5" y="6" width="10" height="10"/>
    <text class="eff" x="30" y="57" ${fit(`${number}> ${t(`fika.effShort.${number}`)}`, 52, 3.3)}>${number}▸ ${t(`fika.effShort.${number}`)}</text>
    <line class="rule" x1="7" y1="62" x2="53" y2="62"/>
    <text class="obj" x="30" y="71" ${fit(t(`fika.objShort.${number}`))}>${t(`fika.objShort.${number}`)}</text>
    <text class="coins" x="30" y="80">● ${COINS[number]}</text>
    ${asBadge}
  </svg>`;
}

/** A face-down card in a hand or a pick. */
export function back() {
  return html`<svg class="fcard back" viewBox="0 0 60 84" aria-hidden="true">
    <rect class="bg" x="1.5" y="1.5" width="57" height="81" rx="6"/>
    <rect class="frame" x="6" y="6" width="48" height="72" rx="4"/>
    <use href="#fika-cup" class="cup" x="17" y="29" width="26" height="26"/>
  </svg>`;
}

/**
 * A customer group: the back of a card, one half with 2 cups, one with 3.
 * threeAt: 'bottom', 'top' (which half of the drawing holds the 3 cups) or null
 * (beside the street, not yet facing anyone: drawn sideways).
 */
export function group(threeAt, known = null) {
  const cups = (n, y) => Array.from({ length: n }, (_, i) => {
    const w = 13;
    const x = 30 - (n * w + (n - 1) * 2) / 2 + i * (w + 2);
    return html`<use href="#fika-cup" x="${x}" y="${y}" width="${w}" height="${w}"/>`;
  });
  const top = threeAt === 'top' ? 3 : 2;
  const bottom = threeAt === 'top' ? 2 : 3;
  const knownMark = known
    ? html`<g class="known"><use href="#fika-${known.colour}" x="4" y="4" width="11" height="11"/><text x="20" y="13">${known.number}</text></g>`
    : '';
  const label = `${t('fika.group')}: ${top} + ${bottom}${known ? ` (${t('fika.groupKnown', { card: cardName(known) })})` : ''}`;
  return html`<svg class="fcard group ${threeAt ? `three-${threeAt}` : 'sideways'}" viewBox="0 0 60 84" role="img" aria-label="${label}">
    <rect class="bg" x="1.5" y="1.5" width="57" height="81" rx="6"/>
    <rect class="half half-${top}" x="5" y="5" width="50" height="36" rx="4"/>
    <rect class="half half-${bottom}" x="5" y="43" width="50" height="36" rx="4"/>
    <g class="cups">${cups(top, 16)}${cups(bottom, 54)}</g>
    <text class="cupn" x="52" y="${top === 3 ? 14 : 14}">${top}</text>
    <text class="cupn" x="52" y="76">${bottom}</text>
    ${knownMark}
  </svg>`;
}

/** An empty spot. */
export function empty(label = '') {
  return html`<svg class="fcard empty" viewBox="0 0 60 84" aria-hidden="true">
    <rect x="2.5" y="2.5" width="55" height="79" rx="6"/><text x="30" y="47">${label}</text></svg>`;
}

/** A street card (the spot in front of two cafés). */
export function street(column) {
  return html`<svg class="fcard street" viewBox="0 0 60 84" aria-hidden="true">
    <rect class="bg" x="1.5" y="1.5" width="57" height="81" rx="6"/>
    <path class="stones" d="M6 20h48M6 42h48M6 64h48M20 6v14M40 20v22M20 42v22M40 64v14"/>
    <text x="30" y="48">${column + 1}</text></svg>`;
}
