// A rated match's rating change on its end screen (not only on the profile): once
// the table's match is over, GET /api/matches?table=<id> gives each seat's rating
// before and after (the match and its ratings are recorded with the last action),
// and the end screen's action bar says "Ratings: Ada 1500 → 1523 (+23) · ...".

import { api } from './api.js';
import { html } from './dom.js';
import { t } from './i18n.js';

/** Each rated seat's change [{seat, name, before, after}], [] for none; null if it could not be read. */
export async function ratingChanges(tableId) {
  try {
    const found = await api.matches({ table: tableId });
    const match = (found.matches || [])[0];
    if (!match || !match.rated) return [];
    return match.participants
      .filter((p) => p.rating_before != null && p.rating_after != null)
      .map((p) => ({ seat: p.seat, name: p.name, before: p.rating_before, after: p.rating_after }));
  } catch {
    return null; // the end screen stays as it is: the profile still has the ratings
  }
}

/** The line of the end screen: every rated seat's rating, before → after (±change), ours first. */
export function ratingMarkup(changes, me) {
  if (!changes || !changes.length) return '';
  const ordered = [...changes].sort((a, b) => (b.seat === me) - (a.seat === me) || a.seat - b.seat);
  const items = ordered.map((c) => {
    const delta = c.after - c.before;
    const sign = delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : '±0';
    const text = t(c.seat === me ? 'end.ratingYou' : 'end.rating', { name: c.name, before: c.before, after: c.after, delta: sign });
    return html`<li class="${delta > 0 ? 'up' : delta < 0 ? 'down' : ''}" data-testid="rating-change-${c.seat}" data-delta="${delta}">${text}</li>`;
  });
  return html`<div class="rating-changes" data-testid="rating-changes"><span>${t('end.ratings')}</span><ul>${items}</ul></div>`;
}
