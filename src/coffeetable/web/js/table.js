// A table: its header (seats, who is connected, your seat or "watching"), the
// connection, and the game's own renderer (web/games/<name>/index.js) below.
//
// Your seat: the token this browser keeps for the table (js/session.js), or,
// when signed in without one, the account's seat (GET /api/me): the socket then
// goes without a token and the server seats us by the session cookie. Either
// way the seat of the state's view (`view.seat`) is what the server decided.

import { api } from './api.js';
import { TableConnection } from './connection.js';
import { banner, html, onClick, setHTML, toast } from './dom.js';
import { t, has } from './i18n.js';
import { loadRenderer } from './games.js';
import { botName } from './lobby.js';
import { forgetSeat, playerName, rememberSeat, seatAt } from './session.js';
import { account, accountSeat } from './account.js';
import { botProfile, playerLink } from './players.js';

/** Our seat at a table: {seat, token} from this browser, {seat, token: null} from the account, or null. */
function mySeat(tableId) {
  const held = seatAt(tableId);
  if (held && held.token) return held;
  const seat = accountSeat(tableId);
  return seat == null ? null : { seat, token: null };
}

export function mount(root, route) {
  const id = route.id;
  const view = {
    summary: null, renderer: null, game: null, connection: null,
    destroyed: false, status: 'connecting', seat: mySeat(id),
    clock: null, clockTimer: null,
  };
  setHTML(root, html`
    <section class="table-page" data-testid="table-page">
      <header class="table-head" data-testid="table-head"></header>
      <div class="game-root" data-testid="game-root"><p class="muted">${t('table.loading')}</p></div>
    </section>`);
  const head = root.querySelector('.table-head');
  const gameRoot = root.querySelector('.game-root');

  const ctx = {
    tableId: id,
    get seat() { return view.seat ? view.seat.seat : null; },
    names: () => seatNames(view.summary),
    send: (action) => (view.connection ? view.connection.send({ type: 'act', action }) : false),
  };

  async function fetchSummary() {
    try {
      setSummary(await api.table(id));
    } catch (err) {
      if (err.status === 404 && !view.destroyed) {
        setHTML(gameRoot, html`<p class="error" data-testid="table-missing">${t('table.notFound')}</p>`);
      } else if (!view.destroyed) {
        setHTML(gameRoot, html`<p class="error">${t('error.network', { reason: err.reason })}</p>`);
      }
    }
  }

  /** The table's summary (seats, status): fetched once, then pushed by the server. */
  function setSummary(summary) {
    if (view.destroyed) return;
    view.summary = summary;
    renderHead();
    if (view.game) view.game.seatsChanged();
  }

  /** The clock per seat ({left, running} from the server, counted down here). */
  function setClock(clock) {
    view.clock = clock ? { ...clock, at: performance.now() } : null;
    if (view.clock && view.clock.running != null && !view.clockTimer) {
      view.clockTimer = setInterval(renderClock, 250);
    } else if ((!view.clock || view.clock.running == null) && view.clockTimer) {
      clearInterval(view.clockTimer);
      view.clockTimer = null;
    }
    renderClock();
  }

  function renderClock() {
    const box = head.querySelector('.clocks');
    if (!box) return;
    const clock = view.clock;
    if (!clock || !Array.isArray(clock.left)) {
      box.replaceChildren();
      return;
    }
    const names = seatNames(view.summary);
    const gone = (performance.now() - clock.at) / 1000;
    setHTML(box, html`${clock.left.map((left, seat) => {
      const running = seat === clock.running;
      const secs = Math.max(0, running ? left - gone : left);
      const time = clockText(secs);
      return html`<li class="clock ${running ? 'running' : ''} ${secs < 30 ? 'low' : ''}" data-testid="clock-${seat}"
        data-seconds="${Math.ceil(secs)}" title="${t('table.clock', { name: names[seat] || '', time })}">${time}</li>`;
    })}`);
  }

  function renderHead() {
    const summary = view.summary || {};
    const gameName = summary.game || '';
    const title = has(`${gameName}.title`) ? t(`${gameName}.title`) : gameName;
    const me = ctx.seat;
    const seats = seatList(summary);
    const canTakeSeat = me == null && summary.status === 'open' && seats.some((s) => s.open);
    setHTML(head, html`
      <div class="table-title">
        <h1>${summary.name || title}</h1>
        <span class="muted">${title}</span>
        ${me == null ? html`<span class="badge watching" data-testid="spectator-badge">${t('table.spectating')}</span>` : ''}
        <span class="conn conn-${view.status}" data-testid="connection-status" data-status="${view.status}"
          title="${t(`table.conn.${view.status}`)}"></span>
      </div>
      <ul class="seat-list" data-testid="seat-list">${seats.map((s, i) => seatChip(s, i, me, summary.status))}</ul>
      <ul class="clocks" data-testid="clocks"></ul>
      <div class="table-actions">
        ${canTakeSeat ? html`<button type="button" class="primary" data-action="take-seat" data-testid="take-seat">${t('table.takeSeat')}</button>` : ''}
        <button type="button" data-action="copy-link" data-testid="copy-link">${t('table.copyLink')}</button>
      </div>`);
    renderClock();
  }

  function seatChip(seat, index, me, status) {
    const name = playerLink(seatLabel(seat, index), seatProfile(seat), Boolean(seat.bot));
    const away = !seat.bot && !seat.open && (seat.left || seat.connected === false);
    const replace = away && me != null && index !== me && status === 'running'
      ? html`<button type="button" class="tiny" data-action="bot-seat" data-seat="${index}" data-testid="replace-bot-${index}">${t('table.replaceBot')}</button>`
      : '';
    return html`<li class="seat-chip ${index === me ? 'me' : ''} ${away ? 'away' : ''}" data-testid="seat-${index}">
      ${name}${index === me ? html` <em>(${t('table.you')})</em>` : ''}${away ? html` <em>${t(seat.left ? 'table.left' : 'table.away')}</em>` : ''} ${replace}</li>`;
  }

  onClick(head, '[data-action="take-seat"]', async () => {
    try {
      const me = account();
      const joined = await api.join(id, (me && me.username) || playerName() || t('lobby.namePlaceholder'));
      rememberSeat(id, joined.seat, joined.token);
      restart();
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
    }
  });
  onClick(head, '[data-action="bot-seat"]', async (event, button) => {
    try {
      await api.botSeat(id, Number(button.dataset.seat), view.seat.token, 'medium');
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
    }
  });
  onClick(head, '[data-action="copy-link"]', async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      toast(t('table.linkCopied'));
    } catch {
      toast(location.href);
    }
  });

  function onMessage(msg) {
    if (msg.type === 'table') {
      setSummary(msg.table);
      if (!view.clock && msg.table && msg.table.clock) setClock(msg.table.clock);
    }
    if (msg.type === 'state') setClock(msg.clock || null);
    if (msg.type === 'event' && msg.event && msg.event.type === 'clock' && msg.event.expired) {
      toast(t('table.clockExpired', { n: msg.event.seat + 1 }), 'info', 6);
    }
    const given = msg.type === 'state' ? stateSeat(msg) : undefined;
    if (given != null && (!view.seat || view.seat.seat !== given)) {
      // The server seats us (by the session cookie when we came without a token).
      view.seat = { seat: given, token: view.seat ? view.seat.token : null };
      renderHead();
    }
    if (msg.type === 'state' && view.seat && given === null) {
      // Our seat was handed to a bot (or we left it elsewhere): from now on we watch.
      forgetSeat(id);
      view.seat = null;
      renderHead();
    }
    if (!view.game) return;
    if (msg.type === 'state') view.game.state(msg);
    else if (msg.type === 'event') view.game.event(msg.event || {});
    else if (msg.type === 'history' && typeof view.game.retell === 'function') view.game.retell(msg.events || []);
    else if (msg.type === 'rejected') view.game.rejected(msg);
    else if (msg.type === 'error') onError(msg.reason || '');
  }

  function onError(reason) {
    toast(t('error.server', { reason }), 'error');
    if (/token/i.test(reason) && view.seat && view.seat.token) {
      // Our seat is gone (a new server, or the seat was given away): watch instead.
      forgetSeat(id);
      restart();
    }
  }

  function onStatus(status, detail) {
    view.status = status;
    if (status === 'reconnecting') banner(t('table.reconnecting'), 'warn');
    else if (status === 'closed') banner(t('table.closed', { reason: detail || '' }), 'error');
    else banner('');
    const dot = head.querySelector('[data-testid="connection-status"]');
    if (dot) {
      dot.className = `conn conn-${status}`;
      dot.dataset.status = status;
    }
  }

  function connect() {
    view.seat = mySeat(id);
    view.connection = new TableConnection(id, view.seat && view.seat.token, { onMessage, onStatus });
    view.connection.open();
  }

  function stop() {
    if (view.connection) view.connection.close();
    view.connection = null;
    banner('');
  }

  function restart() {
    stop();
    if (view.game) view.game.destroy();
    view.game = null;
    start();
  }

  async function start() {
    await fetchSummary();
    if (view.destroyed || !view.summary) return;
    try {
      view.renderer = await loadRenderer(view.summary.game);
    } catch {
      setHTML(gameRoot, html`<p class="error">${t('table.noRenderer', { game: view.summary.game })}</p>`);
      return;
    }
    if (view.destroyed) return;
    gameRoot.replaceChildren();
    view.game = view.renderer.mount(gameRoot, ctx);
    connect();
  }

  start();
  return {
    get connection() { return view.connection; },
    relabel() {
      renderHead();
      if (view.game) view.game.relabel();
    },
    accountChanged() {
      // Signed in here meanwhile, with a seat at this table: take it.
      if (!view.destroyed && !view.seat && view.game && accountSeat(id) != null) restart();
    },
    destroy() {
      view.destroyed = true;
      clearInterval(view.clockTimer);
      stop();
      if (view.game) view.game.destroy();
    },
  };
}

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

function seatList(summary) {
  if (!summary || !Array.isArray(summary.seats)) return [];
  return summary.seats.map((s) => (s && typeof s === 'object' ? s : { name: s }));
}

function seatLabel(seat, index) {
  if (seat.bot) return t('table.botSeat', { n: index + 1, level: botName(seat.bot) });
  return seat.name || t('table.emptySeat', { n: index + 1 });
}

/** The seat a state message was sent to: its `seat`, else its view's; null: watching. */
function stateSeat(msg) {
  if ('seat' in msg) return msg.seat;
  return msg.view && 'seat' in msg.view ? msg.view.seat : undefined;
}

/** The profile a seat links to: a bot's level, or the account sitting there (its name is the username). */
function seatProfile(seat) {
  if (seat.bot) return botProfile(seat.bot);
  return seat.account && seat.name ? seat.name : null;
}

/** Display names per seat, for the game renderer. */
function seatNames(summary) {
  return seatList(summary).map(seatLabel);
}
