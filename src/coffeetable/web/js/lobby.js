// The lobby: the games, a form to open a table, and the open tables to join or watch;
// a signed-in player's own tables to continue; the recently finished matches.

import { api } from './api.js';
import { attrs, html, onClick, setHTML, toast } from './dom.js';
import { t, has } from './i18n.js';
import { loadStrings } from './games.js';
import { go } from './router.js';
import { playerName, setPlayerName, rememberSeat, seatAt } from './session.js';
import { account, accountSeat, refresh as refreshAccount } from './account.js';
import { gameTitle as titleOf, leaderboardHref, matchList } from './players.js';
import { mountPlayNow } from './playnow.js';
import { offerTutorials } from './learnoffer.js';
import { tournamentsPanel } from './tournaments.js';
import { addMyBots, programChoice, programInput, programOptions } from './botseats.js';
import { addFriends, invitedName } from './inviteseats.js';
import { invites, keepChoices, readForm } from './formkeep.js';
import { botName, offeredLevels, tableName, usualLevel } from './names.js';

const REFRESH_MS = 4000;
const BOT_SPEEDS = [1, 2, 5, 10];
const CLOCK_MINUTES = [0, 5, 10, 20, 30];
const DAYS_PER_MOVE = [0, 0.5, 1, 2, 3, 7]; // a table that waits for its players
const MIN_RELIABILITY = [0, 50, 75, 90, 95]; // players who finish this share of their games
const RECENT_MATCHES = 10;

