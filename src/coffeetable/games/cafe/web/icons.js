// Café in SVG: the square icons (beans in four colours, drying, roasting, cup,
// ship, blank), cubes, cafés with their requirement and points, and whole plan
// cards. Beans and cubes carry their colour's mark too (MARKS), so they read
// without telling the colours apart. Everything is drawn in a 48-unit square per grid cell; the board
// scales the SVG, so the same drawings serve the big area, the small ones of
// the other players, the draft row and the rules page.

import { html, stylesheet, trustedMarkup } from '../../js/dom.js';

export const S = 48;
export const COLOURS = ['red', 'yellow', 'green', 'black'];

// The card symbols of cards.py (presentation only: which picture a letter is).
const BEANS = { r: 'red', y: 'yellow', g: 'green', k: 'black' };
const ICONS = { d: 'dry', o: 'roast', u: 'cup', s: 'ship', C: 'cafe', '.': 'blank' };

/** The square a card symbol shows: {icon, colour}. */
export function symbolSquare(symbol) {
  if (BEANS[symbol]) return { icon: 'bean', colour: BEANS[symbol] };
  return { icon: ICONS[symbol] || 'blank', colour: null };
}

/** Load the game's stylesheet once (the board and the rules page use it). */
export function installCss() {
  stylesheet('cafe-css', new URL('./cafe.css', import.meta.url).href);
}

// Static drawings of ours (trustedMarkup: no value of a game in them).
const GLYPHS = {
  dry: '<circle class="g-sun" cx="24" cy="24" r="7"/>'
    + '<path class="g-ray" d="M24 8v6M24 34v6M8 24h6M34 24h6M12.7 12.7l4.2 4.2M31.1 31.1l4.2 4.2M12.7 35.3l4.2-4.2M31.1 16.9l4.2-4.2"/>',
  roast: '<path class="g-flame" d="M24 9c2 7 10 10 10 19a10 10 0 0 1-20 0c0-5 3-7 4-11 1 4 3 5 4 5 0-5-1-9 2-13z"/>'
    + '<path class="g-flame-in" d="M24 24c1 3 5 5 5 9a5 5 0 0 1-10 0c0-3 3-5 5-9z"/>',
  cup: '<path class="g-cup" d="M12 20h20l-2 13a6 6 0 0 1-6 5h-4a6 6 0 0 1-6-5z"/>'
    + '<path class="g-line" d="M31.5 23h3a4 4 0 0 1 0 8h-4.5"/>'
    + '<path class="g-steam" d="M18 16c-2-3 2-4 0-7M24 16c-2-3 2-4 0-7M30 16c-2-3 2-4 0-7"/>',
  ship: '<path class="g-hull" d="M9 29h30l-5 8H14z"/><path class="g-line" d="M24 10v19"/>'
    + '<path class="g-sail" d="M25 11l10 15H25z"/><path class="g-sail" d="M23 14l-8 12h8z"/>'
    + '<path class="g-wave" d="M7 40q4-3 8 0t8 0 8 0 8 0"/>',
  blank: '',
};

/**
 * Each colour's own mark, so that beans and cubes read without telling colours
 * apart (as the Espresso and Fika cards have a symbol per colour): red a
 * triangle, yellow a ring, green a diamond, black a cross.
 */
export const MARKS = { red: 'triangle', yellow: 'ring', green: 'diamond', black: 'cross' };

const f = (n) => Math.round(n * 100) / 100;

/** The path of a colour's mark centred on (cx, cy), r units from its centre to its tips. */
export function markPath(colour, cx, cy, r) {
  switch (MARKS[colour]) {
    case 'triangle':
      return `M${f(cx)} ${f(cy - r)}L${f(cx + 0.95 * r)} ${f(cy + 0.72 * r)}H${f(cx - 0.95 * r)}Z`;
    case 'ring': { // a disc with a hole (fill-rule evenodd)
      const o = 0.88 * r;
      const i = 0.42 * r;
      return `M${f(cx - o)} ${f(cy)}a${f(o)} ${f(o)} 0 1 0 ${f(2 * o)} 0a${f(o)} ${f(o)} 0 1 0 ${f(-2 * o)} 0Z`
        + `M${f(cx - i)} ${f(cy)}a${f(i)} ${f(i)} 0 1 0 ${f(2 * i)} 0a${f(i)} ${f(i)} 0 1 0 ${f(-2 * i)} 0Z`;
    }
    case 'diamond':
      return `M${f(cx)} ${f(cy - r)}L${f(cx + 0.8 * r)} ${f(cy)}L${f(cx)} ${f(cy + r)}L${f(cx - 0.8 * r)} ${f(cy)}Z`;
    case 'cross': { // a plus with arms 0.64 r wide
      const w = 0.32 * r;
      const a = f(r - w);
      return `M${f(cx - w)} ${f(cy - r)}h${f(2 * w)}v${a}h${a}v${f(2 * w)}h${-a}v${a}`
        + `h${f(-2 * w)}v${-a}h${-a}v${f(-2 * w)}h${a}Z`;
    }
    default:
      return '';
  }
}

/** A colour's mark as an SVG path: class "mark mk-<colour>", data-mark its shape. */
export function mark(colour, cx, cy, r) {
  return html`<path class="mark mk-${colour}" data-mark="${MARKS[colour] || ''}" fill-rule="evenodd" d="${markPath(colour, cx, cy, r)}"/>`;
}

