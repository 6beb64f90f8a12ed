// Your turn, seen outside the tab: the page's title says it ("(1) Your turn · Fika"),
// and, when the player turned them on (the bell in the top bar, remembered by this
// browser), a browser notification while the tab is hidden. js/table.js calls
// state(mine) on every state of a turn-based match; js/app.js draws the bell.

import { t } from './i18n.js';

const KEY = 'coffeetable.notify';

function supported() {
  return typeof window.Notification === 'function';
}

/** Whether the player asked for notifications (and the browser still allows them). */
export function notifying() {
  try {
    return supported() && localStorage.getItem(KEY) === '1' && Notification.permission === 'granted';
  } catch { return false; }
}

/** Turn notifications on (asking the browser first) or off; resolves to the new setting. */
export async function setNotifying(on) {
  let allowed = false;
  if (on && supported()) allowed = (await Notification.requestPermission()) === 'granted';
  try { localStorage.setItem(KEY, allowed ? '1' : '0'); } catch { /* private mode */ }
  return allowed;
}

/** The bell in the top bar: hidden where the browser has no notifications. */
export function renderNotifySwitch(button) {
  button.hidden = !supported();
  const on = notifying();
  button.setAttribute('aria-pressed', String(on));
  button.textContent = on ? '🔔' : '🔕';
  button.title = t(on ? 'notify.off' : 'notify.on');
  button.setAttribute('aria-label', button.title);
}

/**
 * The title and the notification of one table: `state(mine)` on each state (mine: it
 * is this player's turn), `destroy()` when the table goes. gameTitle(): the game's name.
 */
export function turnSignal(gameTitle) {
  let wasMine = false;
  return {
    state(mine) {
      document.title = mine ? t('turn.title', { game: gameTitle() }) : t('app.title');
      if (mine && !wasMine && document.hidden && notifying()) {
        // one notification a table (tag): a new turn replaces the last one
        const note = new Notification(t('turn.title', { game: gameTitle() }), { body: t('turn.body'), tag: 'coffeetable-turn' });
        note.onclick = () => { window.focus(); note.close(); };
      }
      wasMine = mine;
    },
    destroy() { document.title = t('app.title'); },
  };
}
