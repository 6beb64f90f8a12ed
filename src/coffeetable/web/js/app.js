// Boot: who is signed in, the language switch, the top navigation and the hash router.

import { attrs, html, setHTML } from './dom.js';
import { start } from './router.js';
import { LANGUAGES, lang, setLang, onLangChange, t } from './i18n.js';
import { account, onAccountChange, setReturnTo, whoami } from './account.js';
import { renderUserMenu, startUserMenu } from './usermenu.js';
import { counts as soundCounts, muted as soundMuted, onMuteChange, setMuted as setSoundMuted } from './sound.js';
import { notifying, renderNotifySwitch, setNotifying } from './turnsignal.js';
import * as lobby from './lobby.js';
import * as table from './table.js';
import * as replay from './replay.js';
import * as rules from './rules.js';
import * as learn from './learn.js';
import * as signin from './signin.js';
import * as sessions from './sessions.js';
import * as profile from './profile.js';
import * as leaderboard from './leaderboard.js';
import * as bots from './bots.js';
import * as tournaments from './tournaments.js';
import * as league from './league.js';
import * as notices from './notices.js';
import * as friends from './friends.js';
import * as games from './mygames.js';
import * as moderation from './moderation.js';

const VIEWS = {
  lobby, table, replay, rules, learn, signin, signup: signin, sessions, profile, leaderboard, bots, tournaments,
  notices, friends, games, moderation, league,
};
const AUTH_VIEWS = new Set(['signin', 'signup']);
const app = document.getElementById('app');
let route = null;
let active = null;

function mount(next) {
  if (active && active.destroy) active.destroy();
  route = next;
  if (!AUTH_VIEWS.has(next.view)) setReturnTo(location.hash || '#/');
  app.replaceChildren();
  app.dataset.view = next.view;
  active = VIEWS[next.view].mount(app, next, renderGamesLink) || {};
  window.coffeetable.view = active;
  renderChrome();
  games.refreshCounts(renderGamesLink);
}

/** The header's "My games" link, with how many tables wait for me and in all. */
function renderGamesLink() {
  const link = document.querySelector('[data-testid="nav-games"]');
  if (!link) return;
  link.hidden = !account();
  link.querySelector('.nav-count').textContent = games.countsText();
}

function renderChrome() {
  const nav = document.getElementById('topnav');
  const here = route ? route.view : 'lobby';
  setHTML(nav, html`
    <a href="#/" class="${here === 'lobby' ? 'active' : ''}" data-testid="nav-lobby">${t('nav.lobby')}</a>
    <a href="#/rules" class="${here === 'rules' ? 'active' : ''}" data-testid="nav-rules">${t('nav.rules')}</a>
    <a href="#/leaderboards" class="${here === 'leaderboard' ? 'active' : ''}" data-testid="nav-leaderboards">${t('nav.leaderboards')}</a>
    <a href="#/tournaments" class="${['tournaments', 'league'].includes(here) ? 'active' : ''}" data-testid="nav-tournaments">${t('nav.tournaments')}</a>
    <a href="#/games" class="${here === 'games' ? 'active' : ''}" data-testid="nav-games">${t('nav.games')} <span class="nav-count" data-testid="games-count"></span></a>`);
  renderGamesLink();
  renderUserMenu(true);
  document.getElementById('lang-label').textContent = t('lang.label');
  const select = document.getElementById('lang-select');
  setHTML(select, html`${Object.entries(LANGUAGES)
    .map(([code, name]) => html`<option value="${code}" ${attrs({ selected: code === lang() })}>${name}</option>`)}`);
  document.title = t('app.title');
  notices.renderBadge();
  renderSoundSwitch();
  renderNotifySwitch(notifyButton);
}

function renderSoundSwitch() {
  const button = document.getElementById('sound-toggle');
  const off = soundMuted();
  button.setAttribute('aria-pressed', String(off));
  button.dataset.muted = String(off);
  button.textContent = off ? '🔇' : '🔊';
  button.title = t(off ? 'sound.unmute' : 'sound.mute');
  button.setAttribute('aria-label', button.title);
}

document.getElementById('sound-toggle').addEventListener('click', () => setSoundMuted(!soundMuted()));
const notifyButton = document.getElementById('notify-toggle');
notifyButton.addEventListener('click', async () => {
  await setNotifying(!notifying());
  renderNotifySwitch(notifyButton);
});
onMuteChange(renderSoundSwitch);

document.getElementById('lang-select').addEventListener('change', (event) => setLang(event.target.value));

onLangChange(() => {
  // A live table keeps its connection and only redraws its words.
  if (active && active.relabel) {
    active.relabel();
    renderChrome();
  } else if (route) {
    mount(route);
  }
});

onAccountChange((me) => {
  renderUserMenu();
  notices.poll();
  games.refreshCounts(renderGamesLink);
  if (active && active.accountChanged) active.accountChanged(me);
});

// sounds: how many of each sound were asked for and played (tests read it; js/sound.js)
window.coffeetable = { view: null, get route() { return route; }, sounds: soundCounts };
startUserMenu(document.getElementById('account'));
notices.startBadge(document.getElementById('notices'));
// The first view knows who is signed in (the lobby's tables, a table's seat).
whoami().finally(() => start(mount));
setInterval(() => games.refreshCounts(renderGamesLink), 60_000); // my turn came meanwhile