/** The picture of one square's icon, in a 48 box at (x, y); a bean carries its colour's mark. */
export function glyph(icon, colour, x = 0, y = 0) {
  if (icon === 'bean') {
    return html`<g class="glyph bean-glyph" transform="translate(${x} ${y})" data-colour="${colour}" data-mark="${MARKS[colour] || ''}">
      <g transform="rotate(28 24 24)"><ellipse class="g-bean c-${colour}" cx="24" cy="24" rx="10" ry="15"/>
      <path class="g-bean-line" d="M24 10q-6 7 0 14t0 14"/></g>${mark(colour, 24, 24, 6.5)}</g>`;
  }
  return html`<g class="glyph" transform="translate(${x} ${y})">${trustedMarkup(GLYPHS[icon] || '')}</g>`;
}

/** One cube of a colour, size s, at (x, y), with its colour's mark. */
export function cube(colour, x, y, s = 10, cls = '') {
  return html`<g class="cube-g ${cls}" data-colour="${colour}" data-mark="${MARKS[colour] || ''}"><rect class="cube c-${colour} ${cls}" x="${x}" y="${y}" width="${s}" height="${s}" rx="${s / 5}"/>${mark(colour, x + s / 2, y + s / 2, s * 0.36)}</g>`;
}

/** The cubes on a square: up to 3 drawn, more as one cube and a number. */
export function cubesOn(count, colour, x0, y0) {
  if (!count || !colour) return '';
  const at = (i) => cube(colour, x0 + 5 + i * 13, y0 + S - 16, 11);
  if (count <= 3) return html`<g class="cubes">${Array.from({ length: count }, (_, i) => at(i))}</g>`;
  return html`<g class="cubes">${at(0)}<text class="cube-n" x="${x0 + 20}" y="${y0 + S - 6}">×${count}</text></g>`;
}

/** A café's requirement as cubes (filled when delivered) in rows of 3 from (x, y). */
export function needCubes(need, have, x, y, size = 9, perRow = 3) {
  const out = [];
  let i = 0;
  for (const colour of COLOURS) {
    const n = (need && need[colour]) || 0;
    const got = (have && have[colour]) || 0;
    for (let k = 0; k < n; k += 1) {
      const cx = x + (i % perRow) * (size + 3);
      const cy = y + Math.floor(i / perRow) * (size + 3);
      out.push(cube(colour, cx, cy, size, k < got ? 'got' : 'wanted'));
      i += 1;
    }
  }
  return out;
}

/** A café over its cells (grid units): name, points, requirement, lost or complete. */
export function cafeBox(cafe, cells, title = '', extraClass = '') {
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const x = Math.min(...xs) * S;
  const y = Math.min(...ys) * S;
  const w = (Math.max(...xs) - Math.min(...xs) + 1) * S;
  const h = (Math.max(...ys) - Math.min(...ys) + 1) * S;
  const state = cafe.lost ? 'lost' : cafe.complete ? 'complete' : '';
  const wide = w > S;
  const perRow = wide ? 5 : 3;
  const cross = cafe.lost ? html`<path class="cafe-cross" d="M${x + 8} ${y + 8}L${x + w - 8} ${y + h - 8}M${x + w - 8} ${y + 8}L${x + 8} ${y + h - 8}"/>` : '';
  return html`<g class="cafe ${state} ${extraClass}" data-cafe="${cafe.id}">
    <title>${title}</title>
    <rect class="cafe-bg" x="${x + 2}" y="${y + 2}" width="${w - 4}" height="${h - 4}" rx="6"/>
    <path class="cafe-awning" d="M${x + 2} ${y + 8}h${w - 4}v6q${-(w - 4) / 8} 5 ${-(w - 4) / 4} 0t${-(w - 4) / 4} 0t${-(w - 4) / 4} 0t${-(w - 4) / 4} 0z"/>
    <circle class="cafe-pts-bg" cx="${x + w - 12}" cy="${y + 24}" r="8"/>
    <text class="cafe-pts" x="${x + w - 12}" y="${y + 27.5}">${cafe.points}</text>
    ${needCubes(cafe.need, cafe.have, x + 5, y + 19, 8, perRow)}
    <text class="cafe-id" x="${x + 6}" y="${y + h - 5}">${cafe.id}</text>
    ${cross}
  </g>`;
}

/** A plan card as printed (landscape 3x2), for the draft row, at scale s. */
export function cardSvg(card, extraClass = '') {
  const cells = [];
  card.rows.forEach((row, r) => [...row].forEach((symbol, c) => cells.push([c, r, symbol])));
  return html`<svg class="cf-svg cf-card ${extraClass}" viewBox="-2 -2 ${3 * S + 4} ${2 * S + 4}" aria-hidden="true">
    ${cardCells(card, cells, 0, 0)}</svg>`;
}

/** A card's cells ([[dx, dy, symbol], ...]) placed with its top-left at grid (x, y). */
export function cardCells(card, cells, x, y) {
  const squares = cells.map(([dx, dy, symbol]) => {
    const sq = symbolSquare(symbol);
    const px = (x + dx) * S;
    const py = (y + dy) * S;
    return html`<rect class="sq sq-${sq.icon}" x="${px}" y="${py}" width="${S}" height="${S}"/>${sq.icon === 'cafe' ? '' : glyph(sq.icon, sq.colour, px, py)}`;
  });
  const cafeCells = cells.filter((c) => c[2] === 'C').map(([dx, dy]) => [x + dx, y + dy]);
  const cafe = card.cafe && cafeCells.length
    ? cafeBox({ id: card.id, need: card.cafe.need, have: {}, points: card.cafe.points }, cafeCells, card.cafe.name || '')
    : '';
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const w = (Math.max(...xs) + 1) * S;
  const h = (Math.max(...ys) + 1) * S;
  return html`${squares}${cafe}<rect class="card-edge" x="${x * S}" y="${y * S}" width="${w}" height="${h}" rx="4"/>`;
}
