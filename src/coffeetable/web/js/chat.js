// The chat of one table, mounted by js/table.js below the board.
//
// Two channels come from the server: the players' and the spectators'. Every
// reader sees the players' channel; a seated player may hide the spectators'
// (remembered by this browser), and then the page tells the server so
// ({type: 'chat_mute'}), which stops sending that channel to this socket. Any name may be muted (remembered too): its
// lines are hidden. Quick phrases arrive as keys ("gg") and are worded in the
// reader's language (chat.phrase.gg). Every name and text goes through html``. A signed-in
// reader may report another's line to the moderators (js/report.js).

import { account } from './account.js';
import { html, onClick, setHTML } from './dom.js';
import { t } from './i18n.js';
import { openReport } from './report.js';
import { read, write } from './session.js';

export const PHRASES = ['hello', 'good_luck', 'gg', 'well_played', 'thanks', 'oops', 'one_moment'];
const MUTED_KEY = 'coffeetable.chat.muted';
const SPECTATORS_KEY = 'coffeetable.chat.showSpectators';
const MAX_LINES = 200;

/** The names this browser muted. */
export function mutedNames() {
  const list = read(MUTED_KEY, []);
  return new Set(Array.isArray(list) ? list.map(String) : []);
}

function setMuted(name, muted) {
  const names = mutedNames();
  if (muted) names.add(name);
  else names.delete(name);
  write(MUTED_KEY, [...names].slice(-200));
}

/**
 * Mount the chat in root. ctx: {seat() -> our seat or null, send(msg) -> bool, tableId}.
 * Returns {history(messages), message(m), error(reason), relabel(), connected(), destroy()}.
 */
