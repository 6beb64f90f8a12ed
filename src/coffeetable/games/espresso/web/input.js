// Mouse, drag and keyboard, turned into calls on the table controller:
// pick(position), target(key, ghost), flip(count), recycle(), cancel(), ready().
//
// The board is redrawn on every state (many a second with fast bots), so a
// click, whose press and release may land on two different drawings of the
// same card, would often be lost: everything acts on the press instead.

import { Ghost } from './ghost.js';
import { positionForKey } from './moves.js';

const DRAG_THRESHOLD = 6;

function typing(event) {
  const el = event.target;
  return el && (el.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName));
}

/** Keyboard: 1-3/E/P pick a card, Space flips, R recycles, then 1-9 or N for the stack. */
function onKey(ctl, event) {
  if (event.ctrlKey || event.metaKey || event.altKey || typing(event)) return;
  const key = event.key;
  if (key === ' ' || key === 'Spacebar') {
    event.preventDefault();
    ctl.flip(event.shiftKey ? 2 : null);
    return;
  }
  if (key === 'Escape') { ctl.cancel(); return; }
  if (key === 'Enter') { event.preventDefault(); ctl.enter(); return; }
  const lower = key.toLowerCase();
  if (lower === 'r') { ctl.recycle(); return; }
  if (lower === 'n') { ctl.target('new'); return; }
  if (/^[1-9]$/.test(key) && ctl.targetByNumber(Number(key))) return;
  const position = positionForKey(key, ctl.me);
  if (position) ctl.pick(position);
}

function runAction(ctl, name) {
  if (name === 'ready') ctl.ready();
  else if (name === 'close-end') ctl.closeEnd(true);
  else if (name === 'open-end') ctl.closeEnd(false);
  else if (name === 'flip') ctl.flip(null);
  else if (name === 'flip2') ctl.flip(2);
  else if (name === 'recycle') ctl.recycle();
}

/** After a press on a card: moving drags it, letting go over a stack plays it there. */
function trackDrag(ctl, place, event, { deselectOnRelease }) {
  const key = place.dataset.pos;
  const start = { x: event.clientX, y: event.clientY };
  const rect = place.getBoundingClientRect();
  const drawing = place.querySelector('svg.card');
  const offset = { x: start.x - rect.left, y: start.y - rect.top };
  let ghost = null;

  const move = (e) => {
    if (!ghost) {
      if (Math.hypot(e.clientX - start.x, e.clientY - start.y) < DRAG_THRESHOLD) return;
      ghost = new Ghost(rect, drawing);
    }
    ghost.follow(e.clientX, e.clientY, offset);
  };
  const up = (e) => {
    document.removeEventListener('pointermove', move);
    document.removeEventListener('pointerup', up);
    if (!ghost) {
      if (deselectOnRelease) ctl.pick(key); // a second press on a selected card puts it down
      return;
    }
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under && under.closest('[data-target]');
    const follower = under && under.closest('.place.follower[data-pos]');
    if (target && ctl.target(target.dataset.target, ghost)) return;
    if (follower) ctl.pick(follower.dataset.pos);
    ghost.snapBack();
  };
  document.addEventListener('pointermove', move);
  document.addEventListener('pointerup', up);
}

function onPointerDown(ctl, event) {
  if (event.button !== 0) return;
  const actionEl = event.target.closest('[data-action]');
  if (actionEl && actionEl.dataset.action) {
    runAction(ctl, actionEl.dataset.action);
    return;
  }
  const target = event.target.closest('[data-target]');
  if (target && ctl.target(target.dataset.target)) return;
  if (target) { // a stack the card cannot go on: say so rather than drop the card silently
    ctl.notThere();
    return;
  }
  const place = event.target.closest('.place[data-pos]');
  if (!place) {
    if (!event.target.closest('a, button, .overlay')) ctl.cancel();
    return;
  }
  const key = place.dataset.pos;
  const wasSelected = ctl.isSelected(key);
  if (!wasSelected) ctl.pick(key);
  if (ctl.canDrag(key)) trackDrag(ctl, place, event, { deselectOnRelease: wasSelected });
}

/** Buttons pressed from the keyboard (Tab, then Enter or Space) arrive as clicks. */
function onKeyboardClick(ctl, event) {
  const actionEl = event.detail === 0 && event.target.closest('[data-action]');
  if (actionEl && actionEl.dataset.action) runAction(ctl, actionEl.dataset.action);
}

/** Listen on root (presses, drags) and the document (keys); returns a function to stop. */
export function bindInput(ctl, root) {
  const key = (e) => onKey(ctl, e);
  const down = (e) => onPointerDown(ctl, e);
  const click = (e) => onKeyboardClick(ctl, e);
  document.addEventListener('keydown', key);
  root.addEventListener('pointerdown', down);
  root.addEventListener('click', click);
  return () => {
    document.removeEventListener('keydown', key);
    root.removeEventListener('pointerdown', down);
    root.removeEventListener('click', click);
  };
}
