// Café's model: what `legal` offers now — the actions on offer (none while one of
// ours is on its way), the areas you may act on and by what kind, the mode of the
// moment (take, place, act, wait), and the placer (place.js) kept in step with the
// legal `place` actions. Functions of the board (index.js), which holds the choices
// under way: payFor, colourFor, delivery, placer, pending.

import { Placer } from './place.js';

const ACTS = ['produce', 'dry', 'roast', 'deliver'];

export function acts(b) { return b.offered().filter((a) => ACTS.includes(a.type)); }

export function actsAt(b, areaKey) { return acts(b).filter((a) => `${a.area[0]},${a.area[1]}` === areaKey); }

/** Area key -> the action kind offered there (an area has one icon, so one kind). */
export function marks(b) {
  const out = new Map();
  for (const a of acts(b)) out.set(`${a.area[0]},${a.area[1]}`, a.type);
  return out;
}

/** Drop choices the new legal actions no longer allow; (re)make the placer. */
export function keepValid(b) {
  if (b.payFor && !b.of('take').some((a) => a.card === b.payFor)) b.payFor = null;
  if (b.colourFor && !actsAt(b, b.colourFor).length) b.colourFor = null;
  if (b.delivery && !actsAt(b, b.delivery.key).length) b.delivery = null;
  const places = b.of('place');
  const holding = b.view.holding;
  if (!places.length || !holding) b.placer = null;
  else if (!b.placer || b.placer.holding.id !== holding.id) {
    b.placer = new Placer(holding, places);
    b.placer.snap();
  } else {
    b.placer.places = places;
    b.placer.snap();
  }
}

/** What the player is doing now: take, place, act, or wait. */
export function modeOf(b) {
  if (b.pending) return 'wait';
  if (b.of('take').length) return 'take';
  if (b.placer) return 'place';
  if (b.legal.length) return 'act';
  return 'wait';
}
