// Who is signed in: GET /api/me once on load and after every sign-in or out,
// shared by every view (the top bar, the lobby, the table). The session itself
// is an HttpOnly cookie the page never sees; a guest is `null` here.

import { api } from './api.js';
import { guestSeats, seatAt } from './session.js';

let current = null; // {username, joined, tables: [{table_id, game, title, name, status, players, seat}]}
let loading = null;
const listeners = new Set();

function changed() {
  for (const fn of listeners) fn(current);
}

/** Ask the server who we are (null: a guest, or the server cannot say). */
export function refresh() {
  loading = api.me().then(
    (me) => me,
    () => null,
  ).then((me) => {
    current = me;
    changed();
    return me;
  });
  return loading;
}

/** The account once known: {username, tables, ...} or null for a guest. */
export function whoami() {
  return loading || refresh();
}

/** The account as known now, without waiting (null: a guest, or not known yet). */
export function account() { return current; }

/** Call fn(account) whenever the account (or its list of tables) changes. */
export function onAccountChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The seat the account holds at a table (from GET /api/me), or null. */
export function accountSeat(tableId) {
  const held = current && (current.tables || []).find((table) => table.table_id === tableId);
  return held ? held.seat : null;
}

/** The seats this browser holds as a guest, as the sign-in's `claim` (at most 20). */
function claims() {
  return guestSeats().slice(0, 20).map(({ tableId, token }) => ({ table_id: tableId, token }));
}

/** Sign up (mode "signup") or in: the guest's seats go along; resolves the new account. */
export async function signIn(mode, username, password) {
  const call = mode === 'signup' ? api.register : api.login;
  const result = await call(username, password, claims());
  await refresh();
  return result;
}

export async function signOut() {
  try {
    await api.logout();
  } finally {
    await refresh();
  }
}

export async function signOutEverywhere() {
  try {
    await api.logoutEverywhere();
  } finally {
    await refresh();
  }
}

let back = '#/';

/** Where a sign-in goes afterwards: the last page seen before the sign-in form. */
export function returnTo() { return back; }
export function setReturnTo(hash) { back = hash || '#/'; }

/** Our seat at a table: {seat, token} from this browser, {seat, token: null} from the account, or null. */
export function mySeat(tableId) {
  const held = seatAt(tableId);
  if (held && held.token) return held;
  const seat = accountSeat(tableId);
  return seat == null ? null : { seat, token: null };
}
