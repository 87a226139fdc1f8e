// The game WebSocket (docs/PROTOCOL.md §3). It reconnects by itself with backoff, catches up
// with `since: v`, and resends commands still waiting for their ack (the server applies a
// resent ack at most once).

import { PROTOCOL_VERSION, gameFromWire, legalFromWire, stateFromWire } from '../wire.js';

/** Ack ids must never repeat for a seat, across page loads too: start from the clock. */
let nextAck = Date.now() * 64;

/**
 * @typedef {'connecting'|'online'|'reconnecting'|'offline'|'closed'} SocketStatus
 * @typedef {object} SocketHandlers
 * @property {(msg: any) => void} onSnapshot
 * @property {(msg: any) => void} onEvent     one versioned event, in order, never twice
 * @property {(legal: Record<string, string[]>) => void} [onLegal] the legal turns of our seat,
 *   now to move (PROTOCOL §3.4), as a map from "from-to" to suffixes
 * @property {(msg: any) => void} [onChat]
 * @property {(msg: any) => void} [onRematch] the rematch asked for after the game (PROTOCOL §6.7)
 * @property {(msg: any) => void} [onPresence]
 * @property {(status: SocketStatus) => void} [onStatus]
 * @property {(msg: any) => void} [onError]   an error that answers no command (e.g. bad_token)
 * @property {() => void} [onReconnected]     the socket came back after a drop
 * @property {(msg: any) => void} [onHistory] an event older than the snapshot, asked for with
 *   `requestHistory` (the snapshot lists turns but not their events)
 * @property {(you: any) => void} [onYou]       who we are, from a `resume`
 * @property {() => number | null} [chatSince] the last chat id seen, for `chat_since`
 * @property {() => string | null} [name]      a spectator's display name
 * @property {(offset: number) => void} [onClockOffset] the server's clock minus ours, in ms,
 *   measured again from a pong
 */

export class GameSocket {
  /**
   * @param {string} gameId
   * @param {string | null} token
   * @param {SocketHandlers} handlers
   * @param {{since?: number}} [opts]  `since: 0` asks for every event from the start instead of a
   *   snapshot (the replay, which has the snapshot from HTTP already)
   */
  constructor(gameId, token, handlers, opts = {}) {
    this.gameId = gameId;
    this.token = token;
    this.h = handlers;
    /** The last version seen; null before the first snapshot. @type {number | null} */
    this.v = typeof opts.since === 'number' ? opts.since : null;
    /** While history is being fetched: events up to this version are history. @type {number | null} */
    this.historyUpTo = null;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {SocketStatus} */
    this.status = 'connecting';
    this.attempt = 0;
    this.stopped = false;
    this.everOpened = false;
    /** @type {Map<number, {msg: any, resolve: (m: any) => void, reject: (e: any) => void, timer: any}>} */
    this.pending = new Map();
    this.lastHeard = Date.now();
    /** The server's clock minus ours, in ms, from the pongs (PROTOCOL §6.3). */
    this.serverOffset = 0;
    /** The shortest ping round trip of this connection, in ms. */
    this.bestRtt = Infinity;
    this.pingSentAt = 0;
    /** @type {any} */
    this.retryTimer = null;
    this.heartbeat = setInterval(() => this.beat(), 10_000);
    this.onOnline = () => this.reconnectNow();
    this.onOffline = () => {
      this.setStatus('offline');
      if (this.ws) this.ws.close();
    };
    window.addEventListener('online', this.onOnline);
    window.addEventListener('offline', this.onOffline);
    this.connect();
  }

  /** @param {SocketStatus} s */
  setStatus(s) {
    if (this.status === s) return;
    this.status = s;
    if (this.h.onStatus) this.h.onStatus(s);
  }

