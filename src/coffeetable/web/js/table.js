// A table: its header (seats, who is connected, your seat or "watching"), the
// connection, and the game's own renderer (games/<name>/web/index.js, or the generic board) below.
//
// Your seat: the token this browser keeps (js/session.js), or, signed in without one, the
// account's seat (GET /api/me; the server seats us by the session cookie). Either way the
// seat of the state's view (`view.seat`) is what the server decided.

import { api } from './api.js';
import { TableConnection } from './connection.js';
import { attrs, banner, html, onClick, setHTML, toast } from './dom.js';
import { t, has } from './i18n.js';
import { facts, loadRenderer } from './games.js';
import { seatLabel, seatList, seatNames, tableName } from './names.js';
import { forgetSeat, playerName, rememberSeat, setPlayerName } from './session.js';
import { account, accountSeat, mySeat } from './account.js';
import { botProfile, playerLink } from './players.js';
import { mountChat } from './chat.js';
import { play as playSound } from './sound.js';
import { ratingChanges, ratingMarkup } from './endrating.js';
import { turnSignal } from './turnsignal.js';
import { go } from './router.js';
import { daysBar, watchExpel } from './tabledays.js';
import { anyonesSeat, inviteBar, watchInvite } from './invitebar.js';

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
      <div class="table-end" data-testid="table-end" hidden></div>
      <div class="chat-root"></div>
    </section>`);
  const head = root.querySelector('.table-head');
  const gameRoot = root.querySelector('.game-root');
  const endBox = root.querySelector('.table-end');
  watchExpel(head, id); // days per move: expel a player out of time
  watchInvite(head, id, () => restart()); // a seat held for me: join or decline

  const ctx = {
    tableId: id,
    get seat() { return view.seat ? view.seat.seat : null; },
    names: () => seatNames(view.summary),
    // a seat no one holds yet (an invited friend not come): boards say "waiting for", not "is playing"
    free: (seat) => Boolean(seatList(view.summary)[seat] && seatList(view.summary)[seat].open),
    send: (action) => (view.connection ? view.connection.send({ type: 'act', action }) : false),
  };
  const signal = turnSignal(() => (has(`${view.summary?.game}.title`) ? t(`${view.summary.game}.title`) : ''));
  const chat = mountChat(root.querySelector('.chat-root'), {
    seat: () => ctx.seat,
    send: (msg) => (view.connection ? view.connection.send(msg) : false),
    tableId: id,
  });
  // The rematch as the server tells it: {accepted, waiting, table_id}; asked: we said yes.
  view.rematch = null;
  view.asked = false;

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
    if (view.summary && view.summary.status === 'running' && summary && summary.status === 'over') playSound('end');
    view.summary = summary;
    if (summary && summary.status === 'over' && summary.rated && !view.ratings) { // once: the end screen's rating change
      view.ratings = ratingChanges(id).then((changes) => { view.ratingLine = changes; renderEnd(); });
    }
    renderHead();
    renderEnd();
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
    const canTakeSeat = me == null && summary.status === 'open' && anyonesSeat(summary, me);
    const typed = head.querySelector('[data-testid="seat-name"]');
    const typedName = typed ? typed.value : '';
    setHTML(head, html`
      <div class="table-title">
        <h1>${tableName(summary) || title}</h1>
        <span class="muted">${title}</span>
        ${me == null ? html`<span class="badge watching" data-testid="spectator-badge">${t('table.spectating')}</span>` : ''}
        <span class="conn conn-${view.status}" data-testid="connection-status" data-status="${view.status}"
          title="${t(`table.conn.${view.status}`)}"></span>
      </div>
      <ul class="seat-list" data-testid="seat-list">${seats.map((s, i) => seatChip(s, i, me, summary.status))}</ul>
      <ul class="clocks" data-testid="clocks"></ul>${daysBar(summary, me)}${inviteBar(summary, me)}
      <div class="table-actions">
        ${canTakeSeat ? html`<button type="button" class="primary" data-action="take-seat" data-testid="take-seat">${t('table.takeSeat')}</button>` : ''}
        <button type="button" data-action="copy-link" data-testid="copy-link">${t('table.copyLink')}</button>
      </div>`);
    renderClock();
    chat.refresh();
    if (view.askingName && canTakeSeat) askName(typedName); // a redraw keeps the name being typed
  }

  function seatChip(seat, index, me, status) {
    const name = playerLink(seatLabel(seat, index), seatProfile(seat), Boolean(seat.bot || seat.program));
    const away = !seat.bot && !seat.open && (seat.left || seat.connected === false);
    const replace = away && me != null && index !== me && status === 'running' && !view.summary.days
      ? html`<button type="button" class="tiny" data-action="bot-seat" data-seat="${index}" data-testid="replace-bot-${index}">${t('table.replaceBot')}</button>`
      : '';
    return html`<li class="seat-chip ${index === me ? 'me' : ''} ${away ? 'away' : ''}" data-testid="seat-${index}"
      data-program="${seat.program ? 'true' : 'false'}" ${attrs({ title: seat.program ? t('table.programOf', { owner: seat.owner }) : seatLabel(seat, index) })}>
      ${name}${index === me ? html` <em>(${t('table.you')})</em>` : ''}${away ? html` <em>${t(seat.left ? 'table.left' : 'table.away')}</em>` : ''} ${replace}</li>`;
  }

  /** Under the board once the match is over: play again, the replay, the lobby. */
  function renderEnd() {
    const summary = view.summary || {};
    const over = summary.status === 'over';
    const slots = [...gameRoot.querySelectorAll('[data-testid="end-actions"]')];
    // The board's end screen has a slot for these buttons: there, else under the board.
    endBox.hidden = !over || slots.length > 0;
    if (!over) return;
    const markup = endMarkup(summary);
    if (slots.length) {
      endBox.replaceChildren();
      slots.forEach((slot) => {
        let box = slot.querySelector(':scope > .ct-end');
        if (!box) {
          box = document.createElement('div');
          box.className = 'ct-end';
          slot.append(box);
        }
        setHTML(box, markup);
      });
    } else {
      setHTML(endBox, markup);
    }
  }

  // A board redraws its end screen at will: fill each new, empty slot again.
  const slotWatch = new MutationObserver(() => {
    if (!view.summary || view.summary.status !== 'over') return;
    const empty = [...gameRoot.querySelectorAll('[data-testid="end-actions"]')].some((slot) => !slot.querySelector(':scope > .ct-end'));
    if (empty || (!endBox.hidden && gameRoot.querySelector('[data-testid="end-actions"]'))) renderEnd();
  });
  slotWatch.observe(gameRoot, { childList: true, subtree: true });

  function endMarkup(summary) {
    const names = seatNames(summary);
    const rematch = view.rematch;
    const who = (seats) => (seats || []).map((s) => names[s] || t('table.emptySeat', { n: s + 1 })).join(', ');
    const seated = ctx.seat != null;
    return html`
      <div class="end-actions-bar" data-testid="end-actions-bar">
        ${seated ? html`<button type="button" class="primary" data-action="rematch" data-testid="play-again"
          ${attrs({ disabled: view.asked })}>${t('end.playAgain')}</button>` : ''}
        <a class="button" href="#/replay/${encodeURIComponent(id)}" data-testid="view-replay">${t('end.viewReplay')}</a>
        <a class="button" href="#/" data-testid="back-to-lobby">${t('end.backToLobby')}</a>
      </div>${ratingMarkup(view.ratingLine, ctx.seat)}
      ${rematch && (rematch.accepted || []).length ? html`<p class="muted" data-testid="rematch-status">
        ${t('end.accepted', { names: who(rematch.accepted) })}
        ${(rematch.waiting || []).length ? t('end.waitingFor', { names: who(rematch.waiting) }) : ''}</p>` : ''}`;
  }

  async function askRematch() {
    if (view.asking) return; // one request at a time: the new token is handed out once
    view.asking = true;
    const token = view.seat && view.seat.token;
    try {
      const answer = await api.rematch(id, token);
      view.asked = true;
      if (answer.status === 'dealt' && answer.table_id) {
        view.dealt = true;
        if (answer.token) rememberSeat(answer.table_id, answer.seat, answer.token);
        go(`#/table/${encodeURIComponent(answer.table_id)}`);
        return;
      }
      view.rematch = { accepted: answer.accepted, waiting: answer.waiting, table_id: answer.table_id };
      renderEnd();
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
    } finally {
      view.asking = false;
    }
  }
  onClick(endBox, '[data-action="rematch"]', () => askRematch());
  onClick(gameRoot, '[data-action="rematch"]', () => askRematch());

  function onRematch(msg) {
    view.rematch = msg;
    renderEnd();
    if (msg.table_id && view.asked && !view.dealt && ctx.seat != null && !view.destroyed) askRematch();
  }

  /** A friend from an invite link, neither signed in nor named yet: ask for a name first. */
  function askName(kept = '') {
    const box = head.querySelector('.table-actions');
    view.askingName = true;
    setHTML(box, html`<form class="seat-name" data-testid="seat-name-form">
        <label>${t('table.yourNameToSit')} <input name="name" maxlength="24" required data-testid="seat-name"
          placeholder="${t('lobby.namePlaceholder')}"></label>
        <button type="submit" class="primary" data-testid="seat-name-go">${t('table.takeSeat')}</button>
        <a href="#/signin" data-testid="seat-sign-in">${t('table.orSignIn')}</a>
      </form>`);
    const form = box.querySelector('form');
    form.querySelector('input').value = kept;
    form.querySelector('input').focus();
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const name = form.elements.namedItem('name').value.trim();
      if (!name) return;
      setPlayerName(name);
      view.askingName = false;
      takeSeat(name);
    });
  }

  onClick(head, '[data-action="take-seat"]', () => {
    const me = account();
    if (!me && !playerName()) askName();
    else takeSeat((me && me.username) || playerName());
  });

  async function takeSeat(name) {
    try {
      const joined = await api.join(id, name);
      rememberSeat(id, joined.seat, joined.token);
      restart();
    } catch (err) {
      toast(t('error.server', { reason: err.reason }), 'error');
    }
  }
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
    if (msg.type === 'state' && msg.days && view.summary) setSummary({ ...view.summary, days: msg.days });
    sounds(msg);
    if (msg.type === 'chat_history') chat.history(msg.messages);
    else if (msg.type === 'chat') chat.message(msg.message);
    else if (msg.type === 'rematch') onRematch(msg);
    if (msg.type === 'error' && chat.error(msg.reason || '')) return;
    // An action's public events ride in the state that follows it (one frame per action).
    const events = msg.type === 'state' && Array.isArray(msg.events) ? msg.events : [];
    for (const ev of events) {
      if (ev && ev.type === 'clock' && ev.expired) {
        toast(t('table.clockExpired', { n: ev.seat + 1 }), 'info', 6);
      }
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
    if (msg.type === 'state') {
      for (const ev of events) view.game.event(ev || {}); // as before: events, then the state
      view.game.state(msg);
    } else if (msg.type === 'history' && typeof view.game.retell === 'function') view.game.retell(msg.events || []);
    else if (msg.type === 'rejected') view.game.rejected(msg);
    else if (msg.type === 'error') onError(msg.reason || '');
  }

  /** The page's own sounds (js/sound.js), from the messages the board gets. */
  function sounds(msg) {
    if (msg.type !== 'state') return;
    // One sound for an action's events (the state carries them all): FINITO, else a card.
    const types = (Array.isArray(msg.events) ? msg.events : []).map((ev) => (ev && ev.type) || '');
    // A real-time game's round ends with a call (FINITO); turn-based games have turns.
    const realtime = view.realtime;
    if (realtime && types.includes('round_over')) playSound('finito');
    else if (types.some((type) => !QUIET_EVENTS.has(type))) playSound('card');
    const mine = ctx.seat != null && Array.isArray(msg.actors) && msg.actors.includes(ctx.seat);
    if (mine && !view.myTurn && view.heardState && !realtime) playSound('turn');
    signal.state(mine && !realtime && msg.view && msg.view.phase !== 'over');
    view.myTurn = mine;
    view.heardState = true;
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
    if (status === 'open') chat.connected();
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
      view.realtime = Boolean((await facts(view.summary.game)).realtime);
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
      renderEnd();
      chat.relabel();
      if (view.game) view.game.relabel();
    },
    accountChanged() {
      // Signed in here meanwhile, with a seat at this table: take it.
      if (!view.destroyed && !view.seat && view.game && accountSeat(id) != null) restart();
    },
    destroy() {
      view.destroyed = true;
      clearInterval(view.clockTimer);
      slotWatch.disconnect();
      stop();
      chat.destroy();
      signal.destroy();
      if (view.game) view.game.destroy();
    },
  };
}

/** Events that make no card sound (the end sounds come from the table's status). */
const QUIET_EVENTS = new Set(['round_over', 'match_over', 'game_over', 'clock', 'idle', 'ready', 'round_started']);

function clockText(seconds) {
  const whole = Math.ceil(seconds);
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
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