export function mount(root) {
  const view = { games: [], tables: [], timer: null, destroyed: false, form: null, drawn: 0 };
  setHTML(root, html`
    <section class="lobby">
      <div class="lobby-main">
        <h1>${t('lobby.title')}</h1>
        <p class="tagline">${t('lobby.tagline')}</p>
        <div class="game-list" data-testid="lobby-games"><p class="muted">${t('common.loading')}</p></div>
        <section class="panel play-now" data-testid="play-now" hidden></section>
        <form class="panel create-form" data-testid="create-form" hidden></form>
      </div>
      <aside class="lobby-side">
        <section class="panel lobby-tables my-tables" data-testid="my-tables" hidden></section>
        <section class="panel lobby-tables">
          <h2>${t('lobby.tables')}</h2>
          <div data-testid="tables-list" class="tables-list"><p class="muted">${t('common.loading')}</p></div>
        </section>
        <section class="panel lobby-tournaments" data-testid="lobby-tournaments"></section>
        <section class="panel lobby-matches">
          <h2>${t('lobby.recentMatches')}</h2>
          <div data-testid="recent-matches" class="recent-matches"><p class="muted">${t('common.loading')}</p></div>
        </section>
      </aside>
    </section>`);
  const gameList = root.querySelector('.game-list');
  const form = root.querySelector('.create-form');
  const tableList = root.querySelector('.tables-list');
  const myTables = root.querySelector('.my-tables');
  const recentMatches = root.querySelector('.recent-matches');
  const tournaments = root.querySelector('.lobby-tournaments');
  const playNow = mountPlayNow(root.querySelector('.play-now'), () => view.games);

  async function loadGames() {
    try {
      view.games = await api.games();
    } catch (err) {
      setHTML(gameList, html`<p class="error">${t('error.network', { reason: err.reason })}</p>`);
      return;
    }
    await Promise.all(view.games.map((game) => loadStrings(game.name)));
    if (view.destroyed) return;
    setHTML(gameList, html`${view.games.map(gameCard)}`);
    offerTutorials(gameList);
    if (view.games.length) showForm(view.games[0]);
  }

  function showForm(game) {
    // a friend invited to a seat stays invited when the game changes (if the seat remains)
    const kept = view.form ? invites(readForm(form)) : [];
    view.form = { game, players: Math.min(Math.max(game.min_players, 4), game.max_players) };
    renderForm(kept);
  }

  /** Draw the form, then put back ``kept`` ([name, value] pairs) where it still offers them. */
  function renderForm(kept = []) {
    const { game } = view.form;
    form.hidden = false;
    setHTML(form, createForm(game, view.form.players));
    view.drawn += 1;
    const drawn = view.drawn;
    // my bots and "Invite <friend>" (first in each seat's menu) arrive after the form:
    // a friend chosen before the redraw is put back once offered again
    const arrived = Promise.all([addMyBots(form), addFriends(form)]);
    keepChoices(form, kept, arrived, () => drawn === view.drawn && !view.destroyed);
  }

  async function loadTables() {
    try {
      const tables = await api.tables();
      view.tables = Array.isArray(tables) ? tables : tables.tables || [];
    } catch {
      return; // keep the last list; the next refresh tries again
    }
    await view.ready; // the games' own strings first: titles, never raw names
    if (!view.destroyed) setHTML(tableList, tablesList(view.tables));
  }

  /** The signed-in player's seats at open and running tables (GET /api/me). */
  function renderMyTables() {
    const me = account();
    myTables.hidden = !me;
    if (me) setHTML(myTables, myTablesList(me.tables || []));
  }

  async function loadMatches() {
    try {
      const page = await api.matches({ limit: RECENT_MATCHES });
      if (!view.destroyed) setHTML(recentMatches, matchList(page.matches || [], null, 'recent-matches-list'));
    } catch {
      if (!view.destroyed) setHTML(recentMatches, html`<p class="muted">${t('lobby.noMatchesYet')}</p>`);
    }
  }

  async function loadTournaments() {
    try {
      const lists = await api.tournaments();
      if (!view.destroyed) setHTML(tournaments, tournamentsPanel(lists));
    } catch {
      if (!view.destroyed) setHTML(tournaments, tournamentsPanel({}));
    }
  }

  function refreshAll() {
    loadTables();
    loadTournaments();
    if (account()) refreshAccount(); // its tables: accountChanged() draws them
  }

  onClick(gameList, '[data-action="play-now"]', (event, button) => {
    const game = view.games.find((g) => g.name === button.dataset.game);
    if (!game) return;
    playNow.open(game);
    showForm(game); // the form below speaks of the same game ("A new table of Fika")
  });

  onClick(gameList, '[data-action="new-table"]', (event, button) => {
    const game = view.games.find((g) => g.name === button.dataset.game);
    if (game) showForm(game);
    form.scrollIntoView({ behavior: 'smooth', block: 'start' });
  });

  form.addEventListener('change', (event) => {
    if (event.target.name === 'players') {
      view.form.players = Number(event.target.value);
      renderForm(readForm(form));
    }
  });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = buildCreateBody(form, view.form.game);
    if (!account()) setPlayerName(body.name);
    const button = form.querySelector('[type=submit]');
    button.disabled = true;
    try {
      const created = await api.createTable(body);
      rememberSeat(created.table_id, created.seat, created.token);
      go(`#/table/${encodeURIComponent(created.table_id)}`);
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
      button.disabled = false;
    }
  });

  onClick(tableList, '[data-action="join"]', async (event, button) => {
    const id = button.dataset.table;
    const typed = form.elements.namedItem('name');
    const name = (typed && typed.value.trim()) || playerName() || t('lobby.namePlaceholder');
    if (!account()) setPlayerName(name);
    try {
      const joined = await api.join(id, name);
      rememberSeat(id, joined.seat, joined.token);
      go(`#/table/${encodeURIComponent(id)}`);
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
    }
  });

  view.ready = loadGames().catch(() => {});
  loadTables();
  loadMatches();
  loadTournaments();
  renderMyTables();
  view.timer = setInterval(refreshAll, REFRESH_MS);
  return {
    accountChanged() {
      if (view.destroyed) return;
      renderMyTables();
      offerTutorials(gameList);
      setHTML(tableList, tablesList(view.tables));
      const nameField = form.elements.namedItem('name');
      const signedIn = Boolean(account());
      playNow.relabel();
      if (view.form && (!nameField || nameField.readOnly !== signedIn)) {
        renderForm(readForm(form).filter(([name]) => name !== 'name'));
      }
    },
    destroy() {
      view.destroyed = true;
      clearInterval(view.timer);
      playNow.destroy();
    },
  };
}

function gameTitle(game) {
  return has(`${game.name}.title`) ? titleOf(game.name) : game.title;
}