  url() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    return `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}`;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    if (navigator.onLine === false) {
      this.setStatus('offline');
      return;
    }
    if (this.status !== 'connecting') this.setStatus('reconnecting');
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.lastHeard = Date.now();
      this.bestRtt = Infinity;
      /** @type {any} */
      const hello = { type: 'hello', protocol: PROTOCOL_VERSION, token: this.token };
      if (this.v !== null) hello.since = this.v;
      const chatSince = this.h.chatSince ? this.h.chatSince() : null;
      if (typeof chatSince === 'number') hello.chat_since = chatSince;
      const name = !this.token && this.h.name ? this.h.name() : null;
      if (name) hello.name = name;
      ws.send(JSON.stringify(hello));
      // Commands still unanswered go again, with their ack ids: applied at most once.
      for (const p of this.pending.values()) ws.send(JSON.stringify(p.msg));
      // A catch-up with nothing missed may bring no message at all: a pong says we are back.
      this.ping();
    };
    ws.onmessage = (e) => {
      this.lastHeard = Date.now();
      let msg;
      try { msg = JSON.parse(String(e.data)); } catch { return; }
      this.receive(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (navigator.onLine === false) this.setStatus('offline');
      else this.setStatus('reconnecting');
      this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleRetry() {
    clearTimeout(this.retryTimer);
    const base = Math.min(8000, 300 * 2 ** Math.min(this.attempt, 5));
    this.attempt++;
    this.retryTimer = setTimeout(() => this.connect(), base / 2 + Math.random() * base / 2);
  }

  reconnectNow() {
    if (this.stopped) return;
    this.attempt = 0;
    if (this.ws && this.ws.readyState <= 1) return;
    this.connect();
  }

  beat() {
    if (!this.ws || this.ws.readyState !== 1) return;
    if (Date.now() - this.lastHeard > 35_000) {
      // Nothing heard, not even a pong: the connection is dead without knowing it.
      this.ws.close();
      return;
    }
    this.ping();
  }

  /** Sends a ping, noting when, so the pong's server time can be corrected for the trip. */
  ping() {
    if (!this.ws || this.ws.readyState !== 1) return;
    this.pingSentAt = Date.now();
    this.ws.send(JSON.stringify({ type: 'ping' }));
  }

  /** @param {any} msg */
  receive(msg) {
    switch (msg.type) {
      case 'snapshot':
        msg = { ...msg, game: gameFromWire(msg.game) };
        this.v = msg.v;
        this.historyUpTo = null;
        this.h.onSnapshot(msg);
        this.markOnline();
        break;
      case 'resume':
        // The events after `from` follow. From an older version than ours: history we asked for.
        if (this.v !== null && msg.from < this.v) this.historyUpTo = this.v;
        if (this.h.onYou && msg.you) this.h.onYou(msg.you);
        this.markOnline();
        break;
      case 'event':
        msg = { ...msg, event: stateFromWire(msg.event) };
        this.markOnline();
        if (this.historyUpTo !== null && msg.v <= this.historyUpTo) {
          if (this.h.onHistory) this.h.onHistory(msg);
          if (msg.v === this.historyUpTo) this.historyUpTo = null;
          break;
        }
        if (this.v === null || msg.v <= this.v) break;
        if (msg.v > this.v + 1) {
          // A gap: ask for what was missed; the answer includes this event again.
          this.sendRaw({ type: 'sync', since: this.v });
          break;
        }
        this.v = msg.v;
        this.h.onEvent(msg);
        break;
      case 'ack':
      case 'error': {
        this.markOnline();
        const p = msg.ack !== undefined && msg.ack !== null ? this.pending.get(msg.ack) : undefined;
        if (p) {
          this.pending.delete(msg.ack);
          clearTimeout(p.timer);
          if (msg.type === 'ack') p.resolve(msg);
          else p.reject(msg);
        } else if (msg.type === 'error') {
          // A server of another protocol version: reconnecting would not help (reload the page).
          if (msg.code === 'protocol') this.close();
          if (this.h.onError) this.h.onError(msg);
        }
        if (typeof msg.v === 'number' && this.v !== null && msg.v > this.v) {
          // The answer says the game moved on further than the events we have. The event is
          // normally on its way; if it has not come soon, catch up.
          const want = msg.v;
          setTimeout(() => {
            if (this.v !== null && this.v < want && this.historyUpTo === null) this.sendRaw({ type: 'sync', since: this.v });
          }, 1500);
        }
        break;
      }
      case 'legal':
        // The turns of the seat to move, for the version they were made for only.
        if (msg.v === this.v && this.h.onLegal) this.h.onLegal(legalFromWire(msg.turns));
        break;
      case 'chat':
        if (this.h.onChat) this.h.onChat(msg);
        break;
      case 'rematch':
        if (this.h.onRematch) this.h.onRematch(msg);
        break;
      case 'presence':
        this.markOnline();
        if (this.h.onPresence) this.h.onPresence(msg);
        break;
      case 'restarting':
        this.setStatus('reconnecting');
        break;
      case 'pong':
        this.markOnline();
        if (typeof msg.now === 'number') this.pong(msg.now);
        break;
      default:
        break;
    }
  }

  /**
   * Sets the server clock's offset from a pong (PROTOCOL §6.3: `now` left the server half a
   * round trip ago). The sample with the shortest trip of the connection is the most exact.
   * @param {number} now  the server's time in the pong, ms since the epoch
   */
  pong(now) {
    const at = Date.now();
    const rtt = this.pingSentAt ? Math.max(0, at - this.pingSentAt) : 0;
    this.pingSentAt = 0;
    if (rtt > this.bestRtt * 2 + 50) return;
    this.bestRtt = Math.min(this.bestRtt, rtt);
    this.serverOffset = now + rtt / 2 - at;
    if (this.h.onClockOffset) this.h.onClockOffset(this.serverOffset);
  }

  markOnline() {
    if (this.status !== 'online') {
      const wasOpen = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setStatus('online');
      if (wasOpen && this.h.onReconnected) this.h.onReconnected();
    }
  }

  /** @param {any} msg */
  sendRaw(msg) {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
  }

  /**
   * Sends a command with an ack id; resolves with the ack, rejects with the error message (or a
   * `timeout` error after 20 s without an answer while connected).
   * @param {string} type
   * @param {object} [fields]
   * @returns {Promise<any>}
   */
  command(type, fields = {}) {
    const ack = nextAck++;
    const msg = { type, ack, ...fields };
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending.delete(ack)) reject({ type: 'error', ack, code: 'timeout', message: 'no answer from the server' });
      }, 20_000);
      this.pending.set(ack, { msg, resolve, reject, timer });
      this.sendRaw(msg);
    });
  }

  /** Changes the seat token (e.g. dropped after bad_token) and reconnects. @param {string | null} token */
  setToken(token) {
    this.token = token;
    this.v = null;
    if (this.ws) this.ws.close();
    else this.connect();
  }

  close() {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearTimeout(this.retryTimer);
    window.removeEventListener('online', this.onOnline);
    window.removeEventListener('offline', this.onOffline);
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    if (this.ws) this.ws.close();
    this.ws = null;
    this.setStatus('closed');
  }
}
