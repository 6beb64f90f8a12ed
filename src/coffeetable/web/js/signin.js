// #/signin and #/signup: a username and a password. The seats this browser
// holds as a guest go along (`claim`), so signing up keeps them and the
// matches played in them; afterwards they are the account's tables.

import { account, returnTo, signIn, signOut } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';
import { profileHref } from './players.js';

/** The message for a refused sign-in or sign-up (the API's `detail` where it says why). */
export function authError(mode, err) {
  switch (err.status) {
    case 0: return t('error.network', { reason: err.reason });
    case 401: return t('auth.wrong');
    case 409: return t('auth.taken');
    case 403: return t('auth.otherSite');
    case 429:
      return err.retryAfter
        ? t('auth.tooManyWait', { count: err.retryAfter })
        : t(mode === 'signup' ? 'auth.tooManyAccounts' : 'auth.tooMany');
    case 400:
    case 422: return t('auth.refused', { reason: err.reason });
    default: return t('error.server', { reason: err.reason });
  }
}

export function mount(root, route) {
  const mode = route.view === 'signup' ? 'signup' : 'signin';
  const me = account();
  const other = mode === 'signup' ? '#/signin' : '#/signup';
  setHTML(root, html`
    <section class="auth-page panel" data-testid="${mode}-page">
      <h1>${t(mode === 'signup' ? 'auth.signupTitle' : 'auth.signinTitle')}</h1>
      ${me ? html`<p class="note" data-testid="signed-in-note">${t('auth.already', { name: me.username })}
        <a href="${profileHref(me.username)}">${t('menu.profile')}</a>
        <button type="button" class="tiny" data-action="sign-out" data-testid="note-sign-out">${t('menu.signOut')}</button></p>` : ''}
      <p class="muted">${t(mode === 'signup' ? 'auth.signupLead' : 'auth.signinLead')}</p>
      <form class="auth-form" data-testid="auth-form" novalidate>
        <label>${t('auth.username')}
          <input name="username" data-testid="auth-username" autocomplete="username" required
            autocapitalize="none" spellcheck="false" maxlength="64"></label>
        <label>${t('auth.password')}
          <input name="password" type="password" data-testid="auth-password" required maxlength="128"
            autocomplete="${mode === 'signup' ? 'new-password' : 'current-password'}"></label>
        ${mode === 'signup' ? html`<p class="muted pl-hint">${t('auth.rules')}</p>` : ''}
        <p class="error" data-testid="auth-error" role="alert" hidden></p>
        <button type="submit" class="primary big" data-testid="auth-submit">
          ${t(mode === 'signup' ? 'auth.signupButton' : 'auth.signinButton')}</button>
      </form>
      <p><a href="${other}" data-testid="auth-switch">${t(mode === 'signup' ? 'auth.haveAccount' : 'auth.noAccount')}</a></p>
    </section>`);
  const form = root.querySelector('form');
  const error = root.querySelector('[data-testid="auth-error"]');
  let destroyed = false;

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const username = form.elements.namedItem('username').value.trim();
    const password = form.elements.namedItem('password').value;
    if (!username || !password) {
      showError(t('auth.fillBoth'));
      return;
    }
    const button = form.querySelector('[type=submit]');
    button.disabled = true;
    error.hidden = true;
    try {
      const result = await signIn(mode, username, password);
      const claimed = (result && result.claimed) || [];
      toast(t(mode === 'signup' ? 'auth.welcome' : 'auth.welcomeBack', { name: result.username }));
      if (claimed.length) toast(t('auth.claimed', { count: claimed.length }));
      if (!destroyed) go(returnTo());
    } catch (err) {
      showError(authError(mode, err));
      button.disabled = false;
      form.elements.namedItem('password').select();
    }
  });

  onClick(root, '[data-action="sign-out"]', async () => {
    await signOut();
    go(`#/${mode}`);
  });

  function showError(text) {
    error.textContent = text;
    error.hidden = false;
  }

  form.elements.namedItem('username').focus();
  return {
    destroy() { destroyed = true; },
  };
}
