// #/leaderboards/<game>[/<group>]: the best rated players of a game (people and
// bots), a tab per player-count group, my own line highlighted (or shown below
// the list when I am further down).

import { api } from './api.js';
import { account } from './account.js';
import { html, setHTML } from './dom.js';
import { t } from './i18n.js';
import { botBoard } from './botboard.js';
import {
  failure, gameTitle, groupLabel, knownGames, leaderboardHref, playerLink, ratingText,
} from './players.js';

export function mount(root, route) {
  let destroyed = false;
  setHTML(root, html`<section class="leaderboard-page" data-testid="leaderboard-page">
    <h1>${t('board.title')}</h1>
    <nav class="tabs game-tabs" data-testid="board-games"></nav>
    <div class="board-body" data-testid="board-body"><p class="muted">${t('common.loading')}</p></div>
  </section>`);
  const tabs = root.querySelector('.game-tabs');
  const body = root.querySelector('.board-body');

  async function load() {
    let games = [];
    try {
      games = await knownGames();
    } catch (err) {
      if (!destroyed) setHTML(body, html`<p class="error">${failure(err)}</p>`);
      return;
    }
    if (destroyed) return;
    const game = route.game || (games[0] && games[0].name);
    setHTML(tabs, html`${games.map((g) => html`<a href="${leaderboardHref(g.name)}" class="${g.name === game ? 'active' : ''}"
      data-testid="board-game-${g.name}">${gameTitle(g.name)}</a>`)}`);
    let board;
    try {
      board = await api.leaderboard(game, route.group);
    } catch (err) {
      if (destroyed) return;
      const text = err.status === 404 ? t('board.noGame', { game }) : failure(err);
      setHTML(body, html`<p class="error" data-testid="board-missing">${text}</p>`);
      return;
    }
    const bots = await botBoard(game, board.group); // the bots' board, beside the players'
    if (!destroyed) setHTML(body, html`${boardBody(board)}${bots}`);
  }

  load();
  return { destroy() { destroyed = true; } };
}

function boardBody(board) {
  const me = account();
  const myName = me ? me.username.toLowerCase() : null;
  const isMe = (entry) => myName != null && !entry.bot && entry.name.toLowerCase() === myName;
  const groups = board.groups || [];
  const groupTabs = groups.length > 1
    ? html`<nav class="tabs group-tabs" data-testid="board-groups">${groups.map((g) => html`
        <a href="${leaderboardHref(board.game, g)}" class="${g === board.group ? 'active' : ''}"
          data-testid="board-group-${g}">${groupLabel(g)}</a>`)}</nav>`
    : html`<p class="muted">${groupLabel(board.group)}</p>`;
  const entries = board.entries || [];
  const shown = entries.some(isMe);
  const mine = board.me && !shown
    ? html`<tbody class="my-place"><tr class="me" data-testid="board-me">${cells(board.me)}</tr></tbody>`
    : '';
  const table = entries.length
    ? html`<table class="stats leaderboard" data-testid="leaderboard">
        <thead><tr><th>${t('board.place')}</th><th>${t('board.player')}</th><th>${t('board.rating')}</th>
          <th>${t('board.games')}</th><th>${t('board.wins')}</th></tr></thead>
        <tbody>${entries.map((e) => html`<tr class="${isMe(e) ? 'me' : ''}" data-testid="board-row"
          data-name="${e.name}" data-me="${isMe(e) ? 'true' : 'false'}">${cells(e)}</tr>`)}</tbody>
        ${mine}
      </table>`
    : html`<p class="muted" data-testid="board-empty">${t('board.empty')}</p>`;
  let note = '';
  if (board.me) note = html`<p class="my-line" data-testid="board-my-place">${t('board.yourPlace', { n: board.me.place })}</p>`;
  else if (me) note = html`<p class="muted" data-testid="board-unrated">${t('board.notRanked')}</p>`;
  else note = html`<p class="muted"><a href="#/signin">${t('menu.signIn')}</a> · ${t('board.signInToRank')}</p>`;
  return html`${groupTabs}${note}<div class="table-scroll">${table}</div>
    <p class="muted pl-hint">${t('board.hint')}</p>`;
}

function cells(entry) {
  return html`<td class="board-place">${entry.place}</td>
    <td>${playerLink(entry.name, entry.name, entry.bot)}</td>
    <td>${ratingText(entry)}</td><td>${entry.games}</td><td>${entry.wins}</td>`;
}
