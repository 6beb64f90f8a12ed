// What the four boards (games/<name>/) share: counted strings, touch-first
// wording, and end screens whose action slot survives a redraw.
//
// Written here, next to the boards, while the shared front end (web/js/) is being
// reworked; it belongs in web/js/ once that settles (tn() becomes t(key, {count})
// when js/i18n.js chooses plurals itself). Not a game: there is no kit/index.js.

import { setHTML } from '../js/dom.js';
import { has, lang, t } from '../js/i18n.js';

const rules = new Map();

/** The plural category of n in the language in use: "one", "other" (fr, es: also "many"), ... */
export function pluralOf(n) {
  const code = lang();
  if (!rules.has(code)) rules.set(code, new Intl.PluralRules(code));
  return rules.get(code).select(n);
}

/**
 * t() for a count: the key "key.one", "key.other" (or another category the
 * language needs) chosen by Intl.PluralRules, "key.other" when that category has
 * no string. Each form is a whole sentence; {n} in it is the count.
 * tn('doppio.beans', 1) -> "1 bean"; tn('doppio.beans', 3) -> "3 beans".
 */
export function tn(key, n, params = {}) {
  const chosen = `${key}.${pluralOf(n)}`;
  return t(has(chosen) ? chosen : `${key}.other`, { ...params, n });
}

const TOUCH_FIRST = '(hover: none) and (pointer: coarse)';

/** A touch-first device (a phone or a tablet without a mouse): hints speak of taps, not keys. */
export function touchFirst() {
  return typeof matchMedia === 'function' && matchMedia(TOUCH_FIRST).matches;
}

/** Call fn when the device turns touch-first or not (a mouse plugged into a tablet); returns a stop function. */
export function onTouchChange(fn) {
  if (typeof matchMedia !== 'function') return () => {};
  const query = matchMedia(TOUCH_FIRST);
  query.addEventListener('change', fn);
  return () => query.removeEventListener('change', fn);
}

/** The key of a hint with a touch form: "key.touch" on a touch-first device when it exists, else key. */
export function hintKey(key) {
  return touchFirst() && has(`${key}.touch`) ? `${key}.touch` : key;
}

/**
 * setHTML() for markup holding an end screen: the end screen's
 * `.end-actions` element (the slot the shared front end fills with "Play again",
 * "View the replay", "Back to the lobby") is kept across the redraw, with whatever
 * was put in it, so a board may redraw its end screen at will.
 */
export function setHTMLKeepingEndActions(el, markup) {
  const kept = el.querySelector('.end-actions');
  setHTML(el, markup);
  const fresh = el.querySelector('.end-actions');
  if (kept && fresh && kept !== fresh) fresh.replaceWith(kept);
}
