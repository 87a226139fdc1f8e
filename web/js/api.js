// The server's HTTP API (docs/PROTOCOL.md §1-§2): JSON in and out, errors as ApiError with the
// protocol's machine code.

import { gameFromWire, stateFromWire } from './wire.js';

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
/**
 * POST /api/games/{id}/seats/check: the seat an invite's token opens, or null when it is no seat's
 * token (mistyped, or replaced): an answer either way, never an error (PROTOCOL §2).
 * @param {string} id @param {string} token
 * @returns {Promise<{player: string | null}>}
 */
export const checkInvite = (id, token) => api('POST', `/api/games/${encodeURIComponent(id)}/seats/check`, { token });
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
const GAME_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a game exists, asked so that a missing game is an answer and not an error (a 404
 * would be logged by the browser): a malformed id is none, and the list by ids leaves unknown
 * ids out. A failure to ask (offline) says yes: the page then finds out as before.
 * @param {string} id
 * @returns {Promise<boolean>}
 */
export async function gameExists(id) {
  if (!GAME_ID.test(id)) return false;
  try {
    const list = await listGamesByIds([id]);
    return (list.games || []).some((/** @type {any} */ g) => String(g.id).toLowerCase() === id.toLowerCase());
  } catch {
    return true;
  }
}
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

/**
 * POST /api/games/{id}/hint: the engine's turn for the seat to move, where the game allows hints
 * (PROTOCOL §2.4). @param {string} id @param {string} token  our seat's token
 * @returns {Promise<{turn: string, player: string, v: number}>}
 */
export const askHint = (id, token) => api('POST', `/api/games/${encodeURIComponent(id)}/hint`, { token });

/**
 * GET /api/games/{id}/analysis: a finished game's analysis, or its progress (PROTOCOL §2.3).
 * Without `start`, only looks: `{"status": "not_started"}` when nobody has asked for it yet.
 * @param {string} id @param {boolean} start  whether to start it if nobody has
 */
export const getAnalysis = (id, start) =>
  api('GET', `/api/games/${encodeURIComponent(id)}/analysis${start ? '' : '?start=false'}`);

/** Where the game record (NOTATION §4) downloads from. @param {string} id */
export const recordUrl = (id) => `/api/games/${encodeURIComponent(id)}/record`;
/** Where the game record downloads from as readable text. @param {string} id */
export const recordTextUrl = (id) => `/api/games/${encodeURIComponent(id)}/record.txt`;
/** POST /api/games/import: a game from a record, checked by replaying it (a CreatedGame). @param {unknown} record */
export const importRecord = (record) => api('POST', '/api/games/import', record);

// Circles of friends (PROTOCOL §2.5), read and changed with a member's key.
/** @param {string} id */
const circlePath = (id) => `/api/circles/${encodeURIComponent(id)}`;
/** POST /api/circles: a new circle (CreatedCircle). @param {string} name @param {string} memberName */
export const createCircle = (name, memberName) => api('POST', '/api/circles', { name, member_name: memberName });
/** POST /api/circles/{id}/members: joins with the invite. @param {string} id @param {string} invite @param {string} name */
export const joinCircle = (id, invite, name) => api('POST', `${circlePath(id)}/members`, { invite, name });
/** GET /api/circles/{id}: the circle's page (CircleView). @param {string} id @param {string} key */
export const getCircle = (id, key) => api('GET', circlePath(id), undefined, bearer(key));
/** PATCH /api/circles/{id}: the creator renames it. @param {string} id @param {string} key @param {string} name */
export const renameCircle = (id, key, name) => api('PATCH', circlePath(id), { name }, bearer(key));
/**
 * DELETE /api/circles/{id}/members/{member}: leave (one's own id) or remove (the creator).
 * @param {string} id @param {string} key @param {string} member
 */
export const departCircle = (id, key, member) =>
  api('DELETE', `${circlePath(id)}/members/${encodeURIComponent(member)}`, undefined, bearer(key));
/** POST /api/circles/{id}/invite: a new invite link (the creator). @param {string} id @param {string} key */
export const reinviteCircle = (id, key) => api('POST', `${circlePath(id)}/invite`, undefined, bearer(key));

/**
 * A circle's export as text (CSV), read with the member's key (the download is made in the page).
 * @param {string} id @param {string} key @param {'standings' | 'games'} what
 */
export async function circleCsv(id, key, what) {
  const res = await fetch(`${circlePath(id)}/${what}.csv`, { headers: bearer(key) });
  if (!res.ok) throw new ApiError(res.status, `http_${res.status}`, res.statusText);
  return res.text();
}
