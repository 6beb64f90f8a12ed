// Friends first in the new-table form (js/lobby.js): signed in, each open seat's menu
// starts with "Invite <friend>" (online friends first), fetched once the form is drawn.
// A chosen friend travels as {"invite": {"1": "bob"}} in POST /api/tables: the seat is
// held for that account, which is notified and joins (or declines) from the table page.

import { api } from './api.js';
import { account } from './account.js';
import { t } from './i18n.js';

const PREFIX = 'invite:';

/** Online friends first, then by name. */
export function friendsFirst(friends) {
  return [...friends].sort((a, b) => Number(Boolean(b.online)) - Number(Boolean(a.online))
    || a.username.localeCompare(b.username));
}

/** Add "Invite <friend>" to the top of every seat's select of ``form``. */
export async function addFriends(form) {
  if (!account()) return;
  let friends = [];
  try {
    friends = friendsFirst((await api.friends()).friends || []);
  } catch {
    return; // the other choices still work
  }
  for (const select of form.querySelectorAll('select[name^="seat-"]')) {
    if (select.querySelector('option[data-friend]')) continue;
    const first = select.querySelector('option');
    for (const friend of friends) {
      const option = document.createElement('option');
      option.value = `${PREFIX}${friend.username}`;
      option.dataset.friend = 'true';
      option.dataset.testid = `invite-${friend.username}`;
      // text, never markup: a username is someone's input
      option.textContent = t(friend.online ? 'lobby.inviteOnline' : 'lobby.invite', { name: friend.username });
      select.insertBefore(option, first);
    }
  }
}

/** The username a seat's choice invites, or null. */
export function invitedName(value) {
  return value.startsWith(PREFIX) ? value.slice(PREFIX.length) : null;
}
