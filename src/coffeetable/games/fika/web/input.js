// Fika's input: clicks on the cards and spots a legal action touches, the prompt's
// buttons, and the keyboard (Enter or Space on a focused card, Escape to clear).

import { onClick } from '../../js/dom.js';
import { clickables, confirmable } from './model.js';

/** Listen on the board's element; returns the function that stops listening. */
export function bindInput(b) {
  const stops = [
    onClick(b.el, '[data-click]', (event, el) => click(b, el.dataset.click)),
    onClick(b.el, '[data-button]', (event, el) => button(b, el.dataset.button, el.dataset.value)),
  ];
  const onKey = (event) => {
    const el = event.target.closest && event.target.closest('[data-click]');
    if (el && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      b.focusToken = el.dataset.click;
      click(b, el.dataset.click);
    } else if (event.key === 'Escape' && (b.sel.length || b.pairs.length || b.half)) {
      b.clearChoices();
      b.draw();
    }
  };
  b.el.addEventListener('keydown', onKey);
  stops.push(() => b.el.removeEventListener('keydown', onKey));
  return () => stops.forEach((fn) => fn());
}

function click(b, token) {
  if (b.sel.includes(token)) { // a second click undoes
    b.sel = b.sel.filter((x) => x !== token);
    b.draw();
    return;
  }
  if (b.half && ((b.half.spot != null && token === `cafe:${b.me}:${b.half.spot}`)
      || (b.half.card != null && token === `hand:${b.half.card}`))) {
    b.half = null;
    b.draw();
    return;
  }
  const what = clickables(b).get(token);
  if (!what) return;
  if (what.half) b.half = what.half;
  else if (what.pair) { b.pairs.push(what.pair); b.half = null; }
  else if (what.send) { b.send(what.send); return; }
  else if (what.add) b.sel.push(what.add);
  b.draw();
}

function button(b, kind, value) {
  if (kind === 'colour') {
    const action = b.byType('colour').find((a) => a.colour === value);
    if (action) b.send(action);
  } else if (kind === 'skip' || kind === 'stop') {
    const action = b.byType(kind)[0];
    if (action) b.send(action);
  } else if (kind === 'confirm') {
    const action = confirmable(b);
    if (action) b.send(action);
  } else if (kind === 'clear') {
    b.clearChoices();
    b.draw();
  } else if (kind === 'close-end' || kind === 'open-end') {
    b.endClosed = kind === 'close-end';
    b.draw();
  }
}
