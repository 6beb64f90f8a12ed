// What the players pages share: links to profiles, the robot and provisional
// marks, the rating sparkline, dates, player-count groups and one finished
// match as a list item (the lobby's recent matches, a profile's matches).
// Everything is built with html``: names at a table are free text.

import { api } from './api.js';
import { html } from './dom.js';
import { has, lang, t } from './i18n.js';
import { loadStrings } from './games.js';
import { seatLabel } from './names.js';

let gamesLoaded = null;

/** The server's games (GET /api/games), each game's strings registered; once per page. */
export function knownGames() {
  if (!gamesLoaded) {
    gamesLoaded = api.games()
      .then(async (games) => {
        await Promise.all(games.map((game) => loadStrings(game.name)));
        return games;
      })
      .catch((err) => {
        gamesLoaded = null;
        throw err;
      });
  }
  return gamesLoaded;
}

/** A game's title in the current language (its strings once loaded, else its name). */
export function gameTitle(name) {
  return has(`${name}.title`) ? t(`${name}.title`) : name;
}

export function profileHref(name) {
  return `#/players/${encodeURIComponent(name)}`;
}

export function leaderboardHref(game, group) {
  const tail = group ? `/${encodeURIComponent(group)}` : '';
  return `#/leaderboards/${encodeURIComponent(game)}${tail}`;
}

/** The profile name of a bot level ("ismcts:800" is rated as "ismcts"). */
export function botProfile(level) {
  return String(level).split(':')[0];
}

/** The robot mark shown before a bot's name. */
export function robotMark() {
  const label = t('players.bot');
  return html`<svg class="robot-mark" viewBox="0 0 16 16" role="img" aria-label="${label}" data-testid="robot-mark"><title>${label}</title><rect x="3" y="5" width="10" height="8" rx="2"/><rect x="7.25" y="1.5" width="1.5" height="3.5"/><circle cx="8" cy="1.8" r="1.3"/><circle class="eye" cx="6" cy="9" r="1.2"/><circle class="eye" cx="10" cy="9" r="1.2"/></svg>`;
}

/** "?" after a provisional rating, explained on hover. */
export function provisionalMark(provisional) {
  if (!provisional) return '';
  return html`<abbr class="provisional" title="${t('players.provisional')}" data-testid="provisional">?</abbr>`;
}

/** A rating with its provisional mark. */
export function ratingText(entry) {
  return html`<span class="rating" data-testid="rating" data-rating="${entry.rating}">${entry.rating}${provisionalMark(entry.provisional)}</span>`;
}

/**
 * A player's name: a link to the profile when it is an account or a bot
 * (`player` is the profile name; null for a guest), with the robot mark for bots.
 */
export function playerLink(name, player, bot = false) {
  const mark = bot ? robotMark() : '';
  if (!player) return html`<span class="player-name guest">${mark}${name}</span>`;
  return html`<a class="player-name" href="${profileHref(player)}" data-testid="player-link" data-player="${player}">${mark}${name}</a>`;
}

/** A date and time from seconds since 1970, in the current language. */
export function dateText(seconds, withTime = true) {
  if (!Number.isFinite(seconds)) return '';
  const style = withTime ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'long' };
  return new Intl.DateTimeFormat(lang(), style).format(new Date(seconds * 1000));
}

/** A player-count group: "2 players", "3–4 players", or "all player counts". */
export function groupLabel(group) {
  if (group === 'all') return t('players.groupAll');
  if (group === '1') return t('players.groupSolo');
  return t('players.group', { n: String(group).replace('-', '–') });
}

const SPARK_W = 120;
const SPARK_H = 32;

/** The rating after each rated game, as a small line (a dot for one game). */
export function sparkline(history) {
  const points = (history || []).filter(Number.isFinite);
  const label = t('players.history', { count: points.length });
  if (!points.length) return '';
  const low = Math.min(...points);
  const high = Math.max(...points);
  const span = high - low || 1;
  const x = (i) => (points.length === 1 ? SPARK_W / 2 : 2 + (i * (SPARK_W - 4)) / (points.length - 1));
  const y = (v) => (high === low ? SPARK_H / 2 : 2 + ((high - v) * (SPARK_H - 4)) / span);
  const coords = points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const last = points.length - 1;
  return html`<svg class="sparkline" viewBox="0 0 ${SPARK_W} ${SPARK_H}" role="img" aria-label="${label}"
      data-testid="sparkline" data-points="${points.length}"><title>${label}</title>
    ${points.length > 1 ? html`<polyline points="${coords}"/>` : ''}
    <circle cx="${x(last).toFixed(1)}" cy="${y(points[last]).toFixed(1)}" r="2.5"/></svg>`;
}

