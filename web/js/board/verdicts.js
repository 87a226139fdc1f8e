// The engine's analysis of a finished game (PROTOCOL §2.3) as the replay uses it: each turn's
// verdict found by its event, the signs of the turns worth a second look (?! ? ??), the squares of
// a turn for the board's marks, and each player's tally. Pure: unit-tested.

import { parseTurn } from './picker.js';

/** The labels the turn list marks, with their signs (as chess writes them). */
export const SIGNS = /** @type {const} */ ({ inaccuracy: '?!', mistake: '?', blunder: '??' });

/** The labels marked, mildest first. */
export const MARKED = /** @type {const} */ (['inaccuracy', 'mistake', 'blunder']);

/**
 * @typedef {object} Verdict  one turn of the analysis (PROTOCOL §2.3)
 * @property {number} v        the version of the turn's event
 * @property {number} turn     its number
 * @property {string} player
 * @property {string} played
 * @property {string} best
 * @property {number} before
 * @property {number} after
 * @property {number} [kept]   the mover's chance with the engine's turn (analyses stored before it
 *   was given have none: `before` was that chance then)
 * @property {string} label
 * @property {boolean} [chief]
 * @property {number} [i]      its place in the analysis's turns (and chances)
 */

/**
 * Each analysed turn by the index of its event in `events` (turns taken back are not analysed:
 * they are matched by their event's version, never by their number).
 * @param {{turns: Verdict[]}} analysis
 * @param {any[]} events  the game's events, each with its `v`
 * @returns {Map<number, Verdict>}
 */
export function verdictsByEvent(analysis, events) {
  /** @type {Map<number, Verdict>} */
  const byV = new Map();
  analysis.turns.forEach((turn, i) => byV.set(turn.v, { ...turn, i }));
  /** @type {Map<number, Verdict>} */
  const out = new Map();
  events.forEach((ev, index) => {
    const verdict = ev && ev.kind === 'turn' ? byV.get(ev.v) : undefined;
    if (verdict) out.set(index, verdict);
  });
  return out;
}

/**
 * Whether a verdict is worth a mark in the turn list (an inaccuracy, a mistake or a blunder).
 * @param {Verdict | undefined | null} verdict
 * @returns {verdict is Verdict}
 */
export function isMarked(verdict) {
  return Boolean(verdict) && MARKED.includes(/** @type {any} */ (verdict && verdict.label));
}

/**
 * The squares of a turn written in notation, its start and destination first (the board's
 * `hint` mark draws its arrow between those two); none for a pass or text that is not a turn.
 * @param {string} text
 * @returns {string[]}
 */
export function turnSquares(text) {
  const parts = parseTurn(text);
  if (!parts || !parts.from) return [];
  return [parts.from, parts.to, parts.exit, parts.victim, parts.place].filter((x) => typeof x === 'string').map(String);
}

/**
 * The board's mark of a turn played (play/recap.js's numbered marks): where the piece came
 * from and went, and what else it touched.
 * @param {Verdict} verdict
 * @returns {import('./board.js').TurnMark | null}
 */
export function playedMark(verdict) {
  const [from, to, ...at] = turnSquares(verdict.played);
  if (!from) return null;
  return { n: verdict.turn, player: verdict.player, from, to: to || null, at, active: true };
}

/**
 * How many turns of each marked label each player played.
 * @param {{turns: Verdict[]}} analysis
 * @returns {Record<string, Record<string, number>>}  player → label → count
 */
export function tally(analysis) {
  /** @type {Record<string, Record<string, number>>} */
  const out = {};
  for (const turn of analysis.turns) {
    const counts = out[turn.player] || (out[turn.player] = { inaccuracy: 0, mistake: 0, blunder: 0 });
    if (turn.label in counts) counts[turn.label] += 1;
  }
  return out;
}

/**
 * The armies that play the game: those with a chance at the start (the hostage army and armies
 * of no player have none), in army order.
 * @param {{start: number[]}} analysis
 * @returns {string[]}
 */
export function playersOf(analysis) {
  return ['r', 'b', 'y', 'g'].filter((_, k) => (analysis.start[k] || 0) > 0);
}

/**
 * The mover's chance had it played the engine's turn: `kept`, or `before` in an analysis
 * stored before `kept` was given (`before` was that chance then).
 * @param {Verdict} verdict
 */
export function keptChance(verdict) {
  return typeof verdict.kept === 'number' ? verdict.kept : verdict.before;
}

/**
 * A player's accuracy over its turns, 0 to 100, as the analysis gives it; null when it gives
 * none (an analysis stored before accuracies, or a player who played no turn).
 * @param {{accuracy?: (number | null)[]}} analysis @param {string} player
 * @returns {number | null}
 */
export function accuracyOf(analysis, player) {
  const a = analysis.accuracy ? analysis.accuracy[['r', 'b', 'y', 'g'].indexOf(player)] : null;
  return typeof a === 'number' ? a : null;
}
