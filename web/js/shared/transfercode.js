// The games of "Your games" as a link for another device: `/transfer#v1~ENTRY~ENTRY…`, each
// ENTRY `P.GAME.TOKEN` — P the seat (r, b, y, g) and TOKEN its seat token, or P `a` and TOKEN
// the creator's admin token — or `c.CIRCLE.MEMBER.KEY`, a membership of a circle of friends
// (the member's id and secret key: the only way a key lost with its browser comes back). It
// travels in the fragment, which browsers never send to the server; whoever holds the link can
// play those seats and read those circles, as with an invite link. What a link carries is
// checked in full before anything is kept: one malformed entry refuses the link.

/** The path of the link; the page there imports the games (pages/transfer.js). */
export const TRANSFER_PATH = '/transfer';
/** The most games one link may carry. */
export const MAX_GAMES = 100;
/** The most circles one link may carry. */
export const MAX_CIRCLES = 10;
/**
 * The longest fragment read (a link of MAX_GAMES games with a seat and an admin token each, and
 * MAX_CIRCLES circles, fits).
 */
export const MAX_FRAGMENT = 16_000;

const VERSION = 'v1';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const ENTRY = new RegExp(`^([rbyga])\\.(${UUID})\\.([A-Za-z0-9_-]{16,64})$`);
const CIRCLE_ENTRY = new RegExp(`^c\\.(${UUID})\\.(${UUID})\\.([A-Za-z0-9_-]{16,64})$`);

/**
 * @typedef {object} TransferGame
 * @property {string} id
 * @property {{player: string, token: string} | null} seat
 * @property {string | null} admin   the creator's admin token
 */

/**
 * @typedef {object} TransferCircle
 * @property {string} id       the circle
 * @property {string} member   the member's id
 * @property {string} key      the member's secret key
 */

/**
 * The fragment (without `#`) that carries these games and circles.
 * @param {TransferGame[]} games
 * @param {TransferCircle[]} [circles]
 * @returns {string}
 */
export function encodeTransfer(games, circles = []) {
  const entries = games.flatMap((g) => [
    g.seat ? `${g.seat.player}.${g.id}.${g.seat.token}` : null,
    g.admin ? `a.${g.id}.${g.admin}` : null,
  ]).concat(circles.map((c) => `c.${c.id}.${c.member}.${c.key}`)).filter(Boolean);
  return [VERSION, ...entries].join('~');
}

/**
 * The link of these games and circles on this site.
 * @param {string} origin  e.g. `location.origin`
 * @param {TransferGame[]} games
 * @param {TransferCircle[]} [circles]
 */
export function transferLink(origin, games, circles = []) {
  return `${origin}${TRANSFER_PATH}#${encodeTransfer(games, circles)}`;
}

/**
 * Reads a link's fragment: the games and circles it carries, or why it cannot be read (a key
 * of the `transfer` texts, with its parameters).
 * @param {string} hash  `location.hash`, with or without its `#`
 * @returns {{games: TransferGame[], circles: TransferCircle[]} | {error: string, params?: Record<string, number>}}
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
  /** @type {Map<string, TransferCircle>} */
  const circles = new Map();
  for (const [i, entry] of entries.entries()) {
    const c = CIRCLE_ENTRY.exec(entry);
    if (c) {
      // A second membership of one circle is as wrong as a garbled entry.
      if (circles.has(c[1])) return { error: 'transfer.error_malformed', params: { n: i + 1 } };
      circles.set(c[1], { id: c[1], member: c[2], key: c[3] });
      if (circles.size > MAX_CIRCLES) return { error: 'transfer.error_too_many_circles', params: { max: MAX_CIRCLES } };
      continue;
    }
    const m = ENTRY.exec(entry);
    const game = m && (games.get(m[2]) || { id: m[2], seat: null, admin: null });
    // A second seat or admin token for one game is as wrong as a garbled entry.
    if (!m || !game || (m[1] === 'a' ? game.admin : game.seat)) return { error: 'transfer.error_malformed', params: { n: i + 1 } };
    if (m[1] === 'a') game.admin = m[3];
    else game.seat = { player: m[1], token: m[3] };
    games.set(game.id, game);
    if (games.size > MAX_GAMES) return { error: 'transfer.error_too_many', params: { max: MAX_GAMES } };
  }
  return { games: [...games.values()], circles: [...circles.values()] };
}
