// What the browser remembers: the player's name and, per table, the seat and
// token it was given, so a reload takes the same seat again.

const NAME_KEY = 'coffeetable.name';
const SEATS_KEY = 'coffeetable.seats';

/** A value this browser keeps (JSON in localStorage), or ``fallback``. */
export function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    return raw == null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/** Keep ``value`` in this browser (silently not, in private mode). */
export function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode */ }
}

export function playerName() { return read(NAME_KEY, ''); }
export function setPlayerName(name) { write(NAME_KEY, String(name || '').trim()); }

/** {seat, token} for a table, or null when we only watch it. */
export function seatAt(tableId) { return read(SEATS_KEY, {})[tableId] || null; }

/** Every seat this browser holds by a token, newest first: [{tableId, seat, token}]. */
export function guestSeats() {
  return Object.entries(read(SEATS_KEY, {}))
    .filter(([, held]) => held && held.token)
    .sort((a, b) => (b[1].at || 0) - (a[1].at || 0))
    .map(([tableId, held]) => ({ tableId, seat: held.seat, token: held.token }));
}

export function rememberSeat(tableId, seat, token) {
  const seats = read(SEATS_KEY, {});
  seats[tableId] = { seat, token, at: Date.now() };
  // Keep the 50 most recent tables only.
  const recent = Object.entries(seats).sort((a, b) => b[1].at - a[1].at).slice(0, 50);
  write(SEATS_KEY, Object.fromEntries(recent));
}

export function forgetSeat(tableId) {
  const seats = read(SEATS_KEY, {});
  delete seats[tableId];
  write(SEATS_KEY, seats);
}
