// Seat choices for bot accounts in the new-table form (js/lobby.js): "my bot
// alice/bot-v2" (signed in: my bots, fetched once the form is drawn) and "a
// player's bot, by name" (a text field, shown when chosen). The server checks
// the name; here it only travels as a seat choice ({"1": "alice/bot-v2"}).

import { api } from './api.js';
import { account } from './account.js';
import { html } from './dom.js';
import { t } from './i18n.js';

const BY_NAME = 'program:?';
const wired = new WeakSet();

/** The options a seat's select gets (my own bots are added by ``addMyBots``). */
export function programOptions() {
  return html`<option value="${BY_NAME}" data-testid="seat-bot-by-name">${t('lobby.botByName')}</option>`;
}

/** The name field of a seat, hidden until "a player's bot, by name" is chosen. */
export function programInput(seat) {
  return html`<input name="seat-bot-${seat}" data-testid="seat-bot-name-${seat}" maxlength="41" hidden
    autocomplete="off" placeholder="${t('lobby.botNamePrompt')}" aria-label="${t('lobby.botNamePrompt')}">`;
}

/** Add "my bot ..." to every seat's select of ``form``, and show the name field on choice. */
export async function addMyBots(form) {
  if (!wired.has(form)) {
    wired.add(form);
    form.addEventListener('change', (event) => {
      const select = event.target;
      if (select.tagName !== 'SELECT' || !/^seat-\d+$/.test(select.name)) return;
      const input = form.elements.namedItem(`seat-bot-${select.name.slice(5)}`);
      if (input) input.hidden = select.value !== BY_NAME;
    });
  }
  if (!account()) return;
  let bots = [];
  try {
    bots = await api.myBots();
  } catch {
    return; // the other choices still work
  }
  for (const select of form.querySelectorAll('select[name^="seat-"]')) {
    const byName = select.querySelector(`option[value="${BY_NAME}"]`);
    if (!byName || select.querySelector('option[data-my-bot]')) continue;
    for (const bot of bots) {
      const option = document.createElement('option');
      option.value = `program:${bot.name}`;
      option.dataset.myBot = 'true';
      option.textContent = t('lobby.myBot', { name: bot.name }); // text, never markup
      select.insertBefore(option, byName);
    }
  }
}

/** The bot account a seat's choice names, or null (not a bot account, or no name given). */
export function programChoice(elements, seat, value) {
  if (!value.startsWith('program:')) return null;
  if (value !== BY_NAME) return value.slice('program:'.length);
  const typed = elements.namedItem(`seat-bot-${seat}`);
  const name = typed ? typed.value.trim() : '';
  return name || null;
}