export function mountChat(root, ctx) {
  let messages = [];
  let lastSent = 0;
  let problem = '';
  // Whether this socket was told to leave the spectators' channel out (a new socket: no).
  let toldMuted = false;
  setHTML(root, html`
    <section class="chat" data-testid="chat" aria-labelledby="chat-title">
      <header class="chat-head">
        <h2 id="chat-title" data-part="title"></h2>
        <label class="chat-toggle" data-part="spectators-toggle">
          <input type="checkbox" data-testid="chat-show-spectators">
          <span data-part="spectators-label"></span>
        </label>
      </header>
      <ol class="chat-lines" data-testid="chat-lines" aria-live="polite"></ol>
      <p class="chat-problem error" data-testid="chat-error" hidden></p>
      <div class="chat-phrases" data-testid="chat-phrases"></div>
      <form class="chat-form" data-testid="chat-form">
        <input type="text" maxlength="300" autocomplete="off" data-testid="chat-input">
        <button type="submit" data-testid="chat-send"></button>
      </form>
      <div class="chat-muted" data-testid="chat-muted"></div>
    </section>`);
  const lines = root.querySelector('.chat-lines');
  const toggle = root.querySelector('[data-testid="chat-show-spectators"]');
  const input = root.querySelector('[data-testid="chat-input"]');
  const form = root.querySelector('form');
  const problemBox = root.querySelector('.chat-problem');

  function showSpectators() {
    return ctx.seat() == null || read(SPECTATORS_KEY, true) !== false;
  }

  function lineMarkup(m) {
    const name = String(m.name || '');
    const said = m.phrase ? t(`chat.phrase.${m.phrase}`) : String(m.text || '');
    const mine = ctx.seat() != null && m.channel === 'players' && m.seat === ctx.seat();
    return html`<li class="chat-line ${m.channel === 'spectators' ? 'spectator' : ''} ${m.phrase ? 'phrase' : ''}"
        data-testid="chat-line" data-channel="${m.channel || ''}" data-name="${name}">
      <b class="chat-name">${name}</b>${m.channel === 'spectators' ? html` <em class="muted">(${t('chat.spectator')})</em>` : ''}
      <span class="chat-text" data-testid="chat-text">${said}</span>
      ${mine ? '' : html`<button type="button" class="tiny link" data-action="mute" data-name="${name}"
        data-testid="chat-mute" title="${t('chat.muteTitle', { name })}">${t('chat.mute')}</button>`}
      ${mine || !account() || !m.id ? '' : html`<button type="button" class="tiny link" data-action="report"
        data-name="${name}" data-chat-id="${m.id}" data-testid="chat-report">${t('report.action')}</button>`}
    </li>`;
  }

  /** Tell the server whether to send us the spectators' channel, when that changed. */
  function syncSpectators() {
    const muted = !showSpectators();
    if (muted === toldMuted) return;
    if (ctx.send({ type: 'chat_mute', channel: 'spectators', muted })) toldMuted = muted;
  }

  function render() {
    syncSpectators();
    const muted = mutedNames();
    const spectators = showSpectators();
    const shown = messages.filter((m) => !muted.has(String(m.name || '')) && (spectators || m.channel !== 'spectators'));
    setHTML(lines, html`${shown.map(lineMarkup)}`);
    lines.scrollTop = lines.scrollHeight;
    const present = [...muted].filter((name) => messages.some((m) => String(m.name || '') === name));
    setHTML(root.querySelector('.chat-muted'), present.length ? html`<span class="muted">${t('chat.mutedList')}</span>
      ${present.map((name) => html`<button type="button" class="tiny" data-action="unmute" data-name="${name}"
        data-testid="chat-unmute">${t('chat.unmute', { name })}</button>`)}` : html``);
    root.querySelector('[data-part="spectators-toggle"]').hidden = ctx.seat() == null;
    problemBox.hidden = !problem;
    problemBox.textContent = problem;
  }

  function relabel() {
    root.querySelector('[data-part="title"]').textContent = t('chat.title');
    root.querySelector('[data-part="spectators-label"]').textContent = t('chat.showSpectators');
    toggle.checked = read(SPECTATORS_KEY, true) !== false;
    input.placeholder = t('chat.placeholder');
    input.setAttribute('aria-label', t('chat.placeholder'));
    root.querySelector('[data-testid="chat-send"]').textContent = t('chat.send');
    setHTML(root.querySelector('.chat-phrases'), html`${PHRASES.map((key) => html`<button type="button" class="tiny"
      data-action="phrase" data-phrase="${key}" data-testid="chat-phrase-${key}">${t(`chat.phrase.${key}`)}</button>`)}`);
    render();
  }

  function send(msg) {
    problem = '';
    if (!ctx.send({ type: 'chat', ...msg })) problem = t('chat.offline');
    else lastSent = Date.now();
    render();
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ text });
    input.value = '';
  });
  toggle.addEventListener('change', () => {
    write(SPECTATORS_KEY, toggle.checked);
    render();
  });
  const offs = [
    onClick(root, '[data-action="phrase"]', (event, button) => send({ phrase: button.dataset.phrase })),
    onClick(root, '[data-action="mute"]', (event, button) => {
      setMuted(button.dataset.name, true);
      render();
    }),
    onClick(root, '[data-action="report"]', (event, button) => openReport({
      username: button.dataset.name, tableId: ctx.tableId, chatId: Number(button.dataset.chatId),
    }, 'chat')),
    onClick(root, '[data-action="unmute"]', (event, button) => {
      setMuted(button.dataset.name, false);
      render();
    }),
  ];

  relabel();
  return {
    history(list) {
      messages = Array.isArray(list) ? list.slice(-MAX_LINES) : [];
      render();
    },
    message(m) {
      if (!m) return;
      messages.push(m);
      if (messages.length > MAX_LINES) messages = messages.slice(-MAX_LINES);
      render();
    },
    /** A server error: shown here when it answers a message we just sent. */
    error(reason) {
      if (Date.now() - lastSent > 5000) return false;
      problem = t('chat.refused', { reason });
      render();
      return true;
    },
    relabel,
    refresh: render,
    /** A new socket is open: it sends both channels until told otherwise. */
    connected() {
      toldMuted = false;
      render();
    },
    destroy() { offs.forEach((off) => off()); },
  };
}
