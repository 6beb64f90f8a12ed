// The server's HTTP API. Every call returns parsed JSON or throws an ApiError
// carrying the server's reason.

export class ApiError extends Error {
  constructor(status, reason, retryAfter = null) {
    super(reason);
    this.status = status;
    this.reason = reason;
    this.retryAfter = retryAfter; // seconds, from a 429's Retry-After
  }
}

async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, String(err.message || err));
  }
  let data = null;
  try { data = await response.json(); } catch { /* empty body */ }
  if (!response.ok) {
    const detail = data && (data.detail ?? data.reason ?? data.error);
    const reason = typeof detail === 'string' ? detail : JSON.stringify(detail ?? response.statusText);
    const wait = Number.parseFloat(response.headers.get('Retry-After') || '');
    throw new ApiError(response.status, reason, Number.isFinite(wait) ? Math.ceil(wait) : null);
  }
  return data;
}

export const api = {
  games: () => request('GET', '/api/games'),
  tables: () => request('GET', '/api/tables'),
  table: (id) => request('GET', `/api/tables/${encodeURIComponent(id)}`),
  createTable: (body) => request('POST', '/api/tables', body),
  join: (id, name) => request('POST', `/api/tables/${encodeURIComponent(id)}/join`, { name }),
  declineInvite: (id) => request('POST', `/api/tables/${encodeURIComponent(id)}/decline`),
  // token: our seat's; none when the account holds the seat (the cookie says who we are)
  botSeat: (id, seat, token, level) =>
    request('POST', `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, token ? { token, level } : { level }),

  review: (id) => request('GET', `/api/tables/${encodeURIComponent(id)}/review`),
  startReview: (id) => request('POST', `/api/tables/${encodeURIComponent(id)}/review`),
  rematch: (id, token) => request('POST', `/api/tables/${encodeURIComponent(id)}/rematch`, token ? { token } : {}),
  replay: (id, params) => request('GET', `/api/tables/${encodeURIComponent(id)}/replay${query(params)}`),

  playNow: (body) => request('POST', '/api/play-now', body),
  playNowStatus: (ticket) => request('POST', '/api/play-now/status', { ticket }),
  playNowCancel: (ticket) => request('POST', '/api/play-now/cancel', { ticket }),
  playNowQueues: () => request('GET', '/api/play-now'),

  // Accounts (the session is an HttpOnly cookie: same-origin fetch sends it).
  register: (username, password, claim) => request('POST', '/api/auth/register', { username, password, claim }),
  login: (username, password, claim) => request('POST', '/api/auth/login', { username, password, claim }),
  logout: () => request('POST', '/api/auth/logout'),
  logoutEverywhere: () => request('POST', '/api/auth/logout-everywhere'),
  sessions: () => request('GET', '/api/auth/sessions'),
  revokeSession: (id) => request('DELETE', `/api/auth/sessions/${encodeURIComponent(id)}`),
  me: () => request('GET', '/api/me'),
  // My games (js/mygames.js): my tables, those waiting for me first; my vacation.
  myGames: () => request('GET', '/api/me/games'),
  vacation: () => request('GET', '/api/me/vacation'),
  setVacation: (days) => request('PUT', '/api/me/vacation', { days }),
  expel: (id, seat) => request('POST', `/api/tables/${encodeURIComponent(id)}/expel`, { seat }),

  // Social (js/notices.js, js/friends.js): notifications, friends, blocks.
  notifications: (params) => request('GET', `/api/notifications${query(params)}`),
  readNotifications: (body) => request('POST', '/api/notifications/read', body),
  friends: () => request('GET', '/api/friends'),
  addFriend: (name) => request('PUT', `/api/friends/${encodeURIComponent(name)}`),
  removeFriend: (name) => request('DELETE', `/api/friends/${encodeURIComponent(name)}`),
  blocks: () => request('GET', '/api/blocks'),
  block: (name) => request('PUT', `/api/blocks/${encodeURIComponent(name)}`),
  unblock: (name) => request('DELETE', `/api/blocks/${encodeURIComponent(name)}`),

  // Reports and moderation (js/report.js, js/moderation.js).
  report: (body) => request('POST', '/api/reports', body),
  moderationReports: () => request('GET', '/api/moderation/reports'),
  moderate: (id, body) => request('POST', `/api/moderation/reports/${encodeURIComponent(id)}`, body),
  moderationLog: (params) => request('GET', `/api/moderation/log${query(params)}`),

  // Players: profiles, leaderboards, finished matches.
  player: (name) => request('GET', `/api/players/${encodeURIComponent(name)}`),
  leaderboard: (game, group) =>
    request('GET', `/api/leaderboards/${encodeURIComponent(game)}${query({ group })}`),
  matches: (params) => request('GET', `/api/matches${query(params)}`),

  // Tutorials (js/learn.js): the list, a game's script, finishing one.
  learn: () => request('GET', '/api/learn'),
  tutorial: (game) => request('GET', `/api/learn/${encodeURIComponent(game)}`),
  learnDone: (game) => request('POST', `/api/learn/${encodeURIComponent(game)}/done`),

  // Bot accounts (js/bots.js): mine, their keys, someone's bots, the bots' leaderboards.
  myBots: () => request('GET', '/api/bots'),
  createBot: (name, description) => request('POST', '/api/bots', { name, description }),
  botKeys: (bot) => request('GET', `/api/bots/${encodeURIComponent(bot)}/keys`),
  // Who may seat the bot at a table: 'owner' (me and my bots) or 'anyone'.
  setBotInvitable: (bot, invitableBy) => request('PATCH', `/api/bots/${encodeURIComponent(bot)}`, { invitable_by: invitableBy }),
  setBotLeague: (bot, league) => request('PATCH', `/api/bots/${encodeURIComponent(bot)}`, { league }),
  createBotKey: (bot, label) => request('POST', `/api/bots/${encodeURIComponent(bot)}/keys`, { label }),
  revokeBotKey: (bot, id) =>
    request('DELETE', `/api/bots/${encodeURIComponent(bot)}/keys/${encodeURIComponent(id)}`),
  playersBots: (name) => request('GET', `/api/players/${encodeURIComponent(name)}/bots`),
  botLeaderboard: (game, group) =>
    request('GET', `/api/leaderboards/${encodeURIComponent(game)}/bots${query({ group })}`),

  // Tournaments (js/tournaments.js): the lists, one, entering and withdrawing.
  tournaments: () => request('GET', '/api/tournaments'),
  // The programs' league of a game (js/league.js).
  league: (game) => request('GET', `/api/leagues/${encodeURIComponent(game)}`),
  tournament: (id) => request('GET', `/api/tournaments/${encodeURIComponent(id)}`),
  enterTournament: (id) => request('POST', `/api/tournaments/${encodeURIComponent(id)}/entries`, {}),
  withdrawTournament: (id) => request('DELETE', `/api/tournaments/${encodeURIComponent(id)}/entries`),
};

/** "?a=1&b=2" from the params that are set ("" when none). */
function query(params = {}) {
  const set = Object.entries(params).filter(([, value]) => value != null && value !== '');
  return set.length ? `?${new URLSearchParams(set.map(([k, v]) => [k, String(v)]))}` : '';
}

/** The WebSocket URL of a table; without a token the socket is a spectator's. */
export function tableSocketUrl(id, token) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(id)}${query}`;
}
