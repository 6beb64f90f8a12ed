// The table page's invitation (js/table.js): a seat held for me (the summary's seat
// "invited" is my username) shows "Join" (POST .../join, signed in) and "Decline"
// (POST .../decline: the seat opens to anyone).

import { api } from './api.js';
import { account } from './account.js';
import { html, onClick, toast } from './dom.js';
import { t } from './i18n.js';
import { failure } from './players.js';
import { seatList } from './names.js';
import { rememberSeat } from './session.js';

/** The seat held for me at this table, or null (not signed in, not invited, seated). */
export function invitedSeat(summary, me) {
  const account_ = account();
  if (!account_ || me != null || !summary || summary.status !== 'open') return null;
  const key = account_.username.toLowerCase();
  const index = seatList(summary).findIndex((s) => s.open && (s.invited || '').toLowerCase() === key);
  return index < 0 ? null : index;
}

/** "Take a seat" is offered: a seat held for no one, and none held for me (then: Join). */
export function anyonesSeat(summary, me) {
  return invitedSeat(summary, me) == null && seatList(summary).some((s) => s.open && !s.invited);
}

/** The invitation's line in the header ('' when there is none). */
export function inviteBar(summary, me) {
  const seat = invitedSeat(summary, me);
  if (seat == null) return '';
  return html`<div class="invite-bar" data-testid="invite-bar">
    <span>${t('table.invited', { n: seat + 1 })}</span>
    <button type="button" class="primary" data-action="invite-join" data-testid="invite-join">${t('table.inviteJoin')}</button>
    <button type="button" data-action="invite-decline" data-testid="invite-decline">${t('table.inviteDecline')}</button></div>`;
}

/** Wire the buttons in ``head``; ``joined()`` restarts the page on the new seat. */
export function watchInvite(head, tableId, joined) {
  onClick(head, '[data-action="invite-join"]', async (event, button) => {
    button.disabled = true;
    try {
      const seat = await api.join(tableId, account().username);
      rememberSeat(tableId, seat.seat, seat.token);
      joined();
    } catch (err) {
      toast(failure(err), 'error');
      button.disabled = false;
    }
  });
  onClick(head, '[data-action="invite-decline"]', async (event, button) => {
    button.disabled = true;
    try {
      await api.declineInvite(tableId);
      toast(t('table.inviteDeclined'));
    } catch (err) {
      toast(failure(err), 'error');
      button.disabled = false;
    }
  });
}
