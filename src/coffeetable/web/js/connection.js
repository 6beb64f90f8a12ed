// One table's WebSocket, reopened by itself with exponential backoff when it
// drops. Handlers: onMessage(msg), onStatus("connecting"|"open"|"reconnecting"|"closed").

import { tableSocketUrl } from './api.js';

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10000;
// A ping every 10 s; a socket silent for 25 s is taken for dead (e.g. a laptop lid closed).
const PING_MS = 10000;
const SILENT_MS = 25000;

export class TableConnection {
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.socket = null;
    this.attempt = 0;
    this.timer = null;
    this.closed = false;
    this.heard = 0;
    this.pinger = setInterval(() => this.heartbeat(), PING_MS);
  }

  heartbeat() {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    if (Date.now() - this.heard > SILENT_MS) this.drop();
    else this.send({ type: 'ping' });
  }

  open() {
    if (this.closed) return;
    this.status(this.attempt === 0 ? 'connecting' : 'reconnecting');
    const socket = new WebSocket(tableSocketUrl(this.tableId, this.token));
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.heard = Date.now();
      this.status('open');
    };
    socket.onmessage = (event) => {
      this.heard = Date.now();
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      this.onMessage(msg);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      // 4xxx: the server refused us for good (unknown table, bad token).
      if (event.code >= 4000 && event.code < 4100) {
        this.status('closed', event.reason || String(event.code));
        return;
      }
      this.retry();
    };
  }

  retry() {
    this.attempt += 1;
    const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (this.attempt - 1));
    const delay = base / 2 + Math.random() * base / 2;
    this.status('reconnecting');
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Send a JSON message; false when the socket is not open. */
  send(msg) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /** Give up on this socket and open a new one (a silent socket; tests). */
  drop() {
    const socket = this.socket;
    if (!socket || this.closed) return;
    this.socket = null;
    socket.onclose = null;
    socket.onmessage = null;
    socket.close();
    this.retry();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  status(name, detail) {
    if (this.onStatus) this.onStatus(name, detail);
  }
}
