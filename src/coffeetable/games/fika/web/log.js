// Fika's game log: an event told as one line of plain text, in the reader's language.

import { has, t } from '../../js/i18n.js';
import { cardName } from './cards.js';
import { readPos } from './model.js';

export function describe(b, ev) {
  const name = ev.seat != null ? b.name(ev.seat) : '';
  const mine = (seat) => b.me != null && seat === b.me;
  switch (ev.type) {
    case 'colour':
      return t('fika.ev.colour', { name, colour: t(`fika.colour.${ev.colour}`), rank: t(`fika.rank.${ev.rank}`) });
    case 'picked': return t('fika.ev.picked', { name });
    case 'revealed':
      return t('fika.ev.revealed', {
        cards: (ev.order || []).map((s) => `${b.name(s)}: ${cardName(ev.picks[s])}`).join(' · '),
      });
    case 'placed':
      return t('fika.ev.placed', { name, card: cardName(ev.card), spot: readPos(ev.seat, ev.spot) });
    case 'skipped': return t('fika.ev.skipped', { name, n: ev.number });
    case 'effect': {
      const owner = ev.cafe != null ? b.name(ev.cafe) : name;
      const ownerSeat = ev.cafe != null ? ev.cafe : ev.seat;
      const params = {
        name,
        owner,
        supply: (ev.supply ?? 0) + 1,
        spot: ev.spot != null ? readPos(ownerSeat, ev.spot) : '',
        spots: (ev.spots || []).map((s) => readPos(ownerSeat, s)).join(', '),
        group: (ev.group ?? 0) + 1,
        column: (ev.column ?? 0) + 1,
      };
      const key = `fika.ev.effect${ev.number}`;
      if (ev.number === 4) return t(key, { ...params, count: (ev.spots || []).length || 1 });
      // "your spot", "your café" rather than "Ada (you)'s spot"
      return t(mine(ownerSeat) && has(`${key}.yours`) ? `${key}.yours` : key, params);
    }
    case 'returned': return t(mine(ev.seat) ? 'fika.ev.returned.yours' : 'fika.ev.returned', { name });
    case 'lone': return t('fika.ev.lone', { count: ev.plays, name });
    case 'round_over':
      return t('fika.ev.roundOver', {
        n: ev.round,
        coins: (ev.coins || []).map((c, s) => `${b.name(s)} ${c}`).join(' – '),
        name: b.name(ev.winner),
      });
    case 'game_over': return t('fika.ev.gameOver', { name: b.name((ev.winners || [])[0]) });
    default: return '';
  }
}
