// The games of "Your games" as a link for another device: `/transfer#v1~ENTRY~ENTRY…`, each
// ENTRY `P.GAME.TOKEN` — P the seat (r, b, y, g) and TOKEN its seat token, or P `a` and TOKEN
// the creator's admin token. It travels in the fragment, which browsers never send to the
// server; whoever holds the link can play those seats, as with an invite link. What a link
// carries is checked in full before anything is kept: one malformed entry refuses the link.

/** The path of the link; the page there imports the games (pages/transfer.js). */
export const TRANSFER_PATH = '/transfer';
/** The most games one link may carry. */
export const MAX_GAMES = 100;
/** The longest fragment read (a link of MAX_GAMES games with a seat and an admin token each fits). */
export const MAX_FRAGMENT = 16_000;

const VERSION = 'v1';
const ENTRY = /^([rbyga])\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{16,64})$/;

/**
 * @typedef {object} TransferGame
 * @property {string} id
 * @property {{player: string, token: string} | null} seat
 * @property {string | null} admin   the creator's admin token
 */

/**
 * The fragment (without `#`) that carries these games.
 * @param {TransferGame[]} games
 * @returns {string}
 */
export function encodeTransfer(games) {
  const entries = games.flatMap((g) => [
    g.seat ? `${g.seat.player}.${g.id}.${g.seat.token}` : null,
    g.admin ? `a.${g.id}.${g.admin}` : null,
  ]).filter(Boolean);
  return [VERSION, ...entries].join('~');
}

/**
 * The link of these games on this site.
 * @param {string} origin  e.g. `location.origin`
 * @param {TransferGame[]} games
 */
export function transferLink(origin, games) {
  return `${origin}${TRANSFER_PATH}#${encodeTransfer(games)}`;
}

/**
 * Reads a link's fragment: the games it carries, or why it cannot be read (a key of the
 * `transfer` texts, with its parameters).
 * @param {string} hash  `location.hash`, with or without its `#`
 * @returns {{games: TransferGame[]} | {error: string, params?: Record<string, number>}}
 */
export function decodeTransfer(hash) {
  const text = String(hash).replace(/^#/, '');
  if (!text) return { error: 'transfer.error_empty' };
  if (text.length > MAX_FRAGMENT) return { error: 'transfer.error_too_long' };
  const [version, ...entries] = text.split('~');
  if (version !== VERSION) return { error: 'transfer.error_version' };
  if (!entries.length) return { error: 'transfer.error_empty' };
  /** @type {Map<string, TransferGame>} */
  const games = new Map();
  for (const [i, entry] of entries.entries()) {
    const m = ENTRY.exec(entry);
    const game = m && (games.get(m[2]) || { id: m[2], seat: null, admin: null });
    // A second seat or admin token for one game is as wrong as a garbled entry.
    if (!m || !game || (m[1] === 'a' ? game.admin : game.seat)) return { error: 'transfer.error_malformed', params: { n: i + 1 } };
    if (m[1] === 'a') game.admin = m[3];
    else game.seat = { player: m[1], token: m[3] };
    games.set(game.id, game);
    if (games.size > MAX_GAMES) return { error: 'transfer.error_too_many', params: { max: MAX_GAMES } };
  }
  return { games: [...games.values()] };
}
