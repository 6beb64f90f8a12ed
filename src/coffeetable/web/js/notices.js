// Notifications: the header's badge (how many are unread, also in the page's title),
// polled while signed in, and #/notifications, the list (newest first) to read them.

import { api } from './api.js';
import { account } from './account.js';
import { attrs, html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { dateText, failure } from './players.js';

/** Seconds between two looks at the unread count (a your-turn may come from any table). */
const POLL_SECONDS = 30;
let badge = null;
let unread = 0;
let timer = null;

/** Set up the badge once (app.js). */
export function startBadge(element) {
  badge = element;
  poll();
}

/** Look at the unread count now (and again every POLL_SECONDS while signed in). */
export async function poll() {
  clearTimeout(timer);
  if (!account()) {
    unread = 0;
    renderBadge();
    return;
  }
  try {
    unread = (await api.notifications({ limit: 1 })).unread;
  } catch {
    // A failed look keeps the last count; the next one tries again.
  }
  renderBadge();
  timer = setTimeout(poll, POLL_SECONDS * 1000);
}

/** Draw the badge and the title's count ("(2) Coffee Table"). */
export function renderBadge() {
  const title = document.title.replace(/^\(\d+\) /, '');
  document.title = unread > 0 ? `(${unread}) ${title}` : title;
  if (!badge) return;
  badge.hidden = !account();
  badge.dataset.unread = String(unread);
  badge.title = t('notices.unread', { count: unread });
  badge.setAttribute('aria-label', badge.title);
  setHTML(badge, html`<span aria-hidden="true">🔔</span>${unread > 0
    ? html`<span class="count" data-testid="notices-count">${unread}</span>` : ''}`);
}

/** A notification in words, in the page's language. */
export function noticeText(notice) {
  const data = notice.data || {};
  const game = data.title || '';
  if (notice.kind === 'match_over') {
    return t(`notices.over.${['won', 'lost', 'shared', 'solo'].includes(data.result) ? data.result : 'other'}`, { game });
  }
  if (notice.kind === 'invited') return t('notices.invited', { name: data.by || '', game });
  if (notice.kind === 'friend_request') {
    return t(data.accepted ? 'notices.friendAccepted' : 'notices.friendRequest', { name: data.from || '' });
  }
  if (notice.kind === 'table_full') return t('notices.full', { game });
  if (notice.kind === 'warning') return t('notices.warning');
  if (notice.kind === 'table_ready') return t('notices.ready', { game, name: data.tournament || '' });
  return t('notices.yourTurn', { game });
}

function noticeItem(notice) {
  const link = notice.kind === 'friend_request' ? '#/friends'
    : notice.table_id ? `#/table/${encodeURIComponent(notice.table_id)}` : '';
  return html`<li class="notice ${notice.read ? '' : 'unread'}" data-testid="notice" data-kind="${notice.kind}">
    ${link ? html`<a href="${link}">${noticeText(notice)}</a>` : noticeText(notice)}
    <span class="muted">${dateText(notice.at)}</span></li>`;
}

export function mount(root) {
  let destroyed = false;
  async function load() {
    if (!account()) {
      setHTML(root, html`<section class="panel" data-testid="notices-page"><h1>${t('notices.title')}</h1>
        <p><a href="#/signin">${t('menu.signIn')}</a></p></section>`);
      return;
    }
    let page;
    try {
      page = await api.notifications({ limit: 50 });
    } catch (err) {
      if (!destroyed) toast(failure(err), 'error');
      return;
    }
    if (destroyed) return;
    unread = page.unread;
    renderBadge();
    setHTML(root, html`<section class="panel notices-page" data-testid="notices-page">
      <h1>${t('notices.title')}</h1>
      ${page.notifications.length ? html`<ul class="notice-list">${page.notifications.map(noticeItem)}</ul>`
        : html`<p class="muted" data-testid="notices-none">${t('notices.none')}</p>`}
      <p class="actions"><button type="button" data-action="read-all" data-testid="notices-read-all"
        ${attrs({ disabled: !page.unread })}>${t('notices.readAll')}</button></p></section>`);
  }
  onClick(root, '[data-action="read-all"]', async () => {
    try {
      unread = (await api.readNotifications({ all: true })).unread;
    } catch (err) {
      toast(failure(err), 'error');
    }
    renderBadge();
    load();
  });
  load();
  return { destroy() { destroyed = true; } };
}
