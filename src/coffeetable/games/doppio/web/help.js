// Doppio's help in the game: its cards in words for the shared card viewer
// (js/cardview.js: a tap on a card that cannot be scored now, a long press or i on
// any: the pattern drawn large, what it asks of the path, what it scores), and the
// end screen's words on why the match ended as it did.

import { html } from '../../js/dom.js';
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
      { key: 'beans', label: t('doppio.view.beans'), text: t('doppio.view.scores', { count: card.beans }) },
    ],
  };
}

const CARDS_PER_PLAYER = 8; // scoring the 8th card of round 2 ends the match

/**
 * Why a two-player match ended as it did, for its end screen: how it ended (the
 * game_over event's reason, kept in the log; else round 2's last card) and what
 * decided (most beans; equal beans: the tie rule or a shared win).
 */
export function endWhy(b) {
  const v = b.view;
  const over = [...b.log].reverse().find((ev) => ev && ev.type === 'game_over');
  const reason = over ? over.reason : null;
  const finisher = v.round === 2 ? v.players.findIndex((p) => p.scored.length === CARDS_PER_PLAYER) : -1;
  let how = '';
  if (reason === 'reserve_empty') how = t('doppio.why.reserve');
  else if (reason === 'repetition') how = t('doppio.why.repetition');
  else if (finisher >= 0) how = t('doppio.why.finished', { name: b.name(finisher) });
  const winners = v.winners || [];
  let rule = t('doppio.why.most');
  if (v.players[0].beans === v.players[1].beans) {
    rule = winners.length === 1 ? t('doppio.why.tieFinisher', { name: b.name(winners[0]) }) : t('doppio.why.shared');
  }
  return html`<div class="d-why" data-testid="end-why">${how ? html`<p data-testid="end-how">${how}</p>` : ''}<p data-testid="end-rule">${rule}</p></div>`;
}
