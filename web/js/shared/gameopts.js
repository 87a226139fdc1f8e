// The options of a new game as the create form holds them, and the `CreateGame` body they make
// (PROTOCOL §2 and §6): seats for people or bots, the bots' think time, the time control and what
// a timeout does. Pure: no DOM, so the unit tests check the bodies it makes.

/** The bot levels, weakest first (docs/ENGINE.md). */
export const BOT_LEVELS = /** @type {const} */ (['random', 'beginner', 'easy', 'medium', 'hard']);

/** The level offered to a browser that has never seen a game of its own to the end. */
export const FIRST_BOT_LEVEL = 'easy';

/** The level of a bot taking a seat when the table has no bot to go by (the server's default). */
export const FALLBACK_BOT_LEVEL = 'medium';

/** The server's bot think time when none is asked for, in milliseconds (PROTOCOL §6.2). */
export const SERVER_MOVETIME_MS = 1000;

/** Think times offered, in milliseconds (the server takes 200–10000). */
export const MOVETIME_PRESETS = [200, 500, 1000, 2000, 5000, 10000];

/**
 * Whether a string is a bot level the client knows.
 * @param {unknown} level
 * @returns {level is typeof BOT_LEVELS[number]}
 */
export function isBotLevel(level) {
  return typeof level === 'string' && /** @type {readonly string[]} */ (BOT_LEVELS).includes(level);
}

/**
 * The level "Play against 3 bots" offers: `easy` until this browser has seen a game of its own
 * end (a newcomer should not meet the strongest bots first), then the level it chose last.
 * @param {{finished: boolean, saved: string | null}} o
 */
export function quickBotLevel({ finished, saved }) {
  return finished && isBotLevel(saved) ? saved : FIRST_BOT_LEVEL;
}

/**
 * The level of the table's bots (the most common one; the stronger on a tie), for a bot taking
 * another seat; `medium` when no bot plays.
 * @param {{bot?: string | null}[]} seats
 * @param {string | null} [except]  a seat left out (the one being handed over)
 * @returns {string}
 */
export function usualBotLevel(seats, except = null) {
  /** @type {Map<string, number>} */
  const count = new Map();
  for (const s of seats) {
    if (!s || !isBotLevel(s.bot) || /** @type {any} */ (s).player === except) continue;
    count.set(s.bot, (count.get(s.bot) || 0) + 1);
  }
  let best = FALLBACK_BOT_LEVEL;
  let most = 0;
  for (const level of BOT_LEVELS) {
    const n = count.get(level) || 0;
    if (n >= most && n > 0) {
      best = level;
      most = n;
    }
  }
  return best;
}

/** Live clocks offered: minutes for the whole game and a Fischer increment per turn. */
export const LIVE_PRESETS = [
  { initial_s: 60, increment_s: 1 },
  { initial_s: 180, increment_s: 2 },
  { initial_s: 300, increment_s: 3 },
  { initial_s: 600, increment_s: 5 },
  { initial_s: 900, increment_s: 10 },
  { initial_s: 1800, increment_s: 0 },
];

/** The live clock selected at first (10 minutes + 5 seconds). */
export const DEFAULT_LIVE = '600+5';

/** The `live` choice that sets the clock by hand. */
export const CUSTOM_LIVE = 'custom';

/** A custom live clock's bounds: minutes for the whole game, seconds added per turn. */
export const CUSTOM_LIMITS = { min_minutes: 1, max_minutes: 180, max_increment_s: 60 };

/** Correspondence deadlines offered, per turn, in seconds (the server takes 1 hour to 14 days). */
export const PER_TURN_PRESETS = [3600, 4 * 3600, 12 * 3600, 86_400, 2 * 86_400, 3 * 86_400, 7 * 86_400, 14 * 86_400];

/** The correspondence deadline selected at first (a day). */
export const DEFAULT_PER_TURN_S = 86_400;

/**
 * @typedef {'person' | 'random' | 'beginner' | 'easy' | 'medium' | 'hard'} SeatKind
 * @typedef {'casual' | 'live' | 'correspondence'} TimeKind
 * @typedef {object} GameOptions
 * @property {3 | 4} players
 * @property {string} hostage                   the hostage army of a 3-player game
 * @property {Record<string, string>} names     preset names by seat ('' for none)
 * @property {Record<string, SeatKind>} seats   who plays each seat
 * @property {string} movetime                  the bots' think time in ms
 * @property {TimeKind} time
 * @property {string} live                      a live preset as "initial+increment" seconds, or CUSTOM_LIVE
 * @property {string} custom_min                a custom live clock's minutes, as typed
 * @property {string} custom_inc                a custom live clock's increment in seconds, as typed
 * @property {number} per_turn_s
 * @property {'' | 'resign' | 'bot'} on_timeout '' for the server's default
 * @property {boolean} own_kills
 * @property {boolean} diplomat_to_maze
 * @property {string} turn_limit                '' for none
 * @property {boolean} open
 * @property {boolean} listed                  shown under "Live games" (follows `open` until set)
 * @property {boolean} players_chat_public     spectators read the players' chat
 * @property {boolean} hints                   every player may ask the engine for a good turn
 */

