// #/tournaments: upcoming, running and finished tournaments.
// #/tournaments/<id>: one tournament: enter or withdraw (signed in), a link to my table
// while my match is played ("your table is ready"), the standings
// with the tie-breaks it uses, and each round's tables, each a link to watch the
// match (while it is played) or its replay. Refreshed every few seconds until it ends.

import { api } from './api.js';
import { account } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { failure, gameTitle, knownGames } from './players.js';

const REFRESH_MS = 3000;
const STATUSES = ['running', 'upcoming', 'finished'];

export function mount(root, route) {
  return route.id ? mountOne(root, route.id) : mountList(root);
}

function formatLabel(tournament) {
  return t(`tour.format.${tournament.format}`);
}

/** The lobby's panel: the running and upcoming tournaments, and a link to them all. */
export function tournamentsPanel(lists) {
  const live = [...(lists.running || []), ...(lists.upcoming || [])].slice(0, 5);
  return html`<h2>${t('tour.title')}</h2>
    ${live.length
      ? html`<ul class="tour-list">${live.map((row) => html`<li data-testid="lobby-tournament" data-id="${row.id}">
          <a href="#/tournaments/${encodeURIComponent(row.id)}">${row.name}</a>
          <span class="muted">${gameTitle(row.game)} · ${t(`tour.status.${row.status}`)}</span></li>`)}</ul>`
      : html`<p class="muted">${t('tour.none')}</p>`}
    <p><a href="#/tournaments" data-testid="lobby-all-tournaments">${t('tour.all')}</a></p>`;
}

function mountList(root) {
  let destroyed = false;
  setHTML(root, html`<section class="tournaments-page" data-testid="tournaments-page">
    <h1>${t('tour.title')}</h1>
    <div class="tour-body" data-testid="tournaments-body"><p class="muted">${t('common.loading')}</p></div>
    <section class="tour-leagues" data-testid="leagues" hidden></section>
  </section>`);
  const body = root.querySelector('.tour-body');
  const leagues = root.querySelector('.tour-leagues');

  async function load() {
    let lists;
    try {
      lists = await api.tournaments();
    } catch (err) {
      if (!destroyed) setHTML(body, html`<p class="error">${failure(err)}</p>`);
      return;
    }
    if (destroyed) return;
    setHTML(body, html`${STATUSES.map((status) => html`<h2>${t(`tour.${status}`)}</h2>
      ${(lists[status] || []).length
        ? html`<ul class="tour-list" data-testid="tournaments-${status}">${lists[status].map((row) => html`
            <li data-testid="tournament-row" data-id="${row.id}">
              <a href="#/tournaments/${encodeURIComponent(row.id)}">${row.name}</a>
              <span class="muted">${gameTitle(row.game)} · ${formatLabel(row)} ·
                ${t('tour.entrants', { n: row.entrants, max: row.max_entrants })}</span>
            </li>`)}</ul>`
        : html`<p class="muted">${t('tour.none')}</p>`}`)}`);
  }

  /** The programs' league of each game that has one (GET /api/games says which). */
  async function loadLeagues() {
    const games = (await knownGames().catch(() => [])).filter((game) => game.league);
    if (destroyed || !games.length) return;
    leagues.hidden = false;
    setHTML(leagues, html`<h2>${t('league.all')}</h2><p class="muted">${t('league.intro')}</p>
      <ul class="tour-list">${games.map((game) => html`<li><a href="#/leagues/${game.name}"
        data-testid="league-link-${game.name}">${t('league.title', { game: gameTitle(game.name) })}</a></li>`)}</ul>`);
  }

  load();
  loadLeagues();
  return { destroy() { destroyed = true; } };
}

function standingsTable(view) {
  const breaks = view.tie_breaks || [];
  const arena = view.format === 'arena';
  const lines = view.standings || [];
  if (!lines.length) return html`<p class="muted">${t('tour.noStandings')}</p>`;
  return html`<table class="stats standings" data-testid="standings">
    <thead><tr><th>${t('tour.rank')}</th><th>${t('tour.player')}</th>
      ${arena ? html`<th>${t('tour.points')}</th>` : ''}<th>${t('tour.score')}</th>
      ${breaks.map((name) => html`<th>${t(`tour.tb.${name}`)}</th>`)}</tr></thead>
    <tbody>${lines.map((line) => html`<tr data-testid="standing-row" data-entrant="${line.entrant}">
      <td>${line.rank}</td><td>${line.name}</td>
      ${arena ? html`<td>${line.points}</td>` : ''}<td data-testid="standing-score">${line.score}</td>
      ${breaks.map((name) => html`<td>${line.tie_breaks[name]}</td>`)}</tr>`)}</tbody>
  </table>`;
}

