// Espresso Doppio's input: clicks on colours, pieces, target spaces, cards and
// buttons, and Escape to clear the selection.

import { exchangeOf, moveTargets, placeTargets, scoresFor, selectablePieces } from './model.js';
import { renderOver } from './view.js';

/** Listen on the board's element (and the page's keys) until the board goes. */
export function bindInput(b) {
  b.listen(b.el, 'click', (event) => click(b, event));
  b.listen(document, 'keydown', (event) => {
    if (event.key === 'Escape') { b.clearChoices(); b.draw(); }
  });
  // Enter or Space on a focused piece, space or card acts as a click (buttons do so themselves)
  b.listen(b.el, 'keydown', (event) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    const el = event.target;
    if (el.tagName === 'BUTTON' || !el.matches('[data-piece], [data-target], [data-card]')) return;
    event.preventDefault();
    click(b, { target: el, shiftKey: event.shiftKey });
  });
}

function click(b, event) {
  const el = event.target.closest('[data-colour], [data-piece], [data-target], [data-card], [data-score], [data-act]');
  if (!el || !b.el.contains(el)) return;
  const d = el.dataset;
  if (d.colour) {
    b.colour = b.colour === d.colour ? null : d.colour;
  } else if (d.piece) {
    togglePiece(b, Number(d.space), d.kind, event.shiftKey);
  } else if (d.target != null && d.target !== '') {
    target(b, Number(d.target));
    return;
  } else if (d.score) {
    const action = scoresFor(b, Number(d.card)).find((a) => String(a.turned) === d.score);
    if (action) b.send(action);
    return;
  } else if (d.card) {
    score(b, Number(d.card));
  } else if (d.act) {
    act(b, d.act);
    return;
  }
  b.draw();
}

function togglePiece(b, space, kind, add) {
  if (!selectablePieces(b).has(`${space}:${kind}`)) return;
  const kinds = b.sel.get(space);
  if (kinds && kinds.has(kind)) {
    kinds.delete(kind);
    if (!kinds.size) b.sel.delete(space);
    return;
  }
  if (!kinds && b.sel.size >= 2 && !add) b.sel.clear(); // a third space starts afresh
  if (!kinds && b.sel.size >= 2) return;
  if (!b.sel.has(space)) b.sel.set(space, new Set());
  b.sel.get(space).add(kind);
}

function target(b, space) {
  const action = b.view.phase === 'setup' ? placeTargets(b).get(space) : moveTargets(b).get(space);
  if (action) b.send(action);
}

function score(b, cardId) {
  const options = scoresFor(b, cardId);
  if (options.length === 1) b.send(options[0]);
  else if (options.length === 2) b.choice = b.choice === cardId ? null : cardId;
}

function act(b, name) {
  if (name === 'close-end' || name === 'open-end') {
    b.endClosed = name === 'close-end';
    renderOver(b);
  } else if (name === 'clear') {
    b.clearChoices();
    b.draw();
  } else if (name === 'exchange') {
    const action = exchangeOf(b);
    if (action) b.send(action);
  } else if (name === 'keep-turn') {
    b.confirmEnd = false;
    b.draw();
  } else if (name === 'end_turn' && b.of('score').length && !b.confirmEnd) {
    // the rules score after the actions: ending with a card to score throws its beans away, so ask
    b.confirmEnd = true;
    b.draw();
  } else {
    const action = b.legal.find((a) => a.type === name);
    if (action) b.send(action);
  }
}
