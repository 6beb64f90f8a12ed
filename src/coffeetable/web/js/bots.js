// #/bots: my bot accounts (programs that play at the tables as "me/name"), and
// their API keys: make one (shown once, here only), see them by prefix, revoke.
// Every name and label is free text from a person: built with html`` only.

import { api } from './api.js';
import { account, refresh } from './account.js';
import { attrs, html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { dateText, failure, robotMark } from './players.js';

export function mount(root) {
  let destroyed = false;
  /** The key just made, per bot: shown until the page is left. */
  const fresh = new Map();

  function frame(body) {
    setHTML(root, html`<section class="bots-page panel" data-testid="bots-page">
      <h1>${t('bots.title')}</h1>
      <p class="muted">${t('bots.lead')}</p>
      ${body}
    </section>`);
  }

  async function load() {
    const me = account();
    if (!me) {
      frame(html`<p data-testid="bots-signed-out">${t('bots.signInFirst')}
        <a href="#/signin">${t('menu.signIn')}</a></p>`);
      return;
    }
    let bots;
    try {
      bots = await api.myBots();
    } catch (err) {
      if (err.status === 401) {
        await refresh();
        if (!destroyed && account()) load();
        return;
      }
      if (!destroyed) frame(html`<p class="error">${failure(err)}</p>`);
      return;
    }
    const keys = await Promise.all(bots.map((bot) => api.botKeys(bot.short_name).catch(() => [])));
    if (destroyed) return;
    frame(html`
      <form class="new-bot" data-testid="new-bot-form">
        <label>${t('bots.name')} <span class="muted">${me.username}/</span>
          <input name="name" required maxlength="20" autocomplete="off" data-testid="new-bot-name"></label>
        <label>${t('bots.description')}
          <input name="description" maxlength="200" autocomplete="off" data-testid="new-bot-description"></label>
        <button type="submit" class="primary" data-testid="new-bot-submit">${t('bots.create')}</button>
      </form>
      ${bots.length
        ? html`<ul class="bot-list" data-testid="bot-list">${bots.map((bot, i) => botItem(bot, keys[i]))}</ul>`
        : html`<p class="muted" data-testid="bots-none">${t('bots.none')}</p>`}
      <p class="muted">${t('bots.howTo')}</p>`);
  }

  function botItem(bot, keys) {
    const made = fresh.get(bot.short_name);
    return html`<li class="bot-item" data-testid="bot-item" data-bot="${bot.name}">
      <h2>${robotMark()}<span data-testid="bot-name">${bot.name}</span></h2>
      ${bot.description ? html`<p>${bot.description}</p>` : ''}
      <p><label><input type="checkbox" data-action="invitable" data-bot="${bot.short_name}"
        data-testid="bot-invitable" ${attrs({ checked: bot.invitable_by === 'anyone' })}>
        ${t('bots.anyoneInvites')}</label></p>
      <p><label><input type="checkbox" data-action="league" data-bot="${bot.short_name}"
        data-testid="bot-league" ${attrs({ checked: bot.league })}>
        ${t('bots.inLeague')}</label></p>
      ${made ? html`<div class="new-key" role="status" data-testid="new-key-box">
          <p>${t('bots.keyOnce')}</p><code data-testid="new-key">${made}</code></div>` : ''}
      <div class="table-scroll"><table class="stats bot-keys" data-testid="bot-keys">
        <thead><tr><th>${t('bots.key')}</th><th>${t('bots.label')}</th><th>${t('bots.created')}</th>
          <th>${t('bots.lastUsed')}</th><th></th></tr></thead>
        <tbody>${keys.map((key) => keyRow(bot, key))}</tbody>
      </table></div>
      <p><button type="button" data-action="new-key" data-bot="${bot.short_name}"
        data-testid="new-key-button">${t('bots.newKey')}</button></p>
    </li>`;
  }

  function keyRow(bot, key) {
    const state = key.revoked != null
      ? html`<em data-testid="key-revoked">${t('bots.revoked')}</em>`
      : html`<button type="button" class="tiny" data-action="revoke" data-bot="${bot.short_name}"
          data-key="${key.id}" data-testid="revoke-key">${t('bots.revoke')}</button>`;
    return html`<tr data-testid="key-row" data-key="${key.id}">
      <td><code>${key.prefix}…</code></td><td>${key.label}</td><td>${dateText(key.created)}</td>
      <td>${key.last_used != null ? dateText(key.last_used) : t('bots.never')}</td><td>${state}</td></tr>`;
  }

  const onSubmit = async (event) => {
    if (!event.target.matches('.new-bot')) return;
    event.preventDefault();
    const form = event.target;
    const button = form.querySelector('button');
    button.disabled = true;
    try {
      await api.createBot(form.elements.namedItem('name').value, form.elements.namedItem('description').value);
      toast(t('bots.createdToast'));
      await load();
    } catch (err) {
      toast(failure(err), 'error');
      button.disabled = false;
    }
  };
  root.addEventListener('submit', onSubmit);

  const offNewKey = onClick(root, '[data-action="new-key"]', async (event, button) => {
    button.disabled = true;
    try {
      const made = await api.createBotKey(button.dataset.bot, '');
      fresh.clear(); // only the newest key is ever on the page
      fresh.set(button.dataset.bot, made.key);
    } catch (err) {
      toast(failure(err), 'error');
    }
    await load();
  });

  const offRevoke = onClick(root, '[data-action="revoke"]', async (event, button) => {
    button.disabled = true;
    try {
      await api.revokeBotKey(button.dataset.bot, button.dataset.key);
      toast(t('bots.revokedToast'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    await load();
  });

  const onChange = async (event) => {
    const box = event.target;
    const league = box.matches('[data-action="league"]');
    if (!league && !box.matches('[data-action="invitable"]')) return;
    box.disabled = true;
    try {
      if (league) await api.setBotLeague(box.dataset.bot, box.checked);
      else await api.setBotInvitable(box.dataset.bot, box.checked ? 'anyone' : 'owner');
      toast(t(league ? 'bots.leagueToast' : 'bots.invitableToast'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    await load();
  };
  root.addEventListener('change', onChange);

  load();
  return {
    destroy() {
      destroyed = true;
      fresh.clear();
      root.removeEventListener('submit', onSubmit);
      root.removeEventListener('change', onChange);
      offNewKey();
      offRevoke();
    },
    accountChanged() { fresh.clear(); load(); },
  };
}