function gameCard(game) {
  const tagline = has(`${game.name}.tagline`) ? html`<p>${t(`${game.name}.tagline`)}</p>` : '';
  // Every game plays: on its own board, or the generic one (js/genericboard.js).
  const create = html`<button type="button" class="primary" data-action="play-now" data-game="${game.name}"
          data-testid="play-now-${game.name}">${t('playNow.button')}</button>
        <button type="button" data-action="new-table" data-game="${game.name}"
          data-testid="new-table-${game.name}">${t('lobby.create')}</button>`;
  return html`
    <article class="game-card" data-testid="game-card-${game.name}">
      <h3>${gameTitle(game)}</h3>
      ${tagline}
      <p class="learn-offer" data-learn-offer="${game.name}" hidden></p>
      <p class="muted">${game.min_players === game.max_players
        ? t('playNow.playerCount', { count: game.min_players })
        : t('lobby.players', { min: game.min_players, max: game.max_players })}
        · ${t(game.realtime ? 'lobby.realtime' : 'lobby.turns')}</p>
      <div class="actions">
        ${create}
        <a href="#/rules/${game.name}" data-testid="rules-link-${game.name}">${t('lobby.rules')}</a>
        <a href="${leaderboardHref(game.name)}" data-testid="leaderboard-link-${game.name}">${t('lobby.leaderboard')}</a>
        ${game.league ? html`<a href="#/leagues/${game.name}" data-testid="league-link-${game.name}">${t('lobby.league')}</a>` : ''}
      </div>
    </article>`;
}

function optionLabel(game, option) {
  const key = `${game.name}.option.${option.name}`;
  return has(key) ? t(key) : option.description || option.name;
}

function optionField(game, option, players) {
  const id = `option-${option.name}`;
  const label = optionLabel(game, option);
  if (option.seat) {
    // a seat (-1: drawn at random): "At random", "Seat 1"... up to the table's last seat
    const last = Math.min(option.maximum ?? players - 1, players - 1);
    const values = [-1, ...Array.from({ length: last + 1 }, (_, seat) => seat)];
    const choices = values.map((v) => html`<option value="${v}" ${attrs({ selected: v === option.default })}>${
      v < 0 ? t('lobby.seatRandom') : t('lobby.seat', { n: v + 1 })}</option>`);
    return html`<label>${label} <select name="${id}" data-testid="${id}">${choices}</select></label>`;
  }
  if (option.type === 'bool') {
    return html`<label class="check"><input type="checkbox" name="${id}" data-testid="${id}"
      ${attrs({ checked: Boolean(option.default) })}> ${label}</label>`;
  }
  if (option.choices) {
    const choices = option.choices.map((c) =>
      html`<option value="${c}" ${attrs({ selected: c === option.default })}>${c}</option>`);
    return html`<label>${label} <select name="${id}" data-testid="${id}">${choices}</select></label>`;
  }
  const bounds = attrs({ min: option.minimum, max: option.maximum });
  return html`<label>${label} <input type="number" name="${id}" data-testid="${id}" value="${option.default ?? ''}" ${bounds}></label>`;
}

function seatRow(game, seat) {
  if (seat === 0) {
    return html`<li><span class="seat-no">${t('lobby.seat', { n: 1 })}</span> <strong>${t('lobby.you')}</strong></li>`;
  }
  // By default the other seats are bots of a middling level, so "Open the table" starts at once.
  const levels = offeredLevels(game);
  const usual = usualLevel(levels) || null;
  const bots = levels.map((level) =>
    html`<option value="bot:${level}" ${attrs({ selected: level === usual })}>${t('lobby.botLevel', { level: botName(level) })}</option>`);
  return html`<li><span class="seat-no">${t('lobby.seat', { n: seat + 1 })}</span>
    <select name="seat-${seat}" aria-label="${t('lobby.seat', { n: seat + 1 })}" data-testid="seat-select-${seat}">
      <option value="open">${t('lobby.openSeat')}</option>${bots}${programOptions()}
    </select>${programInput(seat)}</li>`;
}