/** The result of a finished match for one profile: won, shared, lost, left or solo. */
export function resultOf(match, playerName) {
  const key = String(playerName).toLowerCase();
  const mine = (match.participants || []).find((p) => p.player && p.player.toLowerCase() === key);
  if (!mine) return null;
  if (match.players === 1) return 'solo';
  if (mine.left) return 'left';
  if (mine.rank !== 1) return 'lost';
  return match.participants.filter((p) => p.rank === 1).length > 1 ? 'shared' : 'won';
}

function ratingChange(p) {
  if (p.rating_before == null || p.rating_after == null) return '';
  const delta = p.rating_after - p.rating_before;
  const text = delta > 0 ? `+${delta}` : String(delta).replace('-', '−');
  const kind = delta > 0 ? 'up' : delta < 0 ? 'down' : 'same';
  return html`<span class="rating-change ${kind}" title="${t('players.ratingChange', { before: p.rating_before, after: p.rating_after })}"
    data-testid="rating-change">${text}</span>`;
}

function participantItem(match, p) {
  const place = match.players > 1
    ? html`<span class="rank-badge" title="${t('players.place', { n: p.rank })}" data-testid="place">${p.rank}</span>` : '';
  const solo = p.solo_rank && has(`${match.game}.rank.${p.solo_rank}`)
    ? html` <span class="muted">${t(`${match.game}.rank.${p.solo_rank}`)}</span>` : '';
  return html`<li class="participant ${p.rank === 1 && match.players > 1 ? 'winner' : ''}" data-testid="participant-${p.seat}">
    ${place} ${playerLink(p.level ? seatLabel({ bot: p.level }, p.seat) : p.name, p.player, p.bot)}
    <span class="score" data-testid="score">${t('players.points', { count: p.score })}</span>${solo}
    ${p.left ? html` <em class="muted">${t('players.left')}</em>` : ''} ${ratingChange(p)}</li>`;
}

/**
 * One finished match: game, date, rated or not, the participants by rank with
 * their scores and rating changes, and a link to the table. `forPlayer`: a
 * profile's name, to show that player's result.
 */
export function matchItem(match, forPlayer = null) {
  const result = forPlayer ? resultOf(match, forPlayer) : null;
  const ranked = [...(match.participants || [])].sort((a, b) => a.rank - b.rank || a.seat - b.seat);
  const status = match.status === 'abandoned' ? html` · <span>${t('players.abandoned')}</span>` : '';
  return html`<li class="match" data-testid="match-${match.match_id}" data-table="${match.table_id}">
    <div class="match-head">
      ${result ? html`<span class="result result-${result}" data-testid="result">${t(`players.result.${result}`)}</span>` : ''}
      <strong>${gameTitle(match.game)}</strong>
      <a class="match-link" href="#/table/${encodeURIComponent(match.table_id)}" data-testid="match-link">${t('players.viewMatch')}</a>
      ${match.status === 'abandoned' ? '' : html`<a class="match-link" href="#/replay/${encodeURIComponent(match.table_id)}" data-testid="replay-link">${t('end.viewReplay')}</a>`}
    </div>
    <div class="muted match-when">${dateText(match.finished)} · ${match.rated ? t('players.rated') : t('players.unrated')}${status}</div>
    <ol class="participants">${ranked.map((p) => participantItem(match, p))}</ol>
  </li>`;
}

/** A list of finished matches, or a line saying there are none. */
export function matchList(matches, forPlayer = null, testid = 'match-list') {
  if (!matches.length) return html`<p class="muted" data-testid="${testid}-empty">${t('players.noMatches')}</p>`;
  return html`<ul class="match-list" data-testid="${testid}">${matches.map((m) => matchItem(m, forPlayer))}</ul>`;
}

/** A short message for a failed request (never the raw markup of anything). */
export function failure(err) {
  if (err && err.status === 0) return t('error.network', { reason: err.reason });
  return t('error.server', { reason: err ? err.reason : '' });
}
