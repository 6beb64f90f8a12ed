// #/sessions: where the account is signed in (created, last seen, browser),
// this browser marked; end one session, or all of them.

import { api } from './api.js';
import { account, refresh, signOutEverywhere } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';
import { dateText, failure } from './players.js';

/** A short name for a user agent ("Firefox on Linux"), else the first words of it. */
export function browserName(agent) {
  const text = String(agent || '');
  const browser = [
    [/Edg\//, 'Edge'], [/OPR\//, 'Opera'], [/Firefox\//, 'Firefox'],
    [/Chrom(e|ium)\//, 'Chrome'], [/Safari\//, 'Safari'],
  ].find(([pattern]) => pattern.test(text));
  const system = [
    [/Android/, 'Android'], [/iPhone|iPad/, 'iOS'], [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'], [/CrOS/, 'ChromeOS'], [/Linux/, 'Linux'],
  ].find(([pattern]) => pattern.test(text));
  if (browser && system) return t('sessions.browserOn', { browser: browser[1], system: system[1] });
  if (browser) return browser[1];
  return text.slice(0, 40) || t('sessions.unknownBrowser');
}

export function mount(root) {
  let destroyed = false;
  setHTML(root, html`
    <section class="sessions-page panel" data-testid="sessions-page">
      <h1>${t('sessions.title')}</h1>
      <p class="muted">${t('sessions.lead')}</p>
      <div class="sessions" data-testid="sessions"><p class="muted">${t('common.loading')}</p></div>
      <p class="actions"><button type="button" data-action="everywhere" data-testid="sign-out-everywhere">
        ${t('menu.signOutEverywhere')}</button></p>
    </section>`);
  const box = root.querySelector('.sessions');

  async function load() {
    if (!account()) {
      setHTML(root, html`<section class="sessions-page panel" data-testid="sessions-page">
        <h1>${t('sessions.title')}</h1>
        <p data-testid="sessions-signed-out">${t('sessions.signInFirst')}
          <a href="#/signin" data-testid="sessions-signin">${t('menu.signIn')}</a></p></section>`);
      return;
    }
    let sessions;
    try {
      sessions = await api.sessions();
    } catch (err) {
      if (err.status === 401) {
        await refresh();
        if (!destroyed) load();
        return;
      }
      if (!destroyed) setHTML(box, html`<p class="error">${failure(err)}</p>`);
      return;
    }
    if (destroyed) return;
    setHTML(box, html`<p class="muted" data-testid="sessions-count">${t('sessions.count', { count: sessions.length })}</p>
      <ul class="session-list">${sessions.map(sessionItem)}</ul>`);
  }

  onClick(root, '[data-action="revoke"]', async (event, button) => {
    button.disabled = true;
    const current = button.dataset.current === 'true';
    try {
      await api.revokeSession(button.dataset.session);
      toast(t(current ? 'sessions.thisEnded' : 'sessions.ended'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    if (current) {
      await refresh();
      go('#/signin');
    } else {
      load();
    }
  });

  onClick(root, '[data-action="everywhere"]', async () => {
    try {
      await signOutEverywhere();
      toast(t('sessions.allEnded'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    go('#/signin');
  });

  load();
  return { destroy() { destroyed = true; } };
}

function sessionItem(session) {
  return html`<li class="session ${session.current ? 'current' : ''}" data-testid="session"
      data-current="${session.current ? 'true' : 'false'}">
    <div class="session-what">
      <strong>${browserName(session.user_agent)}</strong>
      ${session.current ? html`<span class="tag ok" data-testid="this-browser">${t('sessions.thisBrowser')}</span>` : ''}
    </div>
    <div class="muted session-agent" data-testid="session-agent">${session.user_agent}</div>
    <div class="muted session-when">${t('sessions.created', { when: dateText(session.created) })}
      · ${t('sessions.lastSeen', { when: dateText(session.last_seen) })}</div>
    <button type="button" class="tiny" data-action="revoke" data-session="${session.id}"
      data-current="${session.current ? 'true' : 'false'}" data-testid="revoke-session">
      ${t(session.current ? 'sessions.signOutHere' : 'sessions.revoke')}</button>
  </li>`;
}
