// Doppio's cards in words for the shared card viewer (js/cardview.js: a tap on a
// card that cannot be scored now, a long press or i on any): the pattern drawn
// large, what it asks of the path, and what it scores.

import { t } from '../../js/i18n.js';
import { cardText } from './log.js';
import { findCard } from './model.js';
import { diagram } from './pieces.js';

/** The viewer's content for a card element (data-card-view: the card's id), or null. */
export function describeCard(b, el) {
  const card = findCard(b, Number(el.dataset.cardView));
  if (!card) return null;
  return {
    title: t('doppio.view.title', { id: card.id }),
    art: diagram(card),
    parts: [
      { key: 'pattern', label: t('doppio.view.pattern'), text: cardText(card) },
      { key: 'beans', label: t('doppio.view.beans'), text: t('doppio.view.scores', { n: card.beans }) },
    ],
  };
}
