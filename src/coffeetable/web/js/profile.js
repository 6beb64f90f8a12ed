// #/players/<name>: a player's profile (a person's account or a bot level):
// ratings per game and player-count group with their history, games played
// and won, solo bests and ranks, and the recent matches, a page at a time; a signed-in
// visitor may report the player (js/report.js).

import { api } from './api.js';
import { account } from './account.js';
import { html, onClick, setHTML } from './dom.js';
import { has, t } from './i18n.js';
import { openReport } from './report.js';
import {
  dateText, failure, gameTitle, groupLabel, knownGames, leaderboardHref, matchItem,
  ratingText, robotMark, sparkline,
} from './players.js';

const PAGE = 10;

export function mount(root, route) {
  const name = route.name;
  const view = { destroyed: false, next: null, loadingMore: false };
  setHTML(root, html`<section class="profile-page" data-testid="profile-page">
    <p class="muted">${t('common.loading')}</p></section>`);
  const page = root.querySelector('.profile-page');

  async function load() {
    let profile;
    try {
      await knownGames().catch(() => null); // titles; the page works without them
      profile = await api.player(name);
    } catch (err) {
      if (view.destroyed) return;
      const text = err.status === 404 ? t('profile.notFound', { name }) : failure(err);
      setHTML(page, html`<p class="error" data-testid="profile-missing">${text}</p>`);
      return;
    }
    if (view.destroyed) return;
    const recent = profile.recent || [];
    view.next = recent.length >= PAGE ? recent[recent.length - 1].match_id : null;
    setHTML(page, profilePage(profile));
  }

  onClick(root, '[data-action="more-matches"]', async (event, button) => {
    if (view.loadingMore || view.next == null) return;
    view.loadingMore = true;
    button.disabled = true;
    try {
      const found = await api.matches({ player: name, before: view.next, limit: PAGE });
      if (view.destroyed) return;
      const list = page.querySelector('.match-list');
      const more = document.createElement('template'); // parsed, then moved into the list
      setHTML(more, html`${found.matches.map((m) => matchItem(m, name))}`);
      list.append(more.content);
      view.next = found.next;
      button.hidden = view.next == null;
    } catch (err) {
      button.after(Object.assign(document.createElement('p'), { className: 'error', textContent: failure(err) }));
    } finally {
      view.loadingMore = false;
      button.disabled = false;
    }
  });

  const offReport = onClick(root, '[data-action="report"]', () => openReport({ username: name }));
  load();
  return { destroy() { view.destroyed = true; offReport(); } };
}

function profilePage(profile) {
  const me = account();
  const mine = me && me.username.toLowerCase() === profile.name.toLowerCase();
  const joined = profile.bot ? t('profile.botLead') : t('profile.joined', { when: dateText(profile.joined, false) });
  const recent = profile.recent || [];
  return html`
    <header class="profile-head">
      <h1 data-testid="profile-name">${profile.bot ? robotMark() : ''}${profile.name}</h1>
      <p class="muted">${joined}${mine ? html` · <a href="#/sessions">${t('menu.sessions')}</a>` : ''}
        ${me && !mine && !profile.bot ? html`<button type="button" class="tiny" data-action="report"
          data-testid="profile-report">${t('report.action')}</button>` : ''}</p>
      ${profile.reliability ? html`<p data-testid="profile-reliability">${t('profile.reliability', profile.reliability)}</p>` : ''}
    </header>
    <div class="profile-grid">
      <section class="panel">
        <h2>${t('profile.ratings')}</h2>
        ${ratingsList(profile.ratings || [])}
      </section>
      <section class="panel">
        <h2>${t('profile.games')}</h2>
        ${gamesTable(profile.games || [])}
        ${soloBests(profile.solo || [])}
        ${learned(profile.learned || [])}
      </section>
    </div>
    <section class="panel profile-matches">
      <h2>${t('profile.recent')}</h2>
      ${recent.length
        ? html`<ul class="match-list" data-testid="profile-matches">${recent.map((m) => matchItem(m, profile.name))}</ul>`
        : html`<p class="muted" data-testid="profile-matches-empty">${t('players.noMatches')}</p>`}
      ${recent.length >= PAGE ? html`<button type="button" data-action="more-matches" data-testid="more-matches">${t('profile.more')}</button>` : ''}
    </section>`;
}

function ratingsList(ratings) {
  if (!ratings.length) return html`<p class="muted" data-testid="no-ratings">${t('profile.noRatings')}</p>`;
  return html`<ul class="rating-list">${ratings.map((r) => html`
    <li class="rating-item" data-testid="rating-${r.game}-${r.group}">
      <div class="rating-what">
        <a href="${leaderboardHref(r.game, r.group)}"><strong>${gameTitle(r.game)}</strong></a>
        <span class="muted">${groupLabel(r.group)}</span>
      </div>
      <div class="rating-value">${ratingText(r)}</div>
      <div class="muted rating-games">${t('profile.gamesCount', { count: r.games })}
        · ${t('profile.winsCount', { count: r.wins })}</div>
      ${sparkline(r.history)}
    </li>`)}</ul>`;
}

function gamesTable(games) {
  if (!games.length) return html`<p class="muted" data-testid="no-games">${t('profile.noGames')}</p>`;
  return html`<table class="stats" data-testid="games-table">
    <thead><tr><th>${t('profile.game')}</th><th>${t('profile.played')}</th><th>${t('profile.won')}</th></tr></thead>
    <tbody>${games.map((g) => html`<tr data-testid="games-${g.game}">
      <td>${gameTitle(g.game)}</td><td data-testid="played">${g.played}</td><td data-testid="won">${g.won}</td></tr>`)}</tbody>
  </table>`;
}

function soloBests(solo) {
  if (!solo.length) return '';
  return html`<h3>${t('profile.solo')}</h3>
    <table class="stats" data-testid="solo-table">
      <thead><tr><th>${t('profile.game')}</th><th>${t('profile.best')}</th><th>${t('profile.rank')}</th></tr></thead>
      <tbody>${solo.map((s) => html`<tr data-testid="solo-${s.game}">
        <td>${gameTitle(s.game)}<br><span class="muted">${t('profile.soloPlayed', { count: s.played })}</span></td>
        <td data-testid="best">${s.best}</td>
        <td data-testid="solo-rank">${s.rank && has(`${s.game}.rank.${s.rank}`) ? t(`${s.game}.rank.${s.rank}`) : (s.rank || '—')}</td>
      </tr>`)}</tbody>
    </table>`;
}

/** The games whose tutorial the player finished (#/learn/<game>). */
function learned(games) {
  if (!games.length) return '';
  return html`<h3>${t('profile.learned')}</h3>
    <p data-testid="profile-learned">${games.map((g, i) => html`${i ? ', ' : ''}<a href="#/learn/${g}"
      data-testid="learned-${g}">${gameTitle(g)}</a>`)}</p>`;
}
