// The top bar's account corner: "Sign in" / "Sign up" for a guest; for a signed-in
// player their name, opening a menu (profile, sessions, sign out, sign out everywhere).

import { account, signOut, signOutEverywhere } from './account.js';
import { html, onClick, setHTML, toast } from './dom.js';
import { t } from './i18n.js';
import { go } from './router.js';
import { failure, profileHref } from './players.js';

let box = null;

/** Draw the corner (again: after a sign-in or out; force: a change of language). */
export function renderUserMenu(force = false) {
  if (!box) return;
  const me = account();
  if (!me) {
    setHTML(box, html`<a href="#/signin" class="signin-link" data-testid="nav-signin">${t('menu.signIn')}</a>
      <a href="#/signup" class="button primary signup-link" data-testid="nav-signup">${t('menu.signUp')}</a>`);
    box.dataset.user = '';
    return;
  }
  if (!force && box.dataset.user === me.username && box.querySelector('details')) return; // keep an open menu open
  box.dataset.user = me.username;
  setHTML(box, html`<details class="user-menu" data-testid="user-menu">
    <summary data-testid="user-menu-button"><span class="user-name" data-testid="nav-username">${me.username}</span></summary>
    <ul class="menu" role="menu">
      <li role="none"><a role="menuitem" href="${profileHref(me.username)}" data-testid="menu-profile">${t('menu.profile')}</a></li>
      <li role="none"><a role="menuitem" href="#/friends" data-testid="menu-friends">${t('menu.friends')}</a></li>
      <li role="none"><a role="menuitem" href="#/notifications" data-testid="menu-notices">${t('menu.notices')}</a></li>
      <li role="none"><a role="menuitem" href="#/sessions" data-testid="menu-sessions">${t('menu.sessions')}</a></li>
      <li role="none"><a role="menuitem" href="#/bots" data-testid="menu-bots">${t('menu.bots')}</a></li>
      ${me.moderator ? html`<li role="none"><a role="menuitem" href="#/moderation" data-testid="menu-moderation">${t('mod.title')}</a></li>` : ''}
      <li role="none"><button type="button" role="menuitem" data-action="sign-out" data-testid="menu-sign-out">${t('menu.signOut')}</button></li>
      <li role="none"><button type="button" role="menuitem" data-action="sign-out-everywhere"
        data-testid="menu-sign-out-everywhere">${t('menu.signOutEverywhere')}</button></li>
    </ul>
  </details>`);
}

function close() {
  const menu = box && box.querySelector('details');
  if (menu) menu.open = false;
}

/** Set up the corner once (app.js): its clicks, closing the menu on a click elsewhere. */
export function startUserMenu(element) {
  box = element;
  onClick(box, '.menu a', close);
  onClick(box, '[data-action="sign-out"]', async () => {
    close();
    try {
      await signOut();
      toast(t('menu.signedOut'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    go('#/');
  });
  onClick(box, '[data-action="sign-out-everywhere"]', async () => {
    close();
    try {
      await signOutEverywhere();
      toast(t('sessions.allEnded'));
    } catch (err) {
      toast(failure(err), 'error');
    }
    go('#/');
  });
  document.addEventListener('click', (event) => {
    if (!box.contains(event.target)) close();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') close();
  });
  renderUserMenu();
}
