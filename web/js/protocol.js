// The server's HTTP API and game WebSocket (docs/PROTOCOL.md). The socket reconnects by itself
// with backoff, catches up with `since: v`, and resends commands still waiting for their ack (the
// server applies a resent ack at most once).

import { PROTOCOL_VERSION, gameFromWire, legalFromWire, stateFromWire } from './wire.js';

/** An HTTP error with the protocol's machine code (PROTOCOL §1). */
export class ApiError extends Error {
  /** @param {number} status @param {string} code @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [headers]  more request headers (e.g. the creator's Authorization)
 */
export async function api(method, path, body, headers = {}) {
  /** @type {RequestInit} */
  const init = { method, headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { ...init.headers, 'Content-Type': 'application/json' };
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'network', String(/** @type {Error} */ (e).message || e));
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { /* not JSON */ }
  if (!res.ok) {
    const err = data && data.error ? data.error : { code: 'http_' + res.status, message: text || res.statusText };
    throw new ApiError(res.status, err.code, err.message);
  }
  return data;
}

/** POST /api/games. @param {object} body */
export const createGame = (body) => api('POST', '/api/games', body);
/** POST /api/games/{id}/seats. @param {string} id @param {object} body */
export const claimSeat = (id, body) => api('POST', `/api/games/${encodeURIComponent(id)}/seats`, body);
/** GET /api/games?status=… @param {'open'|'live'|'finished'} status */
export const listGames = (status) => api('GET', `/api/games?status=${status}`);
/** GET /api/games?ids=…: these games (at most 50; unknown ids are left out). @param {string[]} ids */
export const listGamesByIds = (ids) => api('GET', `/api/games?ids=${ids.map(encodeURIComponent).join(',')}`);

// The creator's actions before the start (PROTOCOL §6.1), with the game's admin token.
/** @param {string} token */
const bearer = (token) => ({ Authorization: `Bearer ${token}` });
/** DELETE /api/games/{id}: cancels a game that has not started. @param {string} id @param {string} admin */
export const cancelGame = (id, admin) => api('DELETE', `/api/games/${encodeURIComponent(id)}`, undefined, bearer(admin));
/**
 * POST /api/games/{id}/seats/{p}/invite: a new invite (SeatInvite) for the seat; the old link stops working.
 * @param {string} id @param {string} player @param {string} admin
 */
export const reinviteSeat = (id, player, admin) =>
  api('POST', `/api/games/${encodeURIComponent(id)}/seats/${player}/invite`, undefined, bearer(admin));
/**
 * POST /api/games/{id}/seats/{p}/bot: a bot of this level plays the seat.
 * @param {string} id @param {string} player @param {string} level @param {string} admin
 */
export const seatToBot = (id, player, level, admin) =>
  api('POST', `/api/games/${encodeURIComponent(id)}/seats/${player}/bot`, { level }, bearer(admin));
/** GET /api/games/{id}: the public snapshot. @param {string} id */
export const getGame = (id) => api('GET', `/api/games/${encodeURIComponent(id)}`).then(gameFromWire);
/**
 * GET /api/games/{id}/events: a page of the events after `since`.
 * @param {string} id @param {number} since @param {number} [limit]
 * @returns {Promise<{v: number, events: {v: number, event: any}[]}>}
 */
export const getEvents = (id, since, limit = 500) =>
  api('GET', `/api/games/${encodeURIComponent(id)}/events?since=${since}&limit=${limit}`).then((page) => ({
    ...page,
    events: page.events.map((/** @type {any} */ e) => ({ ...e, event: stateFromWire(e.event) })),
  }));

/**
 * Every event of a game up to version `upTo`, page by page, each passed to `onEvent` in order.
 * The socket only resends what the server holds in memory; older events come from here.
 * @param {string} id @param {number} upTo
 * @param {(v: number, event: any) => void} onEvent
 */
export async function loadHistory(id, upTo, onEvent) {
  let since = 0;
  while (since < upTo) {
    const page = await getEvents(id, since);
    if (!page.events.length) break;
    for (const e of page.events) {
      if (e.v > upTo) return;
      onEvent(e.v, e.event);
      since = e.v;
    }
  }
}

/** Where the game record (NOTATION §4) downloads from. @param {string} id */
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
/** Where the game record downloads from as readable text. @param {string} id */
export const recordTextUrl = (id) => `/api/games/${encodeURIComponent(id)}/record.txt`;
/** POST /api/games/import: a game from a record, checked by replaying it (a CreatedGame). @param {unknown} record */
export const importRecord = (record) => api('POST', '/api/games/import', record);

// ---- seat tokens, kept per game in localStorage ----

/** @param {string} id */
const seatKey = (id) => `djambi.seat.${id}`;

/**
 * @param {string} id
 * @returns {{player: string, token: string} | null}
 */
export function loadSeat(id) {
  try {
    const s = JSON.parse(localStorage.getItem(seatKey(id)) || 'null');
    return s && typeof s.token === 'string' && typeof s.player === 'string' ? s : null;
  } catch {
    return null;
  }
}

/** @param {string} id @param {{player: string, token: string}} seat */
export function saveSeat(id, seat) {
  try { localStorage.setItem(seatKey(id), JSON.stringify({ player: seat.player, token: seat.token })); } catch { /* ignore */ }
}

/** @param {string} id */
export function forgetSeat(id) {
  try { localStorage.removeItem(seatKey(id)); } catch { /* ignore */ }
}

/**
 * Keeps the invite links of a game this browser created, so the creator can still hand them out
 * from the game page while seats are free (the server shows them only once).
 * @param {string} id
 * @param {{player: string, name?: string | null, invite_url: string}[]} seats
 */
export function saveInvites(id, seats) {
  try {
    localStorage.setItem(`djambi.invites.${id}`, JSON.stringify(seats.map((s) => ({ player: s.player, name: s.name || null, invite_url: s.invite_url }))));
  } catch { /* ignore */ }
}

/**
 * @param {string} id
 * @returns {{player: string, name: string | null, invite_url: string}[]}
 */
export function loadInvites(id) {
  try {
    const v = JSON.parse(localStorage.getItem(`djambi.invites.${id}`) || '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/**
 * Keeps the creator's admin token of a game (CreatedGame.admin_token, shown only once).
 * @param {string} id @param {string} token
 */
export function saveAdmin(id, token) {
  try { localStorage.setItem(`djambi.admin.${id}`, token); } catch { /* ignore */ }
}

/**
 * The creator's admin token of a game, if this browser created it.
 * @param {string} id
 * @returns {string | null}
 */
export function loadAdmin(id) {
  try { return localStorage.getItem(`djambi.admin.${id}`); } catch { return null; }
}

/**
 * Forgets everything this browser keeps about a game: seat, admin token, invite links.
 * @param {string} id
 */
export function forgetGame(id) {
  try {
    for (const key of [seatKey(id), `djambi.admin.${id}`, `djambi.invites.${id}`]) localStorage.removeItem(key);
  } catch { /* ignore */ }
}

/**
 * The ids of the games this browser holds a seat token, an admin token or invite links for.
 * @returns {string[]}
 */
export function storedGameIds() {
  /** @type {Set<string>} */
  const ids = new Set();
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const m = /^djambi\.(?:seat|admin|invites)\.(.+)$/.exec(localStorage.key(i) || '');
      if (m) ids.add(m[1]);
    }
  } catch { /* no storage */ }
  return [...ids];
}

/**
 * Reads an invite fragment (`#seat=r&token=…`), if any.
 * @param {string} hash
 * @returns {{player: string, token: string} | null}
 */
export function parseInvite(hash) {
  const p = new URLSearchParams(String(hash).replace(/^#/, ''));
  const player = p.get('seat');
  const token = p.get('token');
  if (!player || !token || !/^[rbyg]$/.test(player)) return null;
  return { player, token };
}

// ---- the game socket ----

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