function createForm(game, players) {
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n += 1) {
    counts.push(html`<option value="${n}" ${attrs({ selected: n === players })}>${n}</option>`);
  }
  const seats = Array.from({ length: players }, (_, seat) => seatRow(game, seat));
  const options = (game.options || []).map((option) => optionField(game, option, players));
  const clocks = CLOCK_MINUTES.map((n) =>
    html`<option value="${n}">${n ? t('lobby.clockValue', { n }) : t('lobby.clockNone')}</option>`);
  const days = DAYS_PER_MOVE.map((n) => html`<option value="${n}">${n ? t(n < 1 ? 'lobby.daysHours' : 'lobby.daysValue', { n, h: n * 24 }) : t('lobby.daysNone')}</option>`);
  const reliable = MIN_RELIABILITY.map((p) => html`<option value="${p}">${p ? t('lobby.minReliabilityValue', { p }) : t('lobby.minReliabilityNone')}</option>`);
  const speeds = BOT_SPEEDS.map((s) => html`<option value="${s}">${t('lobby.botSpeedValue', { n: s })}</option>`);
  const setting = (name) => (game.settings || []).some((s) => s.name === name);
  const me = account();
  // Signed in, you play under your username, and a table of two seats or more may be
  // rated (checked: the server's default when everyone at it is signed in).
  const rated = me && players >= 2
    ? html`<label class="check"><input type="checkbox" name="rated" data-testid="create-rated" checked> ${t('lobby.rated')}</label>`
    : '';
  const name = me
    ? html`<input name="name" data-testid="create-name" value="${me.username}" readonly>`
    : html`<input name="name" data-testid="create-name" maxlength="24" value="${playerName()}" placeholder="${t('lobby.namePlaceholder')}">`;
  return html`
    <h2>${t('lobby.createTitle', { game: gameTitle(game) })}</h2>
    <div class="form-grid">
      <label>${t(me ? 'lobby.playingAs' : 'lobby.yourName')} ${name}</label>
      <label>${t('lobby.playerCount')} <select name="players" data-testid="create-players">${counts}</select></label>
      ${setting('bot_speed') ? html`<label>${t('lobby.botSpeed')} <select name="bot-speed" data-testid="bot-speed">${speeds}</select></label>` : ''}
      ${setting('clock_minutes') ? html`<label>${t('lobby.clock')} <select name="clock-minutes" data-testid="clock-minutes">${clocks}</select></label>` : ''}
      ${setting('days_per_move') ? html`<label>${t('lobby.days')} <select name="days-per-move" data-testid="days-per-move">${days}</select></label>` : ''}
      ${setting('min_reliability') ? html`<label>${t('lobby.minReliability')} <select name="min-reliability" data-testid="min-reliability">${reliable}</select></label>` : ''}
    </div>
    <fieldset class="options"><legend>${t('lobby.options')}</legend>${options}${rated}</fieldset>
    <fieldset class="seats"><legend>${t('lobby.seats')}</legend><ol>${seats}</ol></fieldset>
    <button type="submit" class="primary big" data-testid="create-submit">${t('lobby.createButton')}</button>`;
}

