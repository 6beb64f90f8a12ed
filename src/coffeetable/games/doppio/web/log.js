// Espresso Doppio's game log: an event told as one line, and the names of pieces
// and cards in the reader's language.

import { html } from '../../js/dom.js';
import { lang, t } from '../../js/i18n.js';
import { findCard } from './model.js';

/** A piece's name, "white cup": one name per piece (the colour agrees with the kind in French, German, Spanish). */
export function pieceName(kind, colour) {
  return t(`doppio.piece.${kind}.${colour}`);
}

export function kindsText(kinds) {
  return (kinds || []).map((k) => t(`doppio.kind.${k}`)).join(t('doppio.and'));
}

export function logLine(b, ev) {
  const name = ev.seat == null ? '' : b.ctx.names()[ev.seat] || t('doppio.seatName', { n: ev.seat + 1 });
  switch (ev.type) {
    case 'placed':
      return t('doppio.log.placed', { name, piece: pieceName(ev.kind, ev.colour), space: ev.space + 1 });
    case 'move':
      return t('doppio.log.move', { name, pieces: kindsText(ev.kinds), from: ev.from + 1, to: ev.to + 1 });
    case 'exchange':
      return t('doppio.log.exchange', {
        name, pieces: kindsText(ev.kinds), from: ev.from + 1, other: kindsText(ev.with), to: ev.to + 1,
      });
    case 'scored': {
      const card = ev.text ? ev : findCard(b, ev.card);
      return t(ev.turned ? 'doppio.log.scoredTurned' : 'doppio.log.scored', {
        count: ev.beans, name, card: card ? cardText(card) : `#${ev.card}`,
      });
    }
    case 'undone':
      return t('doppio.log.undone', { name });
    case 'turn':
      return html`<span class="muted">${t('doppio.log.turn', { name })}</span>`;
    case 'round_over':
      return html`<strong>${t('doppio.log.roundOver', { name })}</strong>`;
    case 'game_over':
      return html`<strong>${t(ev.reason === 'reserve_empty' ? 'doppio.gameOverReserve' : 'doppio.gameOver')}</strong>`;
    case 'clock':
      return t('doppio.log.clock', { name });
    default:
      return '';
  }
}

/** A card's own text in the reader's language (English when it has none). */
export function cardText(card) {
  const text = card.text || {};
  return text[lang()] || text.en || '';
}
