// #/friends: my friends (who is online), requests in (accept) and out, asking someone by
// name, ending a friendship; and the players I blocked (block by name, unblock).

import { api } from './api.js';
import { account } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { failure, profileHref } from './players.js';

function person(entry, actions) {
  return html`<li class="friend" data-testid="friend" data-name="${entry.username}">
    <a href="${profileHref(entry.username)}">${entry.username}</a>
    ${entry.online === undefined ? '' : html`<span class="tag ${entry.online ? 'ok' : ''}"
      data-testid="friend-online">${t(entry.online ? 'friends.online' : 'friends.offline')}</span>`}
    ${actions.map(([action, label]) => html`<button type="button" class="tiny" data-action="${action}"
      data-name="${entry.username}" data-testid="friend-${action}">${t(label)}</button>`)}</li>`;
}

function list(entries, actions, empty) {
  return entries.length ? html`<ul class="friend-list">${entries.map((e) => person(e, actions))}</ul>`
    : html`<p class="muted">${t(empty)}</p>`;
}

function form(action, label) {
  return html`<form class="inline-form" data-form="${action}">
    <input name="name" maxlength="40" required aria-label="${t('friends.name')}"
      placeholder="${t('friends.name')}" data-testid="${action}-name">
    <button type="submit" data-testid="${action}-submit">${t(label)}</button></form>`;
}

export function mount(root) {
  let destroyed = false;

  async function load() {
    if (!account()) {
      setHTML(root, html`<section class="panel" data-testid="friends-page"><h1>${t('friends.title')}</h1>
        <p><a href="#/signin">${t('menu.signIn')}</a></p></section>`);
      return;
    }
    let friends;
    let blocks;
    try {
      [friends, blocks] = await Promise.all([api.friends(), api.blocks()]);
    } catch (err) {
      if (!destroyed) toast(failure(err), 'error');
      return;
    }
    if (destroyed) return;
    setHTML(root, html`<section class="panel friends-page" data-testid="friends-page">
      <h1>${t('friends.title')}</h1>
      ${form('ask', 'friends.ask')}
      <h2>${t('friends.friends')}</h2>
      ${list(friends.friends, [['remove', 'friends.remove']], 'friends.none')}
      <h2>${t('friends.incoming')}</h2>
      ${list(friends.incoming, [['accept', 'friends.accept'], ['remove', 'friends.decline']], 'friends.noneIn')}
      <h2>${t('friends.outgoing')}</h2>
      ${list(friends.outgoing, [['remove', 'friends.cancel']], 'friends.noneOut')}
      <h2>${t('friends.blocked')}</h2>
      ${form('block', 'friends.block')}
      ${list(blocks, [['unblock', 'friends.unblock']], 'friends.noneBlocked')}
    </section>`);
  }

  async function act(call, name) {
    try {
      await call(name);
    } catch (err) {
      toast(failure(err), 'error');
    }
    load();
  }

  onClick(root, '[data-action="accept"]', (event, button) => act(api.addFriend, button.dataset.name));
  onClick(root, '[data-action="remove"]', (event, button) => act(api.removeFriend, button.dataset.name));
  onClick(root, '[data-action="unblock"]', (event, button) => act(api.unblock, button.dataset.name));
  root.addEventListener('submit', (event) => {
    const target = event.target.closest('form[data-form]');
    if (!target) return;
    event.preventDefault();
    const name = target.elements.name.value.trim();
    if (name) act(target.dataset.form === 'ask' ? api.addFriend : api.block, name);
  });
  load();
  return { destroy() { destroyed = true; } };
}
