// The new-table form's choices across a redraw (js/lobby.js): the player count, the game
// or the account changes and the form is drawn anew; what was chosen is put back where
// the new form still offers it. Some choices arrive later than the form itself (a
// friend to invite, one's own bots: fetched once it is drawn), so those are put back
// when they arrive, unless the player has chosen something else in the meantime.

import { invitedName } from './inviteseats.js';

const SEAT = /^seat-\d+$/;

/** The form's choices as [name, value] pairs (the player count aside: it is redrawn). */
export function readForm(form) {
  return [...form.elements].filter((el) => el.name && el.name !== 'players')
    .map((el) => [el.name, el.type === 'checkbox' ? el.checked : el.value]);
}

/** Only the seats that invite a friend: what a change of game keeps. */
export function invites(values) {
  return values.filter(([name, value]) => SEAT.test(name) && invitedName(String(value)));
}

/** Put ``values`` back into ``form``; return those its selects do not offer (yet). */
export function restoreForm(form, values) {
  const missing = [];
  for (const [name, value] of values) {
    const el = form.elements.namedItem(name);
    if (!el) continue; // a seat the new form has no more (the fourth of a table of two)
    if (el.tagName === 'SELECT' && ![...el.options].some((o) => o.value === value)) {
      missing.push([name, value, el.value]);
      continue;
    }
    if (el.type === 'checkbox') el.checked = value;
    else el.value = value;
    // a seat's choice shows or hides its own fields (js/botseats.js listens)
    if (SEAT.test(name)) el.dispatchEvent(new Event('change', { bubbles: true }));
  }
  return missing;
}

/**
 * Put ``values`` back now, and once ``arrived`` (the late choices) has settled, those that
 * were not offered yet: each only if its select still holds the value it was drawn with.
 * ``current()`` is false once the form has been drawn again (a later redraw decides).
 */
export async function keepChoices(form, values, arrived, current) {
  const missing = restoreForm(form, values);
  if (!missing.length) return;
  await arrived.catch(() => {});
  if (!current()) return;
  const untouched = missing.filter(([name, , drawn]) => {
    const el = form.elements.namedItem(name);
    return el && el.value === drawn;
  });
  restoreForm(form, untouched.map(([name, value]) => [name, value]));
}
