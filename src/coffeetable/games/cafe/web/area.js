// A company area in SVG, from the view's player JSON: the squares of every
// card in view, the card edges, the cafés, the cubes, and (on your own area)
// the highlighted action areas and a layer for the ghost card.

import { attrs, html } from '../../js/dom.js';
import { S, cafeBox, cubesOn, glyph } from './icons.js';

const key = (x, y) => `${x},${y}`;

/** The grid box {x0, y0, x1, y1} around the squares and any extra cells, plus a margin. */
export function gridBox(squares, extra = [], margin = 0) {
  const xs = squares.map((s) => s.x).concat(extra.map((c) => c[0]));
  const ys = squares.map((s) => s.y).concat(extra.map((c) => c[1]));
  return {
    x0: Math.min(...xs) - margin,
    y0: Math.min(...ys) - margin,
    x1: Math.max(...xs) + margin,
    y1: Math.max(...ys) + margin,
  };
}

export function viewBox(box) {
  return `${box.x0 * S - 4} ${box.y0 * S - 4} ${(box.x1 - box.x0 + 1) * S + 8} ${(box.y1 - box.y0 + 1) * S + 8}`;
}

/**
 * The outline of a set of cells ("x,y"), drawn d units inside it, so that two
 * outlined areas side by side stay apart. A side is drawn where the neighbour is
 * not in the set; its ends move in at convex corners and out at concave ones.
 */
export function outline(cells, cls, d = 0) {
  const has = (x, y) => cells.has(key(x, y));
  const parts = [];
  // end offset along a side: in at a convex corner, out at a concave one, else none
  const end = (side, diagonal) => (!side ? d : diagonal ? -d : 0);
  for (const k of cells) {
    const [x, y] = k.split(',').map(Number);
    const px = x * S;
    const py = y * S;
    const left = has(x - 1, y);
    const right = has(x + 1, y);
    const up = has(x, y - 1);
    const down = has(x, y + 1);
    if (!up) {
      const a = px + end(left, has(x - 1, y - 1));
      const b = px + S - end(right, has(x + 1, y - 1));
      parts.push(`M${a} ${py + d}H${b}`);
    }
    if (!down) {
      const a = px + end(left, has(x - 1, y + 1));
      const b = px + S - end(right, has(x + 1, y + 1));
      parts.push(`M${a} ${py + S - d}H${b}`);
    }
    if (!left) {
      const a = py + end(up, has(x - 1, y - 1));
      const b = py + S - end(down, has(x - 1, y + 1));
      parts.push(`M${px + d} ${a}V${b}`);
    }
    if (!right) {
      const a = py + end(up, has(x + 1, y - 1));
      const b = py + S - end(down, has(x + 1, y + 1));
      parts.push(`M${px + S - d} ${a}V${b}`);
    }
  }
  return parts.length ? html`<path class="${cls}" d="${parts.join('')}"/>` : html``;
}

/** Card edges: every side whose neighbour is missing or belongs to another card. */
function cardEdges(squares) {
  const byPos = new Map(squares.map((s) => [key(s.x, s.y), s]));
  const parts = [];
  for (const s of squares) {
    const px = s.x * S;
    const py = s.y * S;
    const other = (dx, dy) => {
      const n = byPos.get(key(s.x + dx, s.y + dy));
      return !n || n.card !== s.card;
    };
    if (other(0, -1)) parts.push(`M${px} ${py}h${S}`);
    if (other(0, 1)) parts.push(`M${px} ${py + S}h${S}`);
    if (other(-1, 0)) parts.push(`M${px} ${py}v${S}`);
    if (other(1, 0)) parts.push(`M${px + S} ${py}v${S}`);
  }
  return html`<path class="card-edges" d="${parts.join('')}"/>`;
}