function buildCreateBody(form, game) {
  const els = form.elements;
  const players = Number(els.namedItem('players').value);
  const options = {};
  for (const option of game.options || []) {
    const el = els.namedItem(`option-${option.name}`);
    if (!el) continue;
    if (option.type === 'bool') options[option.name] = el.checked;
    else if (option.type === 'int') options[option.name] = Number.parseInt(el.value, 10);
    else options[option.name] = el.value;
  }
  const speed = els.namedItem('bot-speed');
  if (speed) options.bot_speed = Number(speed.value);
  const clock = els.namedItem('clock-minutes');
  if (clock) options.clock_minutes = Number(clock.value);
  const least = els.namedItem('min-reliability');
  if (least && Number(least.value)) options.min_reliability = Number(least.value);
  const perMove = els.namedItem('days-per-move');
  if (perMove && Number(perMove.value)) {
    options.days_per_move = Number(perMove.value);
    options.clock_minutes = 0; // days per move replace the live clock
  }

  const bots = {};
  const invite = {};
  for (let seat = 1; seat < players; seat += 1) {
    const value = els.namedItem(`seat-${seat}`).value;
    if (invitedName(value)) invite[String(seat)] = invitedName(value);
    if (value.startsWith('bot:')) bots[String(seat)] = value.slice(4);
    const program = programChoice(els, seat, value); // a bot account ("alice/bot-v2")
    if (program) bots[String(seat)] = program;
  }
  const name = els.namedItem('name').value.trim() || t('lobby.namePlaceholder');
  const body = { game: game.name, players, options, bots, name };
  if (Object.keys(invite).length) body.invite = invite;
  const rated = els.namedItem('rated');
  // A table with one of my own bots is never rated: then the server's default decides.
  const me = account();
  const mine = (bot) => Boolean(me) && bot.split('/')[0].toLowerCase() === me.username.toLowerCase();
  const withMyBot = Object.values(bots).some((bot) => bot.includes('/') && mine(bot));
  // left out: the server's default (rated when all are signed in, and no one meets their own bots)
  if (rated && !(withMyBot && rated.checked)) body.rated = rated.checked;
  return body;
}

function myTablesList(tables) {
  const rows = tables.map((table) => {
    const id = table.table_id;
    return html`<li class="table-row" data-testid="my-table-${id}">
      <div><strong>${table.name || titleOf(table.game)}</strong>
        <span class="muted">${titleOf(table.game)} · ${t('lobby.seat', { n: table.seat + 1 })}
        · ${t(`lobby.status.${table.status}`)}</span></div>
      <div class="actions"><a class="button primary" href="#/table/${encodeURIComponent(id)}"
        data-testid="continue-${id}">${t('lobby.continue')}</a></div>
    </li>`;
  });
  return html`<h2>${t('lobby.yourTables')}</h2>
    ${rows.length ? html`<ul>${rows}</ul>` : html`<p class="muted" data-testid="no-my-tables">${t('lobby.noYourTables')}</p>`}`;
}

function tablesList(tables) {
  if (!tables.length) return html`<p class="muted" data-testid="no-tables">${t('lobby.noTables')}</p>`;
  return html`<ul>${tables.map(tableRow)}</ul>`;
}

function tableRow(table) {
  const id = table.table_id;
  const seats = table.seats || [];
  const taken = seats.filter((s) => !s.open).length;
  const mine = seatAt(id) || accountSeat(id) != null;
  const me = (account() || {}).username || ''; // a seat held for an invited player is theirs alone
  const canJoin = !mine && table.status === 'open' && seats.some((s) => s.open && (!s.invited || s.invited.toLowerCase() === me.toLowerCase()));
  const title = tableName(table) || id;
  const url = `#/table/${encodeURIComponent(id)}`;
  // How reliable the seated players are (their share of matches finished), what the table asks.
  const reliable = seats.filter((s) => s.reliability != null)
    .map((s) => t('lobby.reliableSeat', { name: s.name, p: s.reliability })).join(', ');
  const settings = table.settings || {};
  const asks = [
    settings.min_reliability ? t('lobby.asksReliability', { p: settings.min_reliability }) : '',
    settings.days_per_move ? t('games.perMove', { days: settings.days_per_move }) : '',
    reliable].filter(Boolean).map((text) => ` · ${text}`).join('');
  return html`
    <li class="table-row" data-testid="table-row-${id}">
      <div><strong>${title}</strong>
        <span class="muted">${has(`${table.game}.title`) ? t(`${table.game}.title`) : table.game}
        · ${t('lobby.seatsTaken', { taken, total: seats.length })}
        · ${t(`lobby.status.${table.status}`)}<span data-testid="table-asks-${id}">${asks}</span></span></div>
      <div class="actions">
        ${mine ? html`<a class="button primary" href="${url}" data-testid="rejoin-${id}">${t('lobby.rejoin')}</a>` : ''}
        ${canJoin ? html`<button type="button" class="primary" data-action="join" data-table="${id}" data-testid="join-${id}">${t('lobby.join')}</button>` : ''}
        <a class="button" href="${url}" data-testid="watch-${id}">${t('lobby.watch')}</a>
      </div>
    </li>`;
}
