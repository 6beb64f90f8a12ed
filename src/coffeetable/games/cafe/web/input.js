// Café's input: the mouse (click, move, right-click, wheel), a touch (a tap shows
// the ghost where it lands, a second tap on it places), and the keys (R/Shift+R,
// arrows, Enter, Escape; Enter or Space on a focused area or draft card).

import { touchFirst } from '../../js/board.js';
import { S } from './icons.js';
import { Delivery } from './deliver.js';
import { actsAt } from './model.js';
import { drawGhost, renderControls, renderEnd } from './view.js';

/** Listen on the board's element (and the page's keys) until the board goes. */
export function bindInput(b) {
  const handlers = {
    click: (e) => click(b, e),
    // pointermove, not mousemove: a tap sends a mousemove too, which would move the ghost before the tap is judged
    pointermove: (e) => { if (e.pointerType !== 'touch') pointer(b, e); },
    contextmenu: (e) => contextMenu(b, e),
    wheel: (e) => wheel(b, e),
  };
  for (const [name, fn] of Object.entries(handlers)) b.listen(b.el, name, fn, { passive: false });
  b.listen(document, 'keydown', (e) => keyDown(b, e));
}

function click(b, event) {
  const el = event.target.closest('[data-take], [data-pay], [data-area], [data-act], [data-colour], [data-deliver]');
  const mine = event.target.closest('svg.cf-area.mine');
  if (b.placer && mine) {
    const before = b.placer.at;
    pointer(b, event);
    // a tap only shows the ghost where it lands; a tap on the ghost where it stands places it
    if (tapped(event) && b.placer.at !== before) drawGhost(b);
    else place(b);
    return;
  }
  if (!el || !b.el.contains(el)) return;
  const d = el.dataset;
  if (d.take) take(b, d.take);
  else if (d.pay) sendFirst(b, b.of('take').filter((a) => a.card === b.payFor && a.pay === d.pay));
  else if (d.area) area(b, d.area);
  else if (d.colour) sendFirst(b, actsAt(b, b.colourFor).filter((a) => a.colour === d.colour));
  else if (d.deliver) {
    const [cafe, colour, delta] = d.deliver.split(':');
    b.delivery.change(cafe, colour, Number(delta));
    renderControls(b);
  } else if (d.act) act(b, d.act);
}

function take(b, card) {
  const options = b.of('take').filter((a) => a.card === card);
  if (options.some((a) => a.pay)) {
    b.payFor = b.payFor === card ? null : card;
    b.draw();
  } else sendFirst(b, options);
}

function area(b, areaKey) {
  const options = actsAt(b, areaKey);
  if (!options.length) return;
  const kind = options[0].type;
  b.clearChoices();
  if (kind === 'deliver') {
    const info = b.view.players[b.main].areas.find((a) => `${a.id[0]},${a.id[1]}` === areaKey);
    b.delivery = new Delivery(info, options);
  } else if (options.length === 1) {
    b.send(options[0]);
    return;
  } else b.colourFor = areaKey;
  b.draw();
}

function act(b, name) {
  if (name === 'pass') sendFirst(b, b.of('pass'));
  else if (name === 'cancel') { b.clearChoices(); b.draw(); }
  else if (name === 'rotate-cw' || name === 'rotate-ccw') rotate(b, name === 'rotate-cw' ? 1 : -1);
  else if (name === 'place') place(b);
  else if (name === 'deliver-go' && b.delivery) b.send(b.delivery.action());
  else if (name === 'deliver-none' && b.delivery) { b.delivery.none(); renderControls(b); }
  else if (name === 'hide-end') { b.hideEnd = !b.hideEnd; renderEnd(b); }
  else if (name === 'close-end') { b.hideEnd = true; renderEnd(b); }
}

/** The mouse over your area: the ghost follows, snapped to the nearest legal spot. */
function pointer(b, event) {
  if (!b.placer) return;
  const svg = event.target.closest && event.target.closest('svg.cf-area.mine');
  if (!svg || !svg.getScreenCTM()) return;
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  const p = point.matrixTransform(svg.getScreenCTM().inverse());
  const was = b.placer.at;
  b.placer.moveTo(p.x / S, p.y / S);
  if (b.placer.at !== was) drawGhost(b);
}

function contextMenu(b, event) {
  if (!b.placer || !event.target.closest('.cf-own')) return;
  event.preventDefault(); // right-click turns the card
  rotate(b, 1);
}

function wheel(b, event) {
  if (!b.placer || !event.target.closest('svg.cf-area.mine')) return;
  event.preventDefault();
  // a trackpad sends a burst of small wheel events: one quarter turn per burst
  if (event.timeStamp - (b.lastWheel || -Infinity) < 180) return;
  b.lastWheel = event.timeStamp;
  rotate(b, event.deltaY < 0 ? -1 : 1);
}

function keyDown(b, event) {
  if (event.target.closest && event.target.closest('input, select, textarea')) return;
  if (event.key === 'Escape') { b.clearChoices(); b.draw(); return; }
  const focused = event.target.closest && event.target.closest('[data-area], [data-take]');
  if (focused && b.el.contains(focused) && (event.key === 'Enter' || event.key === ' ')) {
    event.preventDefault(); // the keyboard uses a focused area or draft card like a click
    if (focused.dataset.area) area(b, focused.dataset.area);
    else if (focused.dataset.take) take(b, focused.dataset.take);
    return;
  }
  if (!b.placer) return;
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (event.key === 'r' || event.key === 'R') rotate(b, event.shiftKey ? -1 : 1);
  else if (steps[event.key]) { b.placer.step(...steps[event.key]); drawGhost(b); }
  else if (event.key === 'Enter') place(b);
  else return;
  event.preventDefault();
}

function rotate(b, delta) {
  b.placer.rotate(delta);
  drawGhost(b);
}

function place(b) {
  if (b.placer && b.placer.at) b.send(b.placer.at);
}

function sendFirst(b, options) {
  if (options.length) b.send(options[0]);
}

/** A click that is a tap of a finger (on a touch-first device, a click that does not say). */
function tapped(event) {
  return event.pointerType === 'touch' || (!event.pointerType && touchFirst());
}
