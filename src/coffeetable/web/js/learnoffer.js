// The lobby's offer of each game's tutorial ("New to Fika? Learn it in 8 minutes") to
// whoever has not finished it: the account's finished ones (GET /api/learn) and this
// browser's own (a guest's, kept in localStorage by js/learn.js).

import { api } from './api.js';
import { html, setHTML } from './dom.js';
import { has, t } from './i18n.js';
import { read, write } from './session.js';

const LEARNED_KEY = 'coffeetable.learned';

/** The games this browser finished the tutorial of. */
export function learnedHere() {
  const found = read(LEARNED_KEY, []);
  return Array.isArray(found) ? found.filter((name) => typeof name === 'string') : [];
}

/** Remember in this browser that the tutorial of `game` was finished. */
export function rememberLearned(game) {
  const known = learnedHere();
  if (!known.includes(game)) write(LEARNED_KEY, [...known, game]);
}

/** Fill the `[data-learn-offer="<game>"]` slots in root for the tutorials not finished
 * yet, and empty those of the finished ones (called again when the account changes). */
export async function offerTutorials(root) {
  let listing;
  try {
    listing = await api.learn();
  } catch {
    return; // no offers: the lobby works without them
  }
  const done = new Set([...(listing.done || []), ...learnedHere()]);
  for (const entry of listing.games || []) {
    const slot = root.querySelector(`[data-learn-offer="${CSS.escape(String(entry.game))}"]`);
    if (!slot) continue;
    if (done.has(entry.game)) {
      slot.hidden = true;
      slot.replaceChildren();
      continue;
    }
    const title = has(`${entry.game}.title`) ? t(`${entry.game}.title`) : entry.title;
    setHTML(slot, html`<a href="#/learn/${entry.game}" data-testid="learn-offer-${entry.game}">
      ${t('learn.offer', { game: title, minutes: entry.minutes })}</a>`);
    slot.hidden = false;
  }
}