/**
 * The SVG of one company.
 * opts.box: the grid box to show; opts.marks: Map area key "x,y" -> action kind
 * (produce, dry, roast, deliver) for the areas to highlight; opts.selected: an
 * area key; opts.ghost: true to add the ghost layer; opts.cafeTitle(cafe): a tooltip;
 * opts.targets: ids of cafés to outline (those a delivery being composed may reach);
 * opts.tip(square): a square's tooltip; opts.className: more classes for the <svg>;
 * opts.width: its width in px (an SVG attribute: the Content-Security-Policy allows
 * no style="" in markup). Every text given is plain text: html`` escapes it.
 */
export function areaSvg(player, opts = {}) {
  const box = opts.box || gridBox(player.squares);
  const marks = opts.marks || new Map();
  const squares = player.squares.map((s) => {
    const px = s.x * S;
    const py = s.y * S;
    const tip = opts.tip ? html`<title>${opts.tip(s)}</title>` : '';
    // The review points here: a reviewed move (or the bot's) was made on this square.
    const mark = opts.review ? opts.review(s.x, s.y) : '';
    const marked = mark.split(' ').filter(Boolean).map((kind) => `marked-${kind}`).join(' ');
    return html`<g class="square ${marked}" data-x="${s.x}" data-y="${s.y}" data-icon="${s.icon}" ${attrs({ 'data-review': mark || null })}>${tip}
      <rect class="sq sq-${s.icon}" x="${px}" y="${py}" width="${S}" height="${S}"/>
      ${s.icon === 'cafe' ? '' : glyph(s.icon, s.colour, px, py)}</g>`;
  });
  const visibleCafe = new Set(player.squares.filter((s) => s.icon === 'cafe').map((s) => `${s.card}@${key(s.x, s.y)}`));
  const cafes = player.cafes.map((cafe) => {
    const cells = cafe.cells.filter(([x, y]) => visibleCafe.has(`${cafe.id}@${key(x, y)}`));
    const target = opts.targets && opts.targets.has(cafe.id) ? 'target' : '';
    return cells.length ? cafeBox(cafe, cells, opts.cafeTitle ? opts.cafeTitle(cafe) : cafe.name || '', target) : '';
  });
  // the card placed last stands out, so a glance shows what each company just did
  const last = player.cards.length > 1 ? player.cards[player.cards.length - 1].card : null;
  const lastCells = new Set(player.squares.filter((s) => s.card === last).map((s) => key(s.x, s.y)));
  const cubes = player.squares.map((s) => cubesOn(s.cubes, s.cube_colour, s.x * S, s.y * S));
  const highlights = player.areas.map((area) => {
    const areaKey = key(...area.id);
    const kind = marks.get(areaKey);
    if (!kind) return '';
    const cells = new Set(area.squares.map(([x, y]) => key(x, y)));
    const selected = opts.selected === areaKey ? 'selected' : '';
    const rects = area.squares.map(([x, y]) =>
      html`<rect class="hl-cell" x="${x * S}" y="${y * S}" width="${S}" height="${S}"/>`);
    return html`<g class="hl hl-${kind} ${selected}" data-area="${areaKey}" data-kind="${kind}" tabindex="0" role="button"
      aria-label="${opts.actLabel ? opts.actLabel(kind) : kind}"
      data-testid="area-${areaKey}">${rects}${outline(cells, 'hl-edge', 4)}</g>`;
  });
  return html`<svg class="cf-svg cf-area ${opts.className || ''}" viewBox="${viewBox(box)}" role="img" aria-label="${opts.label || ''}"
      ${attrs({ width: opts.width })} data-testid="${opts.testid || ''}">
    <g class="squares">${squares}</g>${cardEdges(player.squares)}${outline(lastCells, 'last-card', 1.5)}<g class="cafes">${cafes}</g>
    <g class="cube-layer">${cubes}</g><g class="hl-layer">${highlights}</g>
    ${opts.ghost ? html`<g class="ghost-layer"></g>` : ''}</svg>`;
}