/**
 * The options a fresh create form starts with: four people, no clock, the standard rules.
 * @returns {GameOptions}
 */
export function defaultOptions() {
  return {
    players: 4,
    hostage: 'g',
    names: { r: '', b: '', y: '', g: '' },
    seats: { r: 'person', b: 'person', y: 'person', g: 'person' },
    movetime: String(SERVER_MOVETIME_MS),
    time: 'casual',
    live: DEFAULT_LIVE,
    custom_min: '10',
    custom_inc: '5',
    per_turn_s: DEFAULT_PER_TURN_S,
    on_timeout: '',
    own_kills: false,
    diplomat_to_maze: true,
    turn_limit: '',
    open: false,
    listed: false,
    players_chat_public: true,
    hints: false,
  };
}

/**
 * The armies that have a seat in a game of these options (the hostage has none).
 * @param {Pick<GameOptions, 'players' | 'hostage'>} o
 * @returns {string[]}
 */
export function seatsOf(o) {
  return ['r', 'b', 'y', 'g'].filter((a) => o.players === 4 || a !== o.hostage);
}

/**
 * A live preset's key ("600+5").
 * @param {{initial_s: number, increment_s: number}} c
 */
export const liveKey = (c) => `${c.initial_s}+${c.increment_s}`;

/**
 * What a timeout does when the creator does not say: a bot takes over in correspondence
 * games, the player resigns otherwise (PROTOCOL §6.3).
 * @param {TimeKind} time
 * @returns {'resign' | 'bot'}
 */
export function defaultOnTimeout(time) {
  return time === 'correspondence' ? 'bot' : 'resign';
}

/**
 * A custom live clock as the request's `clock`, or the dictionary key of what is wrong with it
 * and the form control it is about.
 * @param {Pick<GameOptions, 'custom_min' | 'custom_inc'>} o
 * @returns {{clock: {initial_s: number, increment_s: number}} | {error: string, field: string}}
 */
export function customClock(o) {
  const min = o.custom_min.trim() === '' ? NaN : Number(o.custom_min);
  const inc = o.custom_inc.trim() === '' ? NaN : Number(o.custom_inc);
  const { min_minutes, max_minutes, max_increment_s } = CUSTOM_LIMITS;
  if (!(Number.isInteger(min) && min >= min_minutes && min <= max_minutes)) return { error: 'lobby.clock_minutes_bad', field: 'custom_min' };
  if (!(Number.isInteger(inc) && inc >= 0 && inc <= max_increment_s)) return { error: 'lobby.clock_increment_bad', field: 'custom_inc' };
  return { clock: { initial_s: min * 60, increment_s: inc } };
}

/**
 * The `POST /api/games` body for these options, or the dictionary key of what is wrong with them
 * (and the form control it is about, when there is one).
 * @param {GameOptions} o
 * @returns {{body: Record<string, any>} | {error: string, field?: string}}
 */
export function createBody(o) {
  /** @type {Record<string, any>} */
  const body = { players: o.players };
  if (o.players === 3) body.hostage = o.hostage;
  const limit = o.turn_limit.trim() === '' ? null : Number(o.turn_limit);
  if (limit !== null && !(Number.isInteger(limit) && limit >= 1)) return { error: 'lobby.turn_limit_bad', field: 'turn_limit' };
  body.rules = { own_kills: o.own_kills, diplomat_to_maze: o.diplomat_to_maze, turn_limit: limit };
  /** @type {Record<string, string>} */
  const names = {};
  /** @type {Record<string, string>} */
  const bots = {};
  for (const a of seatsOf(o)) {
    const kind = o.seats[a] || 'person';
    if (kind !== 'person') bots[a] = kind;
    else if ((o.names[a] || '').trim()) names[a] = o.names[a].trim();
  }
  if (Object.keys(names).length) body.names = names;
  if (Object.keys(bots).length) {
    body.bots = bots;
    // The server's default goes without saying.
    if (o.movetime !== '' && Number(o.movetime) !== SERVER_MOVETIME_MS) body.bot_movetime_ms = Number(o.movetime);
  }
  if (o.time === 'live' && o.live === CUSTOM_LIVE) {
    const custom = customClock(o);
    if ('error' in custom) return custom;
    body.clock = custom.clock;
  } else if (o.time === 'live') {
    const [initial_s, increment_s] = o.live.split('+').map(Number);
    body.clock = { initial_s, increment_s };
  } else if (o.time === 'correspondence') {
    body.clock = { per_turn_s: o.per_turn_s };
  }
  if (o.time !== 'casual' && o.on_timeout) body.on_timeout = o.on_timeout;
  if (o.open) body.open = true;
  // Listed when open, unlisted when invite-only, unless the creator says otherwise.
  if (o.listed !== o.open) body.listed = o.listed;
  if (!o.players_chat_public) body.players_chat_public = false;
  if (o.hints) body.hints = true;
  return { body };
}

/**
 * The body of "Play against 3 bots": the person plays Red, bots of one level the others.
 * @param {string} name   the person's name at the table
 * @param {string} level  the bots' level
 * @returns {Record<string, any>}
 */
export function botGameBody(name, level) {
  return { players: 4, names: { r: name }, bots: { b: level, y: level, g: level } };
}
