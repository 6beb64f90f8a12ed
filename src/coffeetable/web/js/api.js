// The server's HTTP API. Every call returns parsed JSON or throws an ApiError
// carrying the server's reason.

export class ApiError extends Error {
  constructor(status, reason) {
    super(reason);
    this.status = status;
    this.reason = reason;
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
    throw new ApiError(response.status, reason);
  }
  return data;
}

export const api = {
  games: () => request('GET', '/api/games'),
  tables: () => request('GET', '/api/tables'),
  table: (id) => request('GET', `/api/tables/${encodeURIComponent(id)}`),
  createTable: (body) => request('POST', '/api/tables', body),
  join: (id, name) => request('POST', `/api/tables/${encodeURIComponent(id)}/join`, { name }),
  botSeat: (id, seat, token, level) =>
    request('POST', `/api/tables/${encodeURIComponent(id)}/seats/${seat}/bot`, { token, level }),
};

/** The WebSocket URL of a table; without a token the socket is a spectator's. */
export function tableSocketUrl(id, token) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const query = token ? `?token=${encodeURIComponent(token)}` : '';
  return `${scheme}://${location.host}/ws/tables/${encodeURIComponent(id)}${query}`;
}
