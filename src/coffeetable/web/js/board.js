// What the four boards (games/<name>/index.js) share: touch-first wording, and end
// screens whose action slot survives a redraw. Counted strings are i18n's own:
// t(key, {count}) (js/i18n.js).

import { setHTML } from './dom.js';
import { has } from './i18n.js';

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
