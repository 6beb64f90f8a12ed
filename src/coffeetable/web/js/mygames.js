// #/games: my open and running tables (GET /api/me/games), those waiting for my move
// first, with the time left; my vacation (days off that stop my clocks at tables
// with days per move). The header's "My games" link shows the counts (refreshCounts).

import { api } from './api.js';
import { account } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { failure, gameTitle } from './players.js';

let counts = null; // the last answer's {my_turn, total}, for the header

/** "2 d 5 h", "5 h 12 min", "12 min": seconds left, in words of the page's language. */
export function timeLeft(seconds) {
  const minutes = Math.max(0, Math.floor(seconds / 60));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d) return t('games.leftDays', { d, h });
  if (h) return t('games.leftHours', { h, m });
  return t('games.leftMinutes', { m });
}

/** The header's counts: "(waiting for me/all)", or nothing for a guest or none. */
export function countsText() {
  if (!account() || !counts || !counts.total) return '';
  return t('nav.gamesCount', { turn: counts.my_turn, total: counts.total });
}

/** Ask again how many tables I have and how many wait for me; then ``done()``. */
export async function refreshCounts(done) {
  if (!account()) {
    counts = null;
  } else {
    try {
      const mine = await api.myGames();
      counts = { my_turn: mine.my_turn, total: mine.total };
    } catch {
      return; // keep the last counts
    }
  }
  done();
}

function row(game) {
  const days = game.days_per_move
    ? html`<span class="muted">${t('games.perMove', { days: game.days_per_move })}</span>` : '';
  const left = game.time_left == null ? '' : html`<span class="time-left" data-testid="time-left">${timeLeft(game.time_left)}</span>`;
  const state = game.status === 'open' ? t('games.open')
    : (game.my_turn ? t('games.yourMove') : t('games.theirMove'));
  // Seats out of time (not mine): expel them (a bot plays on), or wait (do nothing).
  const out = game.expired.filter((seat) => seat !== game.seat).map((seat) => html`
    <button type="button" data-action="expel" data-table="${game.table_id}" data-seat="${seat}"
      data-testid="expel-${seat}">${t('games.expel', { n: seat + 1 })}</button>`);
  return html`<li class="${game.my_turn ? 'my-turn' : ''}" data-testid="my-game" data-table="${game.table_id}">
    <a href="#/table/${encodeURIComponent(game.table_id)}" data-testid="my-game-link">${gameTitle(game.game)}: ${game.name}</a>
    <span class="badge" data-testid="my-game-state">${state}</span> ${left} ${days} ${out}
    <span class="muted">${t('games.against', { names: game.opponents.map((n) => n || t('games.openSeat')).join(', ') })}</span></li>`;
}

function vacationBox(status) {
  const now = status.on_vacation
    ? t('games.onVacation', { date: new Date(status.until * 1000).toLocaleDateString() }) : t('games.noVacation');
  return html`<h2>${t('games.vacation')}</h2>
    <p class="muted" data-testid="vacation-status">${now} ${t('games.vacationLeft', { left: status.left_days, allowed: status.allowed_days })}</p>
    <p><label>${t('games.vacationDays')} <input type="number" min="0" max="${status.left_days}" step="1" value="0"
      name="vacation-days" data-testid="vacation-days"></label>
    <button type="button" data-action="vacation" data-testid="vacation-submit">${t('games.vacationSet')}</button></p>`;
}

export function mount(root, _route, onCounts = () => {}) {
  let destroyed = false;
  setHTML(root, html`<section class="my-games-page panel" data-testid="my-games-page">
    <h1>${t('games.title')}</h1>
    <div class="my-games" data-testid="my-games"><p class="muted">${t('common.loading')}</p></div>
    <div class="vacation" data-testid="vacation"></div></section>`);
  const list = root.querySelector('.my-games');
  const vacation = root.querySelector('.vacation');

  async function load() {
    if (!account()) {
      setHTML(list, html`<p data-testid="my-games-signed-out">${t('games.signInFirst')}
        <a href="#/signin">${t('menu.signIn')}</a></p>`);
      return;
    }
    try {
      const [mine, status] = await Promise.all([api.myGames(), api.vacation()]);
      if (destroyed) return;
      counts = { my_turn: mine.my_turn, total: mine.total };
      onCounts();
      setHTML(list, mine.tables.length
        ? html`<p class="muted" data-testid="my-games-count">${t('games.count', { turn: mine.my_turn, total: mine.total })}</p>
          <ul class="my-games-list">${mine.tables.map(row)}</ul>`
        : html`<p class="muted" data-testid="my-games-none">${t('games.none')}</p>`);
      setHTML(vacation, vacationBox(status));
    } catch (err) {
      if (!destroyed) setHTML(list, html`<p class="error">${failure(err)}</p>`);
    }
  }

  const offVacation = onClick(root, '[data-action="vacation"]', async () => {
    const days = Number(root.querySelector('[name="vacation-days"]').value);
    try {
      await api.setVacation(days);
      toast(t('games.vacationSaved'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    load();
  });
  const offExpel = onClick(root, '[data-action="expel"]', async (event, button) => {
    try {
      await api.expel(button.dataset.table, Number(button.dataset.seat));
      toast(t('games.expelled'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    load();
  });
  load();
  const timer = setInterval(load, 60_000);
  return {
    destroy() { destroyed = true; clearInterval(timer); offVacation(); offExpel(); },
    accountChanged: load,
  };
}
