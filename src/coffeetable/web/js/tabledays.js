// A table with days per move (the server's summary has "days"): each seat's time left
// for its move, who is out of time, and a button to expel them (POST .../expel); the
// other choice is to wait. Drawn in the table's header by table.js.

import { api } from './api.js';
import { html, onClick, toast } from './dom.js';
import { t } from './i18n.js';
import { seatNames } from './names.js';
import { failure } from './players.js';
import { timeLeft } from './mygames.js';

/** The header's line for a days table (nothing for a live one). */
export function daysBar(summary, me) {
  const days = summary && summary.days;
  if (!days) return '';
  const names = seatNames(summary);
  const seats = days.left.map((left, seat) => {
    const who = names[seat] || t('lobby.seat', { n: seat + 1 });
    if (days.expired[seat]) {
      const expel = me != null && seat !== me && summary.status === 'running'
        ? html` <button type="button" class="tiny" data-action="expel" data-seat="${seat}" data-testid="expel-${seat}">${t('table.expel')}</button>`
        : '';
      return html`<li class="low" data-testid="days-${seat}">${t('table.daysOut', { name: who })}${expel}</li>`;
    }
    return left == null ? ''
      : html`<li data-testid="days-${seat}">${t('table.daysLeft', { name: who, time: timeLeft(left) })}</li>`;
  });
  return html`<ul class="clocks days" data-testid="days">
    <li class="muted">${t('games.perMove', { days: days.per_move / 86400 })}</li>${seats}</ul>`;
}

/** Expel buttons in ``head`` (the element is replaced with its page: nothing to undo). */
export function watchExpel(head, tableId) {
  onClick(head, '[data-action="expel"]', async (event, button) => {
    try {
      await api.expel(tableId, Number(button.dataset.seat));
      toast(t('games.expelled'));
    } catch (err) {
      toast(failure(err), 'error');
    }
  });
}
