// #/leagues/<game>: the programs' league of a game: the bot accounts that opted in and
// the site's bot levels (references), the standings with each score share's 95%
// interval, and the results of every pair. Refreshed every few seconds.

import { api } from './api.js';
import { html, setHTML } from './dom.js';
import { t } from './i18n.js';
import { failure, gameTitle } from './players.js';

const REFRESH_MS = 5000;

const percent = (share) => `${Math.round(share * 1000) / 10}%`;

function standings(league) {
  const empty = league.matches ? '' : html`<p class="muted" data-testid="league-empty">${t('league.noMatches')}</p>`;
  return html`${empty}<table class="stats standings" data-testid="league-standings">
    <thead><tr><th>${t('tour.rank')}</th><th>${t('tour.player')}</th><th>${t('league.played')}</th>
      <th>${t('tour.points')}</th><th>${t('league.share')}</th><th>${t('league.interval')}</th>
      <th>${t('league.forfeits')}</th></tr></thead>
    <tbody>${league.standings.map((line) => html`<tr data-testid="league-row" data-entrant="${line.entrant}">
      <td>${line.rank}</td><td>${line.name}</td><td>${line.played}</td><td>${line.points}</td>
      <td>${percent(line.share)}</td><td>${percent(line.low)} – ${percent(line.high)}</td>
      <td data-testid="league-forfeits">${line.forfeits}</td></tr>`)}</tbody>
  </table>`;
}

// "2 forfeited" beside a side's points, and the pair's void matches (both forfeited).
const forfeited = (n) => (n ? html` <span class="muted">(${t('league.forfeited', { n })})</span>` : '');
const voided = (n) => (n ? html` <span class="muted">${t('league.void', { n })}</span>` : '');

function pairs(league) {
  const names = Object.fromEntries(league.players.map((player) => [player.entrant, player.name]));
  if (!league.pairs.length) return '';
  return html`<h2>${t('league.pairs')}</h2>
    <table class="stats" data-testid="league-pairs">
    <thead><tr><th>${t('league.pair')}</th><th>${t('league.played')}</th><th>${t('tour.points')}</th></tr></thead>
    <tbody>${league.pairs.map((pair) => html`<tr data-testid="league-pair">
      <td>${names[pair.a] || pair.a} – ${names[pair.b] || pair.b}</td><td>${pair.played}${voided(pair.void)}</td>
      <td>${pair.a_points}${forfeited(pair.a_forfeits)} : ${pair.b_points}${forfeited(pair.b_forfeits)}</td></tr>`)}</tbody>
  </table>`;
}

function page(league) {
  const pace = league.matches_per_hour > 0
    ? t('league.pace', { n: league.matches_per_hour, playing: league.playing })
    : t('league.off');
  return html`<h1>${t('league.title', { game: gameTitle(league.game) })}</h1>
    <p>${t('league.intro')}</p>
    <p class="muted" data-testid="league-pace">${pace}</p>
    <h2>${t('tour.standings')}</h2>
    ${standings(league)}
    <p class="muted" data-testid="league-forfeit-rule">${t('league.forfeitRule')}</p>
    ${pairs(league)}`;
}

export function mount(root, route) {
  let destroyed = false;
  let timer = null;
  setHTML(root, html`<section class="league-page" data-testid="league-page">
    <p class="muted">${t('common.loading')}</p></section>`);
  const body = root.querySelector('.league-page');

  async function load() {
    let league;
    try {
      league = await api.league(route.game);
    } catch (err) {
      if (!destroyed) setHTML(body, html`<p class="error">${failure(err)}</p>`);
      return;
    }
    if (destroyed) return;
    setHTML(body, page(league));
    timer = setTimeout(load, REFRESH_MS);
  }

  load();
  return { destroy() { destroyed = true; clearTimeout(timer); } };
}
