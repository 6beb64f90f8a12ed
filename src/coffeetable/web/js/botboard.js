// The bots' leaderboard of a game, beside the players' (js/leaderboard.js): bot
// accounts with their owners, and the site's own bots, by rating.

import { api } from './api.js';
import { html } from './dom.js';
import { t } from './i18n.js';
import { botName } from './names.js';
import { failure, playerLink, ratingText, robotMark } from './players.js';

/** The markup of the bots' board of ``game`` (its ``group``), fetched now. */
export async function botBoard(game, group) {
  let board;
  try {
    board = await api.botLeaderboard(game, group);
  } catch (err) {
    return section(html`<p class="error">${failure(err)}</p>`);
  }
  const entries = board.entries || [];
  if (!entries.length) return section(html`<p class="muted" data-testid="bot-board-empty">${t('board.botsEmpty')}</p>`);
  return section(html`<div class="table-scroll"><table class="stats leaderboard" data-testid="bot-leaderboard">
    <thead><tr><th>${t('board.place')}</th><th>${t('board.player')}</th><th>${t('board.owner')}</th>
      <th>${t('board.rating')}</th><th>${t('board.games')}</th><th>${t('board.wins')}</th></tr></thead>
    <tbody>${entries.map((e) => html`<tr data-testid="bot-board-row" data-name="${e.name}">
      <td class="board-place">${e.place}</td>
      <td>${playerLink(e.owner == null ? botName(e.name) : e.name, e.name, true)}</td>
      <td>${e.owner == null ? html`<span class="muted">${t('board.siteBot')}</span>` : playerLink(e.owner, e.owner)}</td>
      <td>${ratingText(e)}</td><td>${e.games}</td><td>${e.wins}</td></tr>`)}</tbody>
  </table></div>`);
}

function section(body) {
  return html`<section class="bot-board" data-testid="bot-board"><h2>${robotMark()}${t('board.botsTitle')}</h2>${body}</section>`;
}
