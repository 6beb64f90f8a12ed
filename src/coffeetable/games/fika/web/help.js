// Fika's help in the game: what a card says in full (for the shared card viewer,
// js/cardview.js), the round scored as the cafés stand now (the view's `preview`,
// scored by the engine, never by this file), and the words that say why a round or
// the match was won (the tie-break by the colour order).

import { html } from '../../js/dom.js';
import { t } from '../../js/i18n.js';
import { cardName, face } from './cards.js';

/** Where a card element stands: its key for the viewer and, in a café, the spot. */
export function viewKey(card) { return `${card.colour}-${card.number}`; }

/** Every face-up card the view shows, by viewKey (cafés, supply, hand, picks, known groups). */
function shownCards(v) {
  const cards = [...v.supply];
  for (const p of v.players) {
    cards.push(...p.cafe.filter(Boolean), ...(p.hand || []));
    if (p.pick) cards.push(p.pick);
  }
  v.groups.forEach((g) => { if (g.card) cards.push(g.card); });
  return new Map(cards.map((card) => [viewKey(card), card]));
}

/** The line of the preview for the card at a café spot, or null. */
function previewLine(v, spot) {
  if (!v.preview || !spot) return null;
  const [seat, column] = spot.split(':').map(Number);
  return (v.preview.cards[seat] || []).find((line) => line.column === column) || null;
}

/** What a line of scoring says: met (with the group's multiplier) or not. */
export function lineWords(line) {
  if (!line.met) return t('fika.view.miss');
  if (line.multiplier > 1) {
    return t('fika.view.metTimes', { base: line.coins / line.multiplier, m: line.multiplier, coins: line.coins });
  }
  return t('fika.view.met', { coins: line.coins });
}

/** The card viewer's content for a card element (data-card-view, data-spot), or null. */
export function describeCard(b, el) {
  if (!b.view) return null;
  const card = shownCards(b.view).get(el.dataset.cardView);
  if (!card) return null;
  const n = card.number;
  const parts = [
    { key: 'effect', label: t('fika.view.effect'), text: t(`fika.effect.${n}`) },
    { key: 'objective', label: t('fika.view.objective'), text: t(`fika.objective.${n}`) },
  ];
  const line = previewLine(b.view, el.dataset.spot);
  if (line) {
    const as = line.as != null ? ` (${t('fika.asNumber', { n: line.as })})` : '';
    parts.push({ key: 'now', label: t('fika.view.now'), text: lineWords(line) + as });
  }
  return { title: cardName(card), art: face(card), parts };
}

/** The sentence that says how a tie on coins was broken, or '' when the coins decided. */
export function tieWords(b, result) {
  const tie = result && result.tie;
  if (!tie) return '';
  const [high, low] = [tie.highest[tie.seat], tie.highest[1 - tie.seat]];
  return t('fika.tie', {
    coins: result.coins[0],
    rank: t(`fika.rank.${tie.rank}`),
    colour: t(`fika.colour.${tie.colour}`),
    name: b.name(tie.seat),
    high,
    low: low || t('fika.tieNone'),
  });
}

/** The round as it stands: each café's coins, card by card (drawn by table(b, result, seat, prefix)), and who leads. */
export function previewBox(b, table) {
  const p = b.view.preview;
  if (!p || b.view.phase === 'colours') return '';
  let lead = t('fika.preview.even');
  if (p.winner != null) lead = p.winner === b.me ? t('fika.preview.leadYou') : t('fika.preview.lead', { name: b.name(p.winner) });
  const tie = tieWords(b, p);
  return html`<section class="box round-score preview" data-testid="preview">
    <h3>${t('fika.preview.title')}</h3>
    <div class="score-cafes">${table(b, p, b.bottom, 'preview')}${table(b, p, 1 - b.bottom, 'preview')}</div>
    <p data-testid="preview-lead"><b>${lead}</b></p>
    ${tie ? html`<p class="small" data-testid="preview-tie">${tie}</p>` : ''}</section>`;
}

/** The end screen's explanation: the last round's coins, its tie-break, the colour order, the rule. */
export function endWhy(b) {
  const r = b.view.last_round;
  if (!r) return '';
  const [a, z] = [b.bottom, 1 - b.bottom];
  const colours = (r.colour_order || []).map((c, i) => `${i + 1}. ${t(`fika.colour.${c}`)}`).join(', ');
  const tie = tieWords(b, r);
  return html`<div class="end-why" data-testid="end-why">
    <p>${t('fika.end.round', { n: r.round, a: b.name(a), ca: r.coins[a], b: b.name(z), cb: r.coins[z] })}</p>
    ${tie ? html`<p data-testid="end-tie">${tie}</p>` : ''}
    ${colours ? html`<p data-testid="end-colours">${t('fika.end.colours', { colours })}</p>` : ''}
    <p class="small muted">${t('fika.end.why')}</p></div>`;
}
