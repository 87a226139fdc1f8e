// The server's positions and puzzles (docs/PROTOCOL.md §2.1–§2.2): a position's legal turns, a
// turn tried on it (judged by the core), the engine's hint, and the puzzles. The compact legal
// turns are expanded here (wire.js); effects stay as sent, pieces as codes (lesson goals are
// written that way), with a copy for narration.

import { api } from '../api.js';
import { effectsFromWire, legalFromWire } from '../wire.js';

/**
 * @typedef {object} PositionInfo
 * @property {string} position          canonical DPN
 * @property {string | null} to_move
 * @property {Record<string, string[]>} legal  "from-to" → suffixes (wire.js)
 * @property {any} result
 */

/**
 * @typedef {PositionInfo & {turn: string, player: string, effects: any[], wireEffects: any[]}} Played
 */

/** @param {any} v */
function fromWire(v) {
  const out = { ...v, legal: legalFromWire(v.legal) };
  if (Array.isArray(v.effects)) {
    out.wireEffects = v.effects;
    out.effects = effectsFromWire(v.effects);
  }
  return out;
}

/**
 * POST /api/positions: the position with its legal turns.
 * @param {string} position
 * @returns {Promise<PositionInfo>}
 */
export const positionInfo = (position) => api('POST', '/api/positions', { position }).then(fromWire);

/**
 * POST /api/positions/play: the turn judged by the core; an illegal one throws an ApiError with
 * code `illegal` and the core's reason.
 * @param {string} position @param {string} turn
 * @returns {Promise<Played>}
 */
export const playOn = (position, turn) => api('POST', '/api/positions/play', { position, turn }).then(fromWire);

/**
 * POST /api/positions/try: the turn judged by the core, answered either way (a refusal a lesson
 * asks to see is an answer, not an error the browser would log): the turn played, or
 * `{refused: reason}`.
 * @param {string} position @param {string} turn
 * @returns {Promise<Played | {refused: string}>}
 */
export const tryOn = (position, turn) => api('POST', '/api/positions/try', { position, turn })
  .then((v) => (typeof v.refused === 'string' ? { refused: v.refused } : fromWire(v)));

/**
 * POST /api/positions/hint: the engine's turn for the player to move.
 * @param {string} position
 * @returns {Promise<{turn: string, player: string}>}
 */
export const hintFor = (position) => api('POST', '/api/positions/hint', { position });

/** @param {string} id */
const puzzlePath = (id) => `/api/puzzles/${encodeURIComponent(id)}`;

/**
 * GET /api/puzzles.
 * @returns {Promise<{puzzles: {id: string, theme: string, difficulty: number, player: string}[]}>}
 */
export const listPuzzles = () => api('GET', '/api/puzzles');

/**
 * GET /api/puzzles/{id}: the puzzle to solve (no solution).
 * @param {string} id
 * @returns {Promise<PositionInfo & {id: string, theme: string, difficulty: number, player: string}>}
 */
export const getPuzzle = (id) => api('GET', puzzlePath(id)).then(fromWire);

/**
 * POST /api/puzzles/{id}/answer.
 * @param {string} id @param {string} turn
 * @returns {Promise<{correct: boolean, turn: string, solution: string, line: string[]}>}
 */
export const answerPuzzle = (id, turn) => api('POST', `${puzzlePath(id)}/answer`, { turn });

/**
 * GET /api/puzzles/{id}/solution.
 * @param {string} id
 * @returns {Promise<{solution: string, line: string[]}>}
 */
export const puzzleSolution = (id) => api('GET', `${puzzlePath(id)}/solution`);
