// Café's help in the game: a plan card in words for the shared card viewer
// (js/cardview.js: a tap, a long press or i on a card of the draft), and the
// points a company has so far (the view's score and its parts, scored by the engine).

import { html } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { cardSvg, symbolSquare } from './icons.js';
import { cafeText } from './panels.js';

const ORDER = ['bean', 'dry', 'roast', 'cafe', 'cup', 'ship'];

/** The viewer's content for a draft card element (data-card-view: the card's id), or null. */
export function describeCard(b, el) {
  const card = b.view && b.view.display.find((c) => c.id === el.dataset.cardView);
  if (!card) return null;
  const counts = new Map(); // "bean:green" / "dry" -> squares
  card.rows.forEach((row) => [...row].forEach((symbol) => {
    const sq = symbolSquare(symbol);
    const key = sq.colour ? `${sq.icon}:${sq.colour}` : sq.icon;
    counts.set(key, (counts.get(key) || 0) + 1);
  }));
  const keys = [...counts.keys()].filter((k) => k !== 'blank' && k !== 'cafe')
    .sort((a, b) => ORDER.indexOf(a.split(':')[0]) - ORDER.indexOf(b.split(':')[0]));
  const parts = keys.map((key) => {
    const [icon, colour] = key.split(':');
    const name = t(`cafe.view.name.${icon}`, { colour: colour ? t(`cafe.colour.${colour}`) : '' });
    return { key: `square-${icon}${colour ? `-${colour}` : ''}`, label: `${counts.get(key)} × ${name}`, text: t(`cafe.icon.${icon}`) };
  });
  if (card.cafe) parts.push({ key: 'cafe', label: t('cafe.view.name.cafe'), text: `${cafeText(card.cafe)} — ${t('cafe.icon.cafe')}` });
  return { title: t('cafe.view.title', { id: card.id }), art: cardSvg(card, 'cv-cafe-card'), parts };
}

/** A company's points so far and where they come from (complete cafés, the warehouse). */
export function soFar(p, seat) {
  return html`<span class="cf-sofar muted small" data-testid="so-far-${seat}" title="${t('cafe.warehouseTip')}">${t('cafe.view.soFar', { cafes: p.cafe_points, warehouse: p.warehouse_points })}</span>`;
}
