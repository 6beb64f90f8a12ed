// #/replay/<table id>: a finished match, frame by frame, through the game's own
// board (games/<name>/web/index.js, or the generic board), fed `state` messages built from the
// server's frames (GET /api/tables/{id}/replay): {type: "state", seq: frame,
// seat, view, legal: [], actors: []}. Nothing can be played: ctx.send does nothing.
// Whose eyes: any seat or a spectator (the board is mounted again on a change).
// Frames come in windows of 100, kept per seat. The URL is the link to share.
// Below the board, "Review with the bot" (web/js/review.js): each mistake it
// lists jumps here to the position it was made in, seen by its seat.

import { api } from './api.js';
import { attrs, html, onClick, setHTML } from './dom.js';
import { has, t } from './i18n.js';
import { loadRenderer } from './games.js';
import { seatNames, tableName } from './names.js';
import { mountReview } from './review.js';

const WINDOW = 100;
const SPEEDS = [0.5, 1, 2, 4, 8];

export function mount(root, route) {
  const id = route.id;
  const view = {
    destroyed: false, summary: null, total: 0, rounds: [0], frame: 0,
    eyes: null, frames: new Map(), board: null, renderer: null, timer: null, speed: 2, loading: null,
    review: null, note: null,
  };
  setHTML(root, html`<section class="replay-page" data-testid="replay-page">
    <header class="replay-head" data-testid="replay-head"></header>
    <div class="replay-controls" data-testid="replay-controls"></div>
    <div class="replay-note" data-testid="replay-note" hidden></div>
    <div class="game-root" data-testid="game-root"><p class="muted">${t('table.loading')}</p></div>
    <div class="replay-review" data-testid="replay-review"></div>
  </section>`);
  const head = root.querySelector('.replay-head');
  const controls = root.querySelector('.replay-controls');
  const gameRoot = root.querySelector('.game-root');
  const reviewRoot = root.querySelector('.replay-review');
  const noteRoot = root.querySelector('.replay-note');

  const key = () => (view.eyes == null ? 'spectator' : String(view.eyes));
  const cache = () => {
    if (!view.frames.has(key())) view.frames.set(key(), new Map());
    return view.frames.get(key());
  };
  const names = () => (view.summary ? seatNames(view.summary) : []);

  async function fetchWindow(start) {
    const params = { start, count: WINDOW };
    if (view.eyes != null) params.seat = view.eyes;
    const answer = await api.replay(id, params);
    view.summary = answer.table;
    view.total = answer.frames;
    view.rounds = answer.rounds || [0];
    const frames = cache();
    for (const frame of answer.window || []) frames.set(frame.frame, frame);
  }

  async function frameAt(n) {
    if (!cache().has(n)) await fetchWindow(Math.max(0, n - (n % WINDOW)));
    return cache().get(n);
  }

  // The log up to frame n: the events of the frames up to it, from as many windows
  // back as the board's log ring holds (a long match's start is not fetched).
  async function eventsUpTo(n) {
    const want = (view.board && view.board.logSize) || WINDOW;
    let from = n - (n % WINDOW);
    let events = eventsBetween(from, n);
    while (events.length < want && from > 0) {
      from -= WINDOW;
      if (!cache().has(from)) await fetchWindow(from);
      events = eventsBetween(from, n);
    }
    return events;
  }

  function eventsBetween(from, to) {
    const events = [];
    for (let k = from; k <= to; k += 1) {
      const frame = cache().get(k);
      if (frame && Array.isArray(frame.events)) events.push(...frame.events);
    }
    return events;
  }

  function mountBoard() {
    if (view.board) view.board.destroy();
    gameRoot.replaceChildren();
    const ctx = {
      tableId: id,
      replay: true,
      get seat() { return view.eyes; },
      names,
      send: () => false,
    };
    view.board = view.renderer.mount(gameRoot, ctx);
  }

  async function show(n) {
    const target = Math.max(0, Math.min(view.total - 1, n));
    let frame;
    let events;
    try {
      frame = await frameAt(target);
      events = await eventsUpTo(target);
    } catch (err) {
      problem(err);
      return;
    }
    if (view.destroyed || !frame) return;
    view.frame = target;
    // The reviewed decision's moves, marked on the board while it shows their position.
    view.board.marks = view.note && view.note.frame === target ? view.note.marks : null;
    if (typeof view.board.retell === 'function') view.board.retell(events);
    view.board.state({ type: 'state', seq: frame.frame, seat: view.eyes, view: frame.view, legal: [], actors: [] });
    renderControls();
    renderNote();
  }

  // The reviewed decision's note, over the board while it shows that position.
  function renderNote() {
    const here = view.note && view.note.frame === view.frame;
    noteRoot.hidden = !here;
    if (here) setHTML(noteRoot, view.note.markup());
    else noteRoot.replaceChildren();
  }

  function problem(err) {
    stopPlaying();
    const text = err.status === 409 ? t('replay.notOver') : err.status === 404 ? t('table.notFound') : t('error.network', { reason: err.reason });
    setHTML(gameRoot, html`<p class="error" data-testid="replay-error">${text}</p>`);
  }

  function roundOf(frame) {
    let round = 0;
    view.rounds.forEach((start, i) => { if (frame >= start) round = i; });
    return round;
  }

  function renderHead() {
    const summary = view.summary || {};
    const game = summary.game || '';
    const title = has(`${game}.title`) ? t(`${game}.title`) : game;
    setHTML(head, html`<div class="table-title">
        <h1>${t('replay.title', { name: tableName(summary) || title })}</h1><span class="muted">${title}</span>
      </div>
      <a class="button" href="#/table/${encodeURIComponent(id)}" data-testid="replay-to-table">${t('replay.toTable')}</a>`);
  }

  function renderControls() {
    const last = Math.max(0, view.total - 1);
    const n = view.frame;
    const seats = names();
    const round = roundOf(n);
    setHTML(controls, html`
      <div class="replay-steps">
        <button type="button" data-step="first" data-testid="replay-first" ${attrs({ disabled: n === 0 })}>${t('replay.first')}</button>
        <button type="button" data-step="back" data-testid="replay-back" ${attrs({ disabled: n === 0 })}>${t('replay.back')}</button>
        <button type="button" class="primary" data-step="play" data-testid="replay-play">${view.timer ? t('replay.pause') : t('replay.play')}</button>
        <button type="button" data-step="forward" data-testid="replay-forward" ${attrs({ disabled: n >= last })}>${t('replay.forward')}</button>
        <button type="button" data-step="last" data-testid="replay-last" ${attrs({ disabled: n >= last })}>${t('replay.last')}</button>
      </div>
      <p class="replay-where" data-testid="replay-frame" data-frame="${n}" data-frames="${view.total}">
        ${n === 0 ? t('replay.deal') : t('replay.frame', { n, total: last })} · ${t('replay.round', { n: round + 1 })}</p>
      <div class="replay-choices">
        <label>${t('replay.rounds')}
          <select data-testid="replay-round">${view.rounds.map((start, i) => html`<option value="${start}"
            ${attrs({ selected: i === round })}>${t('replay.round', { n: i + 1 })}</option>`)}</select></label>
        <label>${t('replay.speed')}
          <select data-testid="replay-speed">${SPEEDS.map((s) => html`<option value="${s}"
            ${attrs({ selected: s === view.speed })}>×${s}</option>`)}</select></label>
        <label>${t('replay.eyes')}
          <select data-testid="replay-seat">
            <option value="" ${attrs({ selected: view.eyes == null })}>${t('replay.spectator')}</option>
            ${seats.map((name, i) => html`<option value="${i}" ${attrs({ selected: view.eyes === i })}>${name}</option>`)}
          </select></label>
      </div>`);
  }

  function stopPlaying() {
    clearInterval(view.timer);
    view.timer = null;
  }

  function startPlaying() {
    stopPlaying();
    if (view.frame >= view.total - 1) view.frame = 0;
    view.timer = setInterval(() => {
      if (view.frame >= view.total - 1) {
        stopPlaying();
        renderControls();
        return;
      }
      show(view.frame + 1);
    }, 1000 / view.speed);
    renderControls();
  }

  onClick(controls, '[data-step]', (event, button) => {
    const step = button.dataset.step;
    if (step === 'play') {
      if (view.timer) {
        stopPlaying();
        renderControls();
      } else startPlaying();
      return;
    }
    stopPlaying();
    const target = { first: 0, back: view.frame - 1, forward: view.frame + 1, last: view.total - 1 }[step];
    show(target);
  });
  controls.addEventListener('change', (event) => {
    const el = event.target;
    if (el.dataset.testid === 'replay-round') {
      stopPlaying();
      show(Number(el.value));
    } else if (el.dataset.testid === 'replay-speed') {
      view.speed = Number(el.value) || 1;
      if (view.timer) startPlaying();
    } else if (el.dataset.testid === 'replay-seat') {
      view.eyes = el.value === '' ? null : Number(el.value);
      mountBoard();
      show(view.frame);
    }
  });

  async function start() {
    try {
      await fetchWindow(0);
    } catch (err) {
      if (!view.destroyed) problem(err);
      return;
    }
    if (view.destroyed) return;
    renderHead();
    try {
      view.renderer = await loadRenderer(view.summary.game);
    } catch {
      setHTML(gameRoot, html`<p class="error">${t('table.noRenderer', { game: view.summary.game })}</p>`);
      return;
    }
    if (view.destroyed) return;
    mountBoard();
    show(0);
    view.review = mountReview(reviewRoot, {
      tableId: id, game: view.summary.game, names, players: () => view.summary.players, jump,
      tell: (action, events, seat) => (view.board ? view.board.tellMove(action, events, seat) : null),
    });
  }

  // A reviewed decision: its position (frame `frame`, before the move), as `seat` saw it.
  function jump(frame, seat, note, marks) {
    stopPlaying();
    view.note = note ? { frame, markup: note, marks: marks || null } : null;
    if (view.eyes !== seat) {
      view.eyes = seat;
      mountBoard();
    }
    show(frame);
    noteRoot.scrollIntoView({ block: 'nearest' });
  }

  start();
  return {
    relabel() {
      if (!view.summary) return;
      renderHead();
      renderControls();
      if (view.board) view.board.relabel();
      if (view.review) view.review.relabel();
      renderNote();
    },
    destroy() {
      view.destroyed = true;
      stopPlaying();
      if (view.board) view.board.destroy();
      if (view.review) view.review.destroy();
    },
  };
}
