// #/learn/<game>: a guided first match on the game's real board (its own index.js, or
// the generic board). The script and what the learner sees before each step come from
// GET /api/learn/<game> (walked through the engine by the server): a step either asks
// for one move, which the board sends here instead of to a table (the right one moves
// the lesson on, any other is refused with the reason, and the player tries again), or
// only asks to read (Next). The bots' answers are already in the next step's position.
// At the end: finished (kept on the account, and in this browser for a guest) and a
// button into a real game against a beginner bot.

import { api } from './api.js';
import { account } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { has, lang, t } from './i18n.js';
import { loadRenderer } from './games.js';
import { go } from './router.js';
import { playerName, rememberSeat } from './session.js';
import { rememberLearned } from './learnoffer.js';
import { Tutor } from './tutor.js';

export function mount(root, route) {
  const game = route.game;
  const view = { destroyed: false, tutorial: null, step: 0, board: null, tutor: null, done: false };
  setHTML(root, html`<section class="learn-page" data-testid="learn-page" data-game="${game}">
    <header class="learn-head"></header>
    <div class="learn-stage">
      <div class="game-root learn-board" data-testid="game-root"><p class="muted">${t('common.loading')}</p></div>
      <aside class="learn-lesson panel" data-testid="learn-lesson" aria-live="polite" hidden></aside>
    </div>
    <section class="learn-done panel" data-testid="learn-done" data-tutorial-done hidden></section>
  </section>`);
  const page = root.querySelector('.learn-stage');
  const head = root.querySelector('.learn-head');
  const boardRoot = root.querySelector('.learn-board');
  const lesson = root.querySelector('.learn-lesson');
  const done = root.querySelector('.learn-done');

  const title = () => (has(`${game}.title`) ? t(`${game}.title`) : (view.tutorial && view.tutorial.title) || game);
  const step = () => (view.tutorial && !view.done ? view.tutorial.steps[view.step] || null : null);
  const names = () => {
    const me = account();
    const mine = (me && me.username) || playerName() || t('lobby.namePlaceholder');
    return Array.from({ length: view.tutorial.players }, (_, seat) => (
      seat === view.tutorial.seat ? mine : t('learn.rival', { n: seat + 1 })));
  };

  /** Show the position before step n (its events first, as a table does), then the lesson. */
  function show(n) {
    const frame = view.tutorial.frames[n];
    for (const ev of frame.events || []) view.board.event(ev);
    view.board.state({
      type: 'state', seq: n, seat: view.tutorial.seat, view: frame.view, legal: frame.legal, actors: frame.actors,
    });
    view.step = n;
    renderHead();
    renderLesson();
    view.tutor.reset();
  }

  function renderHead() {
    const total = view.tutorial ? view.tutorial.steps.length : 0;
    setHTML(head, html`<h1>${t('learn.title', { game: title() })}</h1>
      ${view.tutorial ? html`<p class="muted" data-testid="learn-progress" data-step="${view.step}">
        ${t('learn.step', { n: Math.min(view.step + 1, total), total })}</p>` : ''}`);
  }

  function renderLesson(refusal = '') {
    const current = step();
    lesson.hidden = !current;
    if (!current) return;
    const text = current.say[lang()] || current.say.en;
    setHTML(lesson, html`<p class="learn-say" data-testid="learn-say">${text}</p>
      ${refusal ? html`<p class="learn-refusal error" data-testid="learn-refusal" role="alert">${refusal}</p>` : ''}
      ${current.move ? '' : html`<button type="button" class="primary" data-tutorial-next data-testid="learn-next">${t('learn.next')}</button>`}`);
  }

  /** The board's move: the step's one moves the lesson on; any other is refused. */
  function send(action) {
    const current = step();
    if (!current) return false;
    if (current.move && same(action, current.move)) {
      queueMicrotask(() => advance());
      return true;
    }
    const legal = (view.tutorial.frames[view.step].legal || []).some((a) => same(a, action));
    const reason = !current.move ? t('learn.readFirst') : legal ? t('learn.notThis') : t('learn.notLegal');
    // As a server would: the refusal comes after the board sent it.
    queueMicrotask(() => {
      if (view.destroyed) return;
      view.board.rejected({ type: 'rejected', reason, action, code: 'refused' });
      renderLesson(reason);
      view.tutor.reset();
    });
    return true;
  }

  function advance() {
    if (view.destroyed || view.done) return;
    if (view.step + 1 < view.tutorial.steps.length) show(view.step + 1);
    else finish();
  }

  function finish() {
    const last = view.tutorial.frames.length - 1;
    if (view.step !== last) {
      const frame = view.tutorial.frames[last];
      for (const ev of frame.events || []) view.board.event(ev);
      view.board.state({ type: 'state', seq: last, seat: view.tutorial.seat, view: frame.view, legal: [], actors: frame.actors });
    }
    view.done = true;
    view.tutor.reset();
    lesson.hidden = true;
    rememberLearned(game);
    api.learnDone(game).catch(() => {}); // a guest's stays in this browser anyway
    renderDone();
    done.scrollIntoView({ block: 'nearest' });
  }

  function renderDone() {
    done.hidden = !view.done;
    if (!view.done) return;
    setHTML(done, html`<h2>${t('learn.doneTitle', { game: title() })}</h2>
      <p>${t('learn.doneText')}</p>
      <div class="actions">
        <button type="button" class="primary" data-action="play" data-testid="learn-play">${t('learn.play')}</button>
        <a href="#/rules/${game}" data-testid="learn-rules">${t('learn.rules')}</a>
        <a href="#/" data-testid="learn-lobby">${t('learn.lobby')}</a>
      </div>`);
  }

  onClick(lesson, '[data-tutorial-next]', () => {
    if (step() && !step().move) advance();
  });

  onClick(done, '[data-action="play"]', async (event, button) => {
    button.disabled = true;
    const seat = view.tutorial.seat;
    const bots = {};
    for (let s = 0; s < view.tutorial.players; s += 1) if (s !== seat) bots[String(s)] = 'beginner';
    try {
      const created = await api.createTable({
        game, players: view.tutorial.players, name: names()[seat], bots,
      });
      rememberSeat(created.table_id, created.seat, created.token);
      go(`#/table/${encodeURIComponent(created.table_id)}`);
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
      button.disabled = false;
    }
  });

  async function start() {
    try {
      view.tutorial = await api.tutorial(game);
    } catch (err) {
      if (view.destroyed) return;
      const text = err.status === 404 ? t('learn.missing') : t('error.network', { reason: err.reason });
      setHTML(boardRoot, html`<p class="error" data-testid="learn-missing">${text}</p>`);
      renderHead();
      return;
    }
    let renderer;
    try {
      renderer = await loadRenderer(game);
    } catch {
      if (!view.destroyed) setHTML(boardRoot, html`<p class="error">${t('table.noRenderer', { game })}</p>`);
      return;
    }
    if (view.destroyed) return;
    boardRoot.replaceChildren();
    const ctx = { tableId: null, tutorial: true, seat: view.tutorial.seat, names, send };
    view.board = renderer.mount(boardRoot, ctx);
    view.tutor = new Tutor(page, boardRoot, lesson, step);
    show(0);
  }

  start();
  return {
    relabel() {
      renderHead();
      renderLesson();
      renderDone();
      if (view.board) view.board.relabel();
      if (view.tutor) view.tutor.reset();
    },
    destroy() {
      view.destroyed = true;
      if (view.tutor) view.tutor.destroy();
      if (view.board) view.board.destroy();
    },
  };
}

/** Two actions are the same: the same keys with the same values (JSON, keys in any order). */
export function same(a, b) {
  return canonical(a) === canonical(b);
}

function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
