// Espresso Doppio's model: what `legal` offers now (never guessed from the view):
// the colours and spaces of set-up, the pieces some move or exchange takes, the
// moves and the exchange of the selection, the scorings of a card. Functions of
// the board (index.js), which holds the selection: sel, colour, choice.

import { KINDS } from './pieces.js';

function sameKinds(a, b) {
  return a.length === b.length && a.every((k) => b.includes(k));
}

/** Kinds in the engine's order (cup, saucer, spoon). */
export function ordered(kinds) {
  return KINDS.filter((k) => kinds.has ? kinds.has(k) : kinds.includes(k));
}

/** Set-up: the colours that may be placed now, and where the chosen one may go. */
export function placeColours(b) { return [...new Set(b.of('place').map((a) => a.colour))]; }

export function placeTargets(b) {
  const targets = new Map();
  for (const a of b.of('place')) if (a.colour === b.colour) targets.set(a.space, a);
  return targets;
}

/** Pieces that some move or exchange takes: "space:kind". */
export function selectablePieces(b) {
  const out = new Set();
  for (const a of b.of('move')) a.kinds.forEach((k) => out.add(`${a.from}:${k}`));
  for (const a of b.of('exchange')) {
    a.kinds.forEach((k) => out.add(`${a.from}:${k}`));
    a.with.forEach((k) => out.add(`${a.to}:${k}`));
  }
  return out;
}

/** The moves of the selection (one space): target space -> action. */
export function moveTargets(b) {
  const targets = new Map();
  if (b.sel.size !== 1) return targets;
  const [[from, kinds]] = [...b.sel];
  for (const a of b.of('move')) {
    if (a.from === from && sameKinds(a.kinds, [...kinds])) targets.set(a.to, a);
  }
  return targets;
}

/** The exchange of the selection (two spaces), or null. */
export function exchangeOf(b) {
  if (b.sel.size !== 2) return null;
  const [lo, hi] = [...b.sel.keys()].sort((x, y) => x - y);
  return b.of('exchange').find((x) => x.from === lo && x.to === hi
    && sameKinds(x.kinds, [...b.sel.get(lo)]) && sameKinds(x.with, [...b.sel.get(hi)])) || null;
}

export function scoresFor(b, cardId) { return b.of('score').filter((a) => a.card === cardId); }

export function keepValid(b) {
  if (!placeColours(b).includes(b.colour)) b.colour = null;
  const colours = placeColours(b);
  if (!b.colour && colours.length === 1) b.colour = colours[0];
  const ok = selectablePieces(b);
  for (const [space, kinds] of [...b.sel]) {
    for (const k of [...kinds]) if (!ok.has(`${space}:${k}`)) kinds.delete(k);
    if (!kinds.size) b.sel.delete(space);
  }
  if (b.choice != null && scoresFor(b, b.choice).length < 2) b.choice = null;
}

export function findCard(b, id) {
  for (const p of b.view ? b.view.players : []) {
    const card = [...p.cards, ...p.scored].find((c) => c.id === id);
    if (card) return card;
  }
  return null;
}
