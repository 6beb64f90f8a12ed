// Espresso Doppio in SVG: the nine pieces and the small diagram of each card.
//
// Each kind has its own shape (a cup with a handle, a flat round saucer, a
// long spoon), so a piece reads without its colour; the three colours are
// brown, white and black, the names the cards, the log and the rules page use.

import { html, stylesheet, trustedMarkup } from '../../js/dom.js';

/** Load the game's stylesheet once (the board and the rules page use it). */
export function installCss() {
  stylesheet('doppio-css', new URL('./doppio.css', import.meta.url).href);
}

export const KINDS = ['cup', 'saucer', 'spoon'];
export const COLOURS = ['brown', 'white', 'black'];

// The shapes: static drawings of ours (trustedMarkup: no value of a game in them).
const BODIES = {
  cup: '<path class="pc-body" d="M7 11h24l-3 19q-9 6-18 0z"/>'
    + '<path class="pc-line" d="M30.5 15h3.5a5 5 0 0 1 0 10h-5" fill="none"/>'
    + '<ellipse class="pc-rim" cx="19" cy="11" rx="12" ry="2.6"/>',
  saucer: '<ellipse class="pc-body" cx="20" cy="30" rx="18" ry="6.5"/>'
    + '<ellipse class="pc-rim" cx="20" cy="29" rx="8.5" ry="2.8"/>',
  spoon: '<ellipse class="pc-body" cx="20" cy="9" rx="5.8" ry="8"/>'
    + '<rect class="pc-body" x="18.4" y="15.5" width="3.2" height="22" rx="1.6"/>',
};

/** A piece drawn in a 40 x 40 box at (x, y), scaled by s. */
export function piece(kind, colour, x = 0, y = 0, s = 1) {
  const c = colour || 'any';
  return html`<g class="pc pc-${kind} col-${c}" transform="translate(${x} ${y}) scale(${s})">${trustedMarkup(BODIES[kind] || '')}</g>`;
}

// ---- the board's geometry: where each kind sits on a space ----------------------

export const SPACE_W = 120;
export const SPACE_H = 132;
const SLOT = {
  saucer: [6, 48, 2.0], // x, y, scale of the 40-box
  cup: [16, 37, 1.7],
  spoon: [66, 10, 1.9],
};

/** One kind's piece at its slot of a space (x0: the space's left edge). */
export function pieceOnSpace(kind, colour, x0) {
  const [x, y, s] = SLOT[kind];
  return piece(kind, colour, x0 + x, y, s);
}

// ---- card diagrams -------------------------------------------------------------

const CELL = 34;

function cell(i, content, cls = '') {
  const x = 3 + i * (CELL + 4);
  return html`<g transform="translate(${x} 3)"><rect class="dg-cell ${cls}" width="${CELL}" height="${CELL}" rx="4"/>${content}</g>`;
}

/** A generic piece ("an element of any type") in a colour: a rounded blob. */
function blob(colour, x = 8, y = 8, w = 18) {
  return html`<rect class="pc-body col-${colour}" x="${x}" y="${y}" width="${w}" height="${w}" rx="${w / 2}"/>`;
}

function mini(kind, colour, x, y, s) {
  return piece(kind, colour, x, y, s);
}

/** The kinds stacked in one diagram cell: {cup, saucer, spoon} -> colours (or 'any'). */
function stack(pieces) {
  return html`${pieces.saucer ? mini('saucer', pieces.saucer, 0, 2, 0.72) : ''}${
    pieces.cup ? mini('cup', pieces.cup, 2, 6, 0.62) : ''}${
    pieces.spoon ? mini('spoon', pieces.spoon, 15, 2, 0.72) : ''}`;
}

const NO_SPOON = trustedMarkup('<g class="dg-no"><g transform="translate(23 1) scale(.5)">'
  + '<ellipse class="pc-body col-any" cx="20" cy="9" rx="5.8" ry="8"/>'
  + '<rect class="pc-body col-any" x="18.4" y="15.5" width="3.2" height="22" rx="1.6"/></g>'
  + '<path d="M23 3l9 18M32 3l-9 18"/></g>');

/** The diagram of a card's pattern (card: the view's card JSON). */
export function diagram(card) {
  const p = card.params || {};
  let cells = [];
  switch (card.pattern) {
    case 'colour_sequence':
      cells = p.colours.map((c, i) => cell(i, blob(c)));
      break;
    case 'kind_sequence':
      cells = p.colours.map((c, i) => cell(i, stack({ [p.kind]: c })));
      break;
    case 'complete_set':
      cells = ['cup', 'saucer', 'spoon'].map((k, i) => cell(i, stack({ [k]: p.colour })));
      break;
    case 'alone':
      cells = [cell(1, stack({ [p.kind]: 'any' }), 'alone')];
      break;
    case 'exact_space':
      cells = [cell(1, stack({ cup: p.cup, saucer: p.saucer, spoon: p.spoon }), 'alone')];
      break;
    case 'pairs':
      cells = [0, 1].map((i) => cell(i + 0.5, stack({ cup: 'any', saucer: 'any' })));
      break;
    case 'crossed_pairs':
      cells = [
        cell(0.5, html`${stack({ cup: 'white', saucer: 'black' })}${NO_SPOON}`),
        cell(1.5, html`${stack({ cup: 'black', saucer: 'white' })}${NO_SPOON}`),
      ];
      break;
    case 'one_colour':
      cells = [0, 1, 2].map((i) => cell(i, blob('same')));
      break;
    default:
      cells = [cell(1, html`<text class="dg-note" x="17" y="23">?</text>`)];
  }
  return html`<svg class="diagram" viewBox="0 0 118 40" aria-hidden="true">${cells}</svg>`;
}
