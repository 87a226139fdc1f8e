// Turn entry as a small state machine over the `legal` map (PROTOCOL §3.4, expanded by wire.js): the player
// picks a piece, then its destination, then — only where the legal turns differ in them — the
// Reporter's victim, the maze exit and the placement square. Every state can only lead to turns the
// server listed, so an illegal turn cannot be entered. Pure: no DOM, unit-tested under Node.

/**
 * @typedef {object} TurnParts
 * @property {string} text    canonical turn text
 * @property {string | null} from
 * @property {string | null} to
 * @property {string | null} victim
 * @property {string | null} exit
 * @property {string | null} place
 */

/** The choices of a turn, in the order the player makes them (NOTATION §3). */
export const FIELDS = /** @type {const} */ (['from', 'to', 'victim', 'exit', 'place']);

const TURN_RE = /^([a-i][1-9])-([a-i][1-9])(?:x([a-i][1-9]))?(?:>([a-i][1-9]))?(?:@([a-i][1-9]))?$/;

/**
 * Splits canonical turn text into its choices.
 * @param {string} text
 * @returns {TurnParts | null} null for text that is no turn
 */
export function parseTurn(text) {
  if (text === 'pass') return { text, from: null, to: null, victim: null, exit: null, place: null };
  const m = TURN_RE.exec(text);
  if (!m) return null;
  return { text, from: m[1], to: m[2], victim: m[3] ?? null, exit: m[4] ?? null, place: m[5] ?? null };
}

/**
 * @typedef {object} PickerState
 * @property {TurnParts[]} turns  every legal turn
 * @property {{field: string, value: string | null}[]} path  the choices made so far
 */

/**
 * A fresh picker over the `legal` map of the player to move.
 * @param {Record<string, string[]> | null | undefined} legal
 * @returns {PickerState}
 */
export function createPicker(legal) {
  /** @type {TurnParts[]} */
  const turns = [];
  for (const [fromTo, suffixes] of Object.entries(legal || {})) {
    for (const suffix of suffixes) {
      const t = parseTurn(fromTo + suffix);
      if (t) turns.push(t);
    }
  }
  return { turns, path: [] };
}

/**
 * The legal turns still possible after the choices made.
 * @param {PickerState} st
 */
export function candidates(st) {
  return st.turns.filter((t) =>
    st.path.every((c) => /** @type {any} */ (t)[c.field] === c.value),
  );
}

/**
 * @typedef {object} Stage
 * @property {'from'|'to'|'victim'|'exit'|'place'|'done'|'none'} field  what to choose next
 *   ('none': no legal turn at all, 'done': the turn is complete)
 * @property {string[]} options   the squares that may be chosen, sorted
 * @property {boolean} allowNone  the choice may be left empty (a Reporter that kills nobody)
 * @property {boolean} canPass    `pass` is a legal turn
 * @property {string | null} turn the complete turn text when field is 'done'
 * @property {TurnParts | null} parts the complete turn when field is 'done'
 */

/**
 * What the player has to choose next.
 * @param {PickerState} st
 * @returns {Stage}
 */
export function stage(st) {
  const cands = candidates(st);
  const canPass = st.path.length === 0 && cands.some((t) => t.text === 'pass');
  const moves = cands.filter((t) => t.text !== 'pass');
  const base = { allowNone: false, canPass, turn: null, parts: null };
  if (moves.length === 0) return { ...base, field: 'none', options: [] };
  const last = st.path.length ? FIELDS.indexOf(/** @type {any} */ (st.path[st.path.length - 1].field)) : -1;
  for (let i = last + 1; i < FIELDS.length; i++) {
    const field = FIELDS[i];
    const values = new Set(moves.map((t) => t[field]));
    // Piece and destination are always chosen by hand; later choices only where they differ.
    if (values.size === 1 && i >= 2) continue;
    const options = [...values].filter((v) => v !== null).sort();
    return { ...base, field, options: /** @type {string[]} */ (options), allowNone: values.has(null) };
  }
  const t = moves[0];
  return { ...base, field: 'done', options: [], turn: t.text, parts: t };
}

/**
 * Makes the next choice: a square among the stage's options, or null where `allowNone`.
 * @param {PickerState} st
 * @param {string | null} value
 * @returns {PickerState | null} null when that choice is not allowed now
 */
export function choose(st, value) {
  const s = stage(st);
  if (s.field === 'done' || s.field === 'none') return null;
  if (value === null ? !s.allowNone : !s.options.includes(value)) return null;
  return { turns: st.turns, path: [...st.path, { field: s.field, value }] };
}

/**
 * Takes the last choice back.
 * @param {PickerState} st
 */
export function back(st) {
  return { turns: st.turns, path: st.path.slice(0, -1) };
}

/**
 * Forgets every choice.
 * @param {PickerState} st
 */
export function reset(st) {
  return { turns: st.turns, path: [] };
}

/**
 * The choice made for a field, if any (for highlighting).
 * @param {PickerState} st
 * @param {string} field
 */
export function chosen(st, field) {
  const c = st.path.find((p) => p.field === field);
  return c ? c.value : undefined;
}

/**
 * The squares that have a legal turn starting on them.
 * @param {PickerState} st
 */
export function movableSquares(st) {
  return [...new Set(st.turns.map((t) => t.from).filter((f) => f !== null))].sort();
}

/**
 * Convenience for pointer and keyboard input: what a click on `square` does in this state.
 * A click on a piece that can move, while choosing a destination it is not, re-selects that piece.
 * A click on the chosen destination while choosing the Reporter's victim chooses nothing: killing
 * nobody is asked for with its own button (`choose(st, null)`), never guessed from a second click.
 * @param {PickerState} st
 * @param {string} square
 * @returns {PickerState | null} the next state, or null when the click means nothing
 */
export function click(st, square) {
  const s = stage(st);
  if (s.options.includes(square)) return choose(st, square);
  if ((s.field === 'from' || s.field === 'to' || s.field === 'done') && movableSquares(st).includes(square)) {
    if (chosen(st, 'from') === square && st.path.length === 1) return reset(st);
    return choose(reset(st), square);
  }
  return null;
}
