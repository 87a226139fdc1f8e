// DPN (NOTATION.md §2): just enough to draw positions. The server is the rules engine; this module
// only reads what it sends, and never decides what is legal.

/** Files a–i, left to right. */
export const FILES = 'abcdefghi';
/** Armies (and players) in base order. */
export const ARMIES = ['r', 'b', 'y', 'g'];
/** Role letters in DPN, in the order the rulebook lists them. */
export const ROLES = ['C', 'A', 'R', 'D', 'N', 'M'];
/** Role letter → the core's role name (the `role` of effects). */
export const ROLE_NAMES = {
  C: 'Chief', A: 'Assassin', R: 'Reporter', D: 'Diplomat', N: 'Necromobile', M: 'Militant',
};
/** The core's role name → role letter. */
export const ROLE_LETTERS = Object.fromEntries(Object.entries(ROLE_NAMES).map(([k, v]) => [v, k]));
/** The maze (R1.2). */
export const MAZE = 'e5';

/**
 * @typedef {{role: string, army: string}} LivePiece  role letter and army letter
 * @typedef {{corpse: true}} Corpse
 * @typedef {LivePiece | Corpse} Cell
 * @typedef {Record<string, Cell>} Board  occupied squares only, keyed by square name
 */

/** @param {number} file 0–8 @param {number} rank 0–8 */
export function squareName(file, rank) {
  return FILES[file] + String(rank + 1);
}

/** @param {string} sq @returns {{file: number, rank: number}} */
export function squareCoords(sq) {
  if (!isSquare(sq)) throw new Error(`not a square: ${sq}`);
  return { file: FILES.indexOf(sq[0]), rank: Number(sq[1]) - 1 };
}

/** @param {unknown} sq */
export function isSquare(sq) {
  return typeof sq === 'string' && /^[a-i][1-9]$/.test(sq);
}

/** Every square, a1 b1 … i9. */
export const SQUARES = Array.from({ length: 81 }, (_, i) => squareName(i % 9, Math.floor(i / 9)));

/**
 * Reads the board field of a DPN (ranks 9 down to 1, files a to i).
 * @param {string} field
 * @returns {Board}
 */
export function parseBoard(field) {
  const ranks = field.split('/');
  if (ranks.length !== 9) throw new Error(`board: expected 9 ranks, found ${ranks.length}`);
  /** @type {Board} */
  const board = {};
  ranks.forEach((text, i) => {
    const rank = 8 - i;
    let file = 0;
    let lastDigit = false;
    for (let k = 0; k < text.length; k++) {
      const c = text[k];
      if (c >= '1' && c <= '9') {
        if (lastDigit) throw new Error(`board: two digits in a row in rank ${rank + 1}`);
        file += Number(c);
        lastDigit = true;
        continue;
      }
      lastDigit = false;
      if (file > 8) throw new Error(`board: rank ${rank + 1} is longer than 9 squares`);
      if (c === 'X') {
        board[squareName(file, rank)] = { corpse: true };
      } else if (ROLES.includes(c) && ARMIES.includes(text[k + 1])) {
        board[squareName(file, rank)] = { role: c, army: text[k + 1] };
        k++;
      } else {
        throw new Error(`board: unknown letter ${JSON.stringify(c)} in rank ${rank + 1}`);
      }
      file++;
    }
    if (file !== 9) throw new Error(`board: rank ${rank + 1} describes ${file} squares, not 9`);
  });
  return board;
}

/**
 * Writes a board back as a DPN board field.
 * @param {Board} board
 */
export function boardField(board) {
  const ranks = [];
  for (let rank = 8; rank >= 0; rank--) {
    let text = '';
    let empty = 0;
    for (let file = 0; file < 9; file++) {
      const cell = board[squareName(file, rank)];
      if (!cell) {
        empty++;
        continue;
      }
      if (empty) text += String(empty);
      empty = 0;
      text += 'corpse' in cell ? 'X' : cell.role + cell.army;
    }
    if (empty) text += String(empty);
    ranks.push(text);
  }
  return ranks.join('/');
}

/**
 * @typedef {object} Position
 * @property {Board} board
 * @property {string | null} toMove        null when the game is over
 * @property {Record<string, string | null>} control  army → controlling player, 'h' (hostage) or null (orphaned)
 * @property {string | null} lastRegular
 * @property {number} bonus
 * @property {string[]} passed
 * @property {number} quiet
 * @property {number} turn
 */

/**
 * Reads a whole DPN line. Lenient beyond the board: the server has already validated it.
 * @param {string} dpn
 * @returns {Position}
 */
export function parseDpn(dpn) {
  const f = String(dpn).split(' ');
  if (f.length !== 8) throw new Error(`position: expected 8 fields, found ${f.length}`);
  /** @type {Record<string, string | null>} */
  const control = {};
  ARMIES.forEach((a, i) => {
    const c = f[2][i];
    control[a] = c === '-' || c === undefined ? null : c;
  });
  return {
    board: parseBoard(f[0]),
    toMove: f[1] === '-' ? null : f[1],
    control,
    lastRegular: f[3] === '-' ? null : f[3],
    bonus: Number(f[4]),
    passed: f[5] === '-' ? [] : f[5].split(''),
    quiet: Number(f[6]),
    turn: Number(f[7]),
  };
}

/**
 * The players alive in a position: their chief is on the board and their army is no hostage.
 * @param {Position} pos
 */
export function livingPlayers(pos) {
  return ARMIES.filter((a) => {
    if (pos.control[a] === 'h') return false;
    return Object.values(pos.board).some((c) => !('corpse' in c) && c.role === 'C' && c.army === a);
  });
}

/**
 * The ruler: the player whose living chief stands on the maze (R7.1), or null.
 * @param {Position} pos
 */
export function rulerOf(pos) {
  const c = pos.board[MAZE];
  if (!c || 'corpse' in c || c.role !== 'C' || pos.control[c.army] === 'h') return null;
  return c.army;
}

/**
 * The board a complete turn leads to, for previewing the turn before it is sent. It moves
 * pieces as the turn text says (NOTATION §3), from the roles of the pieces involved; it does not
 * judge legality and ignores what follows the move (encirclement): the server decides all that.
 * @param {Board} board
 * @param {{from: string | null, to: string | null, victim?: string | null, exit?: string | null, place?: string | null}} t
 * @returns {Board}
 */
export function previewBoard(board, t) {
  const next = { ...board };
  if (!t.from || !t.to) return next;
  const mover = board[t.from];
  if (!mover || 'corpse' in mover) return next;
  const target = board[t.to];
  delete next[t.from];
  const end = t.exit || t.to;
  if (mover.role === 'A' && target && !('corpse' in target)) {
    // The Assassin's victim goes to the Assassin's start square (R4.3).
    delete next[t.to];
    next[t.from] = { corpse: true };
  } else if (target && (mover.role === 'C' || mover.role === 'M')) {
    delete next[t.to];
    if (t.place) next[t.place] = { corpse: true };
  } else if (target && (mover.role === 'D' || mover.role === 'N')) {
    delete next[t.to];
    if (t.place) next[t.place] = target;
  }
  next[end] = mover;
  if (t.victim && mover.role === 'R') next[t.victim] = { corpse: true };
  return next;
}