function tableItem(table) {
  const names = table.names.join(' – ');
  if (table.bye) return html`<li data-testid="round-table">${names} · ${t('tour.bye')}</li>`;
  let link = '';
  if (table.table_id) {
    const over = table.ranks != null;
    const href = `#/${over ? 'replay' : 'table'}/${encodeURIComponent(table.table_id)}`;
    link = html`<a href="${href}" data-testid="${over ? 'table-replay' : 'table-watch'}">${t(over ? 'tour.replay' : 'tour.watch')}</a>`;
  }
  const result = table.points ? html`<span class="muted">${table.points.join(' : ')}</span>` : '';
  return html`<li data-testid="round-table">${names} ${result} ${link}</li>`;
}

/** The table id of my match being played now, if any ("your table is ready"). */
function myTable(view, username) {
  const entrant = (view.entrants || []).find((entry) => entry.name === username && !entry.bot);
  if (!entrant) return null;
  for (const round of view.rounds || []) {
    for (const table of round.tables) {
      if (table.table_id && table.ranks == null && table.entrants.includes(entrant.entrant)) return table.table_id;
    }
  }
  return null;
}

function page(view) {
  const me = account();
  const mine = me && (view.entrants || []).some((entry) => entry.name === me.username && !entry.withdrawn);
  const open = view.status === 'upcoming' || (view.status === 'running' && view.format === 'arena');
  let action = '';
  if (!me && open) action = html`<p class="muted"><a href="#/signin">${t('menu.signIn')}</a> · ${t('tour.signInToEnter')}</p>`;
  else if (open && !mine) action = html`<button type="button" class="primary" data-action="enter" data-testid="tournament-enter">${t('tour.enter')}</button>`;
  else if (mine && view.status !== 'finished') action = html`<button type="button" data-action="withdraw" data-testid="tournament-withdraw">${t('tour.withdraw')}</button>`;
  const tieBreaks = (view.tie_breaks || []).map((name) => t(`tour.tb.${name}`)).join(', ');
  const ready = mine ? myTable(view, me.username) : null;
  const yours = ready
    ? html`<p class="my-line"><a href="#/table/${encodeURIComponent(ready)}" class="primary" data-testid="your-table">${t('tour.yourTable')}</a></p>`
    : '';
  return html`<h1 data-testid="tournament-name">${view.name}</h1>
    <p class="muted">${gameTitle(view.game)} · ${formatLabel(view)} ·
      <span data-testid="tournament-status" data-status="${view.status}">${t(`tour.status.${view.status}`)}</span> ·
      ${t('tour.entrants', { n: (view.entrants || []).filter((e) => !e.withdrawn).length, max: view.max_entrants })}</p>
    ${action}${yours}
    <h2>${t('tour.standings')}</h2>
    ${standingsTable(view)}
    <p class="muted">${t('tour.tieBreaks', { list: tieBreaks })}</p>
    ${(view.rounds || []).slice().reverse().map((round) => html`<h3>${t('tour.round', { n: round.round })}</h3>
      <ul class="round-tables" data-testid="round" data-round="${round.round}">${round.tables.map(tableItem)}</ul>`)}`;
}

function mountOne(root, id) {
  let destroyed = false;
  let timer = null;
  setHTML(root, html`<section class="tournament-page" data-testid="tournament-page">
    <p class="muted">${t('common.loading')}</p></section>`);
  const section = root.querySelector('.tournament-page');

  async function load() {
    let view;
    try {
      view = await api.tournament(id);
    } catch (err) {
      if (!destroyed) setHTML(section, html`<p class="error" data-testid="tournament-missing">${failure(err)}</p>`);
      return;
    }
    if (destroyed) return;
    setHTML(section, page(view));
    if (view.status !== 'finished' && view.status !== 'cancelled') timer = setTimeout(load, REFRESH_MS);
  }

  const off = onClick(section, '[data-action]', async (_event, button) => {
    button.disabled = true;
    try {
      if (button.dataset.action === 'enter') await api.enterTournament(id);
      else await api.withdrawTournament(id);
    } catch (err) {
      toast(failure(err), 'error');
    }
    clearTimeout(timer);
    load();
  });

  load();
  return { destroy() { destroyed = true; clearTimeout(timer); off(); } };
}
