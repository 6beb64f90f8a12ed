// Play now (the lobby): pick a game, how many players, rated (signed in) and the
// bot level that fills the empty seats after the wait; then wait with others
// (who waits, the seconds left) until the server seats us, or cancel.
// POST /api/play-now -> a ticket; POST /api/play-now/status about once a second.

import { api } from './api.js';
import { attrs, html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';
import { playerName, rememberSeat, setPlayerName } from './session.js';
import { account } from './account.js';
import { gameTitle } from './players.js';
import { botName, offeredLevels, usualLevel } from './names.js';

const POLL_MS = 1000;

/** The play-now panel in root; games(): the lobby's games. Returns {open(game), relabel(), destroy()}. */
export function mountPlayNow(root, games) {
  const view = { game: null, ticket: null, status: null, timer: null, destroyed: false, choice: {} };
  root.hidden = true;

  function defaultLevel(game) {
    return usualLevel(offeredLevels(game));
  }

  function open(game) {
    if (view.ticket) return; // one wait at a time
    view.game = game;
    view.choice = {
      players: Math.min(Math.max(game.min_players, 2), game.max_players),
      rated: false,
      meetBots: true, // may programs (bot accounts) sit with us?
      level: defaultLevel(game),
    };
    render();
    root.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  function render() {
    const game = view.game;
    root.hidden = !game;
    if (!game) return;
    if (view.ticket) {
      const status = view.status || {};
      const waiting = status.waiting || [];
      const left = Math.max(0, Math.ceil(status.seconds_left || 0));
      setHTML(root, html`
        <h2>${t('playNow.waitingTitle', { game: gameTitle(game.name) })}</h2>
        <p data-testid="play-now-waiting">${t('playNow.waitingFor', { count: waiting.length, names: waiting.join(', ') })}</p>
        <p class="muted" data-testid="play-now-seconds" data-seconds="${left}">${t('playNow.secondsLeft', { count: left })}</p>
        <button type="button" data-action="play-now-cancel" data-testid="play-now-cancel">${t('playNow.cancel')}</button>`);
      return;
    }
    const counts = [];
    for (let n = game.min_players; n <= game.max_players; n += 1) counts.push(n);
    const me = account();
    setHTML(root, html`
      <h2>${t('playNow.title', { game: gameTitle(game.name) })}</h2>
      <p class="muted">${t('playNow.explain')}</p>
      <div class="play-now-fields">
        ${me ? '' : html`<label>${t('lobby.yourName')} <input name="name" maxlength="40" data-testid="play-now-name"
          value="${view.choice.name ?? playerName()}" placeholder="${t('lobby.namePlaceholder')}"></label>`}
        ${counts.length > 1 ? html`<label>${t('playNow.players')} <select name="players" data-testid="play-now-players">
          ${counts.map((n) => html`<option value="${n}" ${attrs({ selected: n === view.choice.players })}>${t('playNow.playerCount', { count: n })}</option>`)}
        </select></label>` : ''}
        <label>${t('playNow.botLevel')} <select name="level" data-testid="play-now-level">
          ${offeredLevels(game).map((level) => html`<option value="${level}" ${attrs({ selected: level === view.choice.level })}>${botName(level)}</option>`)}
        </select></label>
        ${me && view.choice.players > 1 ? html`<label class="check"><input type="checkbox" name="rated" data-testid="play-now-rated"
          ${attrs({ checked: view.choice.rated })}> ${t('playNow.rated')}</label>` : ''}
        <label class="check"><input type="checkbox" name="meet-bots" data-testid="play-now-meet-bots"
          ${attrs({ checked: view.choice.meetBots })}> ${t('playNow.meetBots')}</label>
      </div>
      <div class="actions">
        <button type="button" class="primary" data-action="play-now-go" data-testid="play-now-go">${t('playNow.go')}</button>
        <button type="button" data-action="play-now-close" data-testid="play-now-close">${t('playNow.close')}</button>
      </div>`);
  }

  function readChoice() {
    const field = (name) => root.querySelector(`[name="${name}"]`);
    if (field('players')) view.choice.players = Number(field('players').value);
    if (field('level')) view.choice.level = field('level').value;
    view.choice.rated = Boolean(field('rated') && field('rated').checked);
    if (field('meet-bots')) view.choice.meetBots = field('meet-bots').checked;
    if (field('name')) view.choice.name = field('name').value.trim();
  }

  root.addEventListener('change', (event) => {
    if (view.ticket) return;
    readChoice();
    if (event.target.name === 'players') render();
  });

  async function start() {
    readChoice();
    const game = view.game;
    const me = account();
    const name = me ? me.username : (view.choice.name || playerName() || t('lobby.namePlaceholder'));
    if (!me) setPlayerName(name);
    const players = game.min_players === game.max_players ? game.min_players : view.choice.players;
    try {
      const answer = await api.playNow({
        game: game.name, players, rated: view.choice.rated && players > 1, bot_level: view.choice.level || null, name,
        meet_bots: view.choice.meetBots,
      });
      if (view.destroyed) {
        api.playNowCancel(answer.ticket).catch(() => {});
        return;
      }
      view.ticket = answer.ticket;
      arrived(answer);
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
    }
  }

  function arrived(status) {
    view.status = status;
    if (status.status === 'seated') {
      const id = status.table_id;
      view.ticket = null;
      clearTimeout(view.timer);
      rememberSeat(id, status.seat, status.token);
      go(`#/table/${encodeURIComponent(id)}`);
      return;
    }
    render();
    clearTimeout(view.timer);
    view.timer = setTimeout(poll, POLL_MS);
  }

  async function poll() {
    if (!view.ticket || view.destroyed) return;
    try {
      arrived(await api.playNowStatus(view.ticket));
    } catch (err) {
      if (view.destroyed) return;
      view.ticket = null;
      toast(t('error.server', { reason: err.reason }), 'error');
      render();
    }
  }

  function cancel() {
    clearTimeout(view.timer);
    const ticket = view.ticket;
    view.ticket = null;
    view.status = null;
    if (ticket) api.playNowCancel(ticket).catch(() => {});
  }

  const offs = [
    onClick(root, '[data-action="play-now-go"]', () => start()),
    onClick(root, '[data-action="play-now-cancel"]', () => {
      cancel();
      render();
    }),
    onClick(root, '[data-action="play-now-close"]', () => {
      view.game = null;
      render();
    }),
  ];

  return {
    open,
    relabel: render,
    destroy() {
      view.destroyed = true;
      cancel(); // leaving the lobby gives up the wait
      offs.forEach((off) => off());
    },
    games,
  };
}
