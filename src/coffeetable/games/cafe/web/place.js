// Placing the card in hand: a ghost that follows the pointer but only ever
// stands where a legal `place` action puts it. The engine lists each distinct
// orientation once (a symmetric card has fewer), so the rotation the player
// turns to (0-3) is mapped to the rotation legal actions name it by
// (`holding.turns[r].rotation`, from the view); the anchors come from `legal`.

import { html } from '../../js/dom.js';
import { S, cardCells } from './icons.js';

const key = (x, y) => `${x},${y}`;

export class Placer {
  /** holding: the view's card in hand (with turns); places: the legal place actions. */
  constructor(holding, places) {
    this.holding = holding;
    this.places = places;
    this.turn = this.firstTurn();
    this.pointer = null; // grid units (fractional); null until the mouse or a key moves it
    this.at = null; // the legal action the ghost stands on
  }

  /** The first rotation (0-3) with somewhere to go. */
  firstTurn() {
    for (let r = 0; r < 4; r += 1) if (this.anchors(r).length) return r;
    return 0;
  }

  cells(turn = this.turn) { return this.holding.turns[turn].cells; }

  /** The legal actions for a rotation the player may turn to. */
  anchors(turn = this.turn) {
    const rotation = this.holding.turns[turn].rotation;
    return this.places.filter((a) => a.rotation === rotation);
  }

  /** Every grid cell some legal placement touches (so the board can make room for it). */
  reach() {
    const out = [];
    for (let r = 0; r < 4; r += 1) {
      for (const a of this.anchors(r)) for (const [dx, dy] of this.cells(r)) out.push([a.x + dx, a.y + dy]);
    }
    return out;
  }

  size(turn = this.turn) {
    const cells = this.cells(turn);
    return [Math.max(...cells.map((c) => c[0])) + 1, Math.max(...cells.map((c) => c[1])) + 1];
  }

  /** Snap to the legal anchor whose card centre is nearest the pointer. */
  snap() {
    const anchors = this.anchors();
    if (!anchors.length) { this.at = null; return; }
    if (!this.pointer) this.pointer = this.defaultPointer();
    const [w, h] = this.size();
    let best = null;
    let bestD = Infinity;
    for (const a of anchors) {
      const dx = a.x + w / 2 - this.pointer[0];
      const dy = a.y + h / 2 - this.pointer[1];
      const d = dx * dx + dy * dy;
      if (d < bestD - 1e-9) { best = a; bestD = d; }
    }
    this.at = best;
  }

  defaultPointer() {
    const anchors = this.anchors();
    const [w, h] = this.size();
    const xs = anchors.map((a) => a.x + w / 2);
    const ys = anchors.map((a) => a.y + h / 2);
    return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  }

  moveTo(gx, gy) {
    this.pointer = [gx, gy];
    this.snap();
  }

  /** Turn a quarter (1 clockwise, -1 back), skipping rotations with nowhere to go. */
  rotate(delta) {
    for (let i = 1; i <= 4; i += 1) {
      const r = (((this.turn + delta * i) % 4) + 4) % 4;
      if (this.anchors(r).length) {
        this.turn = r;
        break;
      }
    }
    this.snap();
  }

  /** Keys: jump to the nearest legal anchor in a direction. */
  step(dx, dy) {
    if (!this.at) this.snap();
    if (!this.at) return;
    const from = this.at;
    let best = null;
    let bestScore = Infinity;
    for (const a of this.anchors()) {
      const along = (a.x - from.x) * dx + (a.y - from.y) * dy;
      if (along <= 0) continue;
      const across = Math.abs((a.x - from.x) * dy) + Math.abs((a.y - from.y) * dx);
      const score = along + 2 * across;
      if (score < bestScore) { best = a; bestScore = score; }
    }
    if (best) {
      const [w, h] = this.size();
      this.pointer = [best.x + w / 2, best.y + h / 2];
      this.at = best;
    }
  }

  /** What the ghost covers on the area: squares, and the cafés those squares belong to. */
  covers(player) {
    if (!this.at) return { squares: 0, cafes: [] };
    const byPos = new Map(player.squares.map((s) => [key(s.x, s.y), s]));
    const hit = this.cells().map(([dx, dy]) => byPos.get(key(this.at.x + dx, this.at.y + dy))).filter(Boolean);
    const cafes = [...new Set(hit.filter((s) => s.icon === 'cafe').map((s) => s.card))];
    return { squares: hit.length, cafes };
  }

  /** The ghost: the card at the snapped anchor, and the squares it would cover marked. */
  ghost(occupied) {
    if (!this.at) return html``;
    const { x, y } = this.at;
    const covered = this.cells().filter(([dx, dy]) => occupied.has(key(x + dx, y + dy)))
      .map(([dx, dy]) => html`<rect class="covered" x="${(x + dx) * S}" y="${(y + dy) * S}" width="${S}" height="${S}"/>`);
    return html`<g class="ghost" data-testid="ghost" data-x="${x}" data-y="${y}" data-rotation="${this.at.rotation}"
        data-turn="${this.turn}" data-cells="${this.cells().map((c) => c.join(':')).join(' ')}">
      ${cardCells(this.holding, this.cells(), x, y)}${covered}</g>`;
  }
}
