// The game log: the match's events retold as short lines (who played which card
// on which stack, FINITO, each round's points, the winners). The table keeps the
// events, not the lines, so a language switch retells them; the server sends the
// match's recent events on (re)connection (`history`), so the log survives a reload.

import { html } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { cardName } from './board.js';

export const LOG_SIZE = 200; // events kept (the server retells as many)

/** Whether an event makes a line of the log. */
export function told(ev) {
  return Boolean(ev) && ['played', 'joker', 'round_started', 'round_over', 'match_over'].includes(ev.type);
}

/** Does a played card start a new stack? A 0 does (with Zero: a 1, a 0 being a joker). */
function starts(card, zero) {
  return zero ? card.value === 1 : card.value === 0;
}

/**
 * One event as a line: text, or markup for the round's end; '' for the others.
 * names: display names per seat; zero: whether the Zero variant is played.
 */
export function logLine(ev, names, zero = false) {
  const name = (seat) => names[seat] || t('espresso.seatName', { n: seat + 1 });
  switch (ev.type) {
    case 'played': {
      const params = { name: name(ev.seat), card: cardName(ev.card), stack: ev.stack + 1 };
      if (ev.owner != null && ev.owner !== ev.seat) return t('espresso.log.playedFrom', { ...params, owner: name(ev.owner) });
      return t(starts(ev.card, zero) ? 'espresso.log.started' : 'espresso.log.played', params);
    }
    case 'joker':
      return t('espresso.log.joker', {
        name: name(ev.seat),
        card: cardName({ ...ev.card, as: null }),
        n: ev.card.as,
        follower: cardName(ev.follower),
        stack: ev.stack + 1,
      });
    case 'round_started':
      return html`<span class="muted">${t('espresso.log.roundStarted', { n: ev.round })}</span>`;
    case 'round_over': {
      const points = (ev.points || []).map((n, seat) => t('espresso.log.points', { count: n, name: name(seat) })).join(', ');
      const head = ev.finito == null ? t('espresso.blocked') : t('espresso.finitoBy', { name: name(ev.finito) });
      return html`<strong>${head}</strong> ${t('espresso.log.roundOver', { n: ev.round, points })}`;
    }
    case 'match_over': {
      const winners = (ev.winners || []).map(name).join(', ');
      return html`<strong>${t((ev.winners || []).length > 1 ? 'espresso.winners' : 'espresso.winner', { names: winners })}</strong>`;
    }
    default:
      return '';
  }
}
