// Free composition for the lesson steps that teach a rule by letting it refuse a turn ("try to
// stop your Militant on the maze"): any piece (a corpse too) may be taken to any square. The
// legal turns keep their choices (victim, exit, placement); any other piece-and-square pair is
// the bare turn `from-to`, which the server then judges and refuses with the core's reason. The
// page implements no rule: it only widens what may be entered. Pure, unit-tested under Node.

import { SQUARES } from '../board/dpn.js';

/**
 * The legal map (`{"from-to": [suffixes]}`, wire.js) widened with every other move of every
 * piece or corpse on `board` to every other square, as the bare turn.
 * @param {Record<string, string[]>} legal
 * @param {Record<string, any>} board  square → cell (dpn.js)
 * @returns {Record<string, string[]>}
 */
export function widenLegal(legal, board) {
  /** @type {Record<string, string[]>} */
  const out = { ...legal };
  for (const from of Object.keys(board)) {
    for (const to of SQUARES) {
      const key = `${from}-${to}`;
      if (to !== from && !(key in out)) out[key] = [''];
    }
  }
  return out;
}
