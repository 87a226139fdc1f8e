// The turns since the person's own last turn, shown one after another (issue 19: bots answer in
// milliseconds, and three turns drawn at once read as one). Events are queued as they come —
// one by one, or in a burst after a reconnection — and each has its moment: its sentence is
// said and its position drawn, then the next one's. The turns stay marked, numbered in order,
// until the person plays (a watcher keeps the last round). The queue never skips a turn, and
// never holds up the person: `finish` shows what is left at once (a click on the board does).
// No DOM: the page draws from `showing()` and `marks()`; the timer can be replaced in tests.

import { MAZE } from '../board/dpn.js';

/** How long each turn is shown when turns queue up, ms. */
export const STEP_MS = 750;
/** The shortest moment of a turn when many are waiting (a long catch-up, bots alone), ms. */
export const MIN_STEP_MS = 200;
/** The moment of a pass, which changes nothing on the board, ms. */
const PASS_MS = 400;

/**
 * One turn (or resignation) as the board marks it: where the piece came from and went, and the
 * other squares it touched (a victim, a corpse laid down, a piece set down, an exit).
 * @typedef {object} TurnMark
 * @property {number} n          its number in the recap, from 1
 * @property {number} v          the event's version
 * @property {string} player     who played it
 * @property {string | null} from
 * @property {string | null} to
 * @property {string[]} at       the other squares it touched
 * @property {boolean} active    being shown now
 */

/**
 * @typedef {object} RecapItem
 * @property {number} v
 * @property {any} event
 * @property {boolean} position  a turn or resignation (marked on the board), else a note
 */

/**
 * Whether an event is marked as a turn of the recap: a turn or a resignation.
 * @param {any} ev
 */
export function isRecapTurn(ev) {
  return Boolean(ev) && (ev.kind === 'turn' || ev.kind === 'resign') && typeof ev.dpn === 'string';
}

/**
 * The squares of a turn for its mark (from its effects, PROTOCOL §3.5).
 * @param {any} ev
 * @returns {{from: string | null, to: string | null, at: string[]}}
 */
export function turnSquares(ev) {
  const fx = (ev && ev.effects) || [];
  const moved = fx.find((/** @type {any} */ e) => e.type === 'moved');
  const exited = fx.find((/** @type {any} */ e) => e.type === 'exited_maze');
  const from = moved ? moved.from : null;
  // A piece acting in the maze ends its turn on its exit.
  const to = exited ? exited.to : moved ? moved.to : null;
  const at = new Set();
  for (const e of fx) {
    if (e.type === 'killed' || e.type === 'resigned' || e.type === 'encircled') at.add(e.at);
    if (e.type === 'corpse_moved' || e.type === 'displaced') at.add(e.to);
  }
  if (exited && moved && moved.to === MAZE) at.add(MAZE);
  for (const sq of [from, to]) at.delete(sq);
  return { from, to, at: [...at].filter(Boolean) };
}

/**
 * The events to mark when a page opens on a game in progress: the turns since `me` last played
 * (for a watcher, or a player who is out, the last `round` turns).
 * @param {any[]} events  the game's events, oldest first, each with its `v`
 * @param {string | null} me  the person's seat while it is in the game, else null
 * @param {number} round
 * @returns {{v: number, event: any}[]}
 */
export function turnsSince(events, me, round) {
  const turns = events.filter(isRecapTurn);
  let start = Math.max(0, turns.length - round);
  if (me) {
    const mine = turns.map((e) => e.kind === 'turn' && e.player === me).lastIndexOf(true);
    start = mine + 1;
  }
  // A takeback ends what came before it: its position is not theirs.
  const undone = events.filter((e) => e.kind === 'taken_back').map((e) => e.v);
  const after = undone.length ? Math.max(...undone) : 0;
  return turns.slice(start).filter((e) => e.v > after).map((e) => ({ v: e.v, event: e }));
}

export class TurnRecap {
  /**
   * @param {object} o
   * @param {(item: RecapItem) => void} o.onStep  an item's moment came: say it, draw it
   * @param {() => void} o.onIdle                 everything queued has been shown
   * @param {() => number} [o.pace]  how long moments last against the normal pace (default 1)
   * @param {(fn: () => void, ms: number) => any} [o.schedule]
   * @param {(handle: any) => void} [o.cancel]
   */
  constructor(o) {
    this.onStep = o.onStep;
    this.onIdle = o.onIdle;
    this.schedule = o.schedule || ((fn, ms) => setTimeout(fn, ms));
    this.cancel = o.cancel || ((handle) => clearTimeout(handle));
    /** How long each moment lasts against the normal pace (the animation speed chosen). */
    this.pace = o.pace || (() => 1);
    /** The turns marked (shown already), oldest first. @type {RecapItem[]} */
    this.marked = [];
    /** Waiting for their moment. @type {RecapItem[]} */
    this.queue = [];
    /** The item whose moment it is. @type {RecapItem | null} */
    this.current = null;
    /** @type {any} */
    this.timer = null;
    /** How many turns a watcher keeps marked (null: all since the person's last turn). @type {number | null} */
    this.limit = null;
  }

  /**
   * How many turns stay marked: null for all since the person's own last turn; a number for a
   * watcher (the last round).
   * @param {number | null} n
   */
  setLimit(n) {
    this.limit = n;
    this.trim();
  }

  /**
   * Queues an event; its moment comes at once if nothing is being shown.
   * @param {number} v @param {any} event
   */
  push(v, event) {
    this.queue.push({ v, event, position: isRecapTurn(event) });
    if (!this.timer) this.next();
  }

  /**
   * Marks turns without their moments (a page opening on a game in progress), before the ones
   * marked or queued already.
   * @param {{v: number, event: any}[]} turns
   */
  seed(turns) {
    const first = [...this.marked, ...this.queue][0];
    const older = turns.filter((x) => !first || x.v < first.v).map((x) => ({ ...x, position: true }));
    this.marked = [...older, ...this.marked];
    this.trim();
  }

  /** Shows every queued item now (their sentences are still said, in order). */
  finish() {
    if (!this.timer && !this.queue.length) return;
    if (this.timer) this.cancel(this.timer);
    this.timer = null;
    while (this.queue.length) this.begin(/** @type {RecapItem} */ (this.queue.shift()));
    this.current = null;
    this.onIdle();
  }

  /** The person played: what came before is read, the marks go. */
  clear() {
    this.finish();
    this.marked = [];
    this.current = null;
  }

  /**
   * A takeback removed these turns: they are no longer marked (nor waiting).
   * @param {number[]} undone  their versions
   */
  dropUndone(undone) {
    const gone = new Set(undone);
    this.marked = this.marked.filter((x) => !gone.has(x.v));
    this.queue = this.queue.filter((x) => !gone.has(x.v));
  }

  /** Whether a turn is still waiting for its moment. */
  behind() {
    return this.queue.some((x) => x.position);
  }

  /**
   * The event whose position the board shows instead of the live one: the turn being shown
   * while later turns wait. Null when the board shows the live position.
   * @returns {any | null}
   */
  showing() {
    return this.current && this.current.position && this.behind() ? this.current.event : null;
  }

  /** The marks of the turns shown so far, numbered in order. @returns {TurnMark[]} */
  marks() {
    return this.marked.map((x, i) => ({
      n: i + 1, v: x.v, player: x.event.player, ...turnSquares(x.event), active: x === this.current,
    }));
  }

  /** The events marked so far, oldest first. */
  events() {
    return this.marked.map((x) => x.event);
  }

  // ---- inside ----

  /** The next turn's moment (notes before it are said at once), or idle. */
  next() {
    this.timer = null;
    for (;;) {
      const item = this.queue.shift();
      if (!item) {
        const was = this.current;
        this.current = null;
        if (was) this.onIdle();
        return;
      }
      this.begin(item);
      if (item.position) {
        this.timer = this.schedule(() => this.next(), this.momentOf(item));
        return;
      }
    }
  }

  /** @param {RecapItem} item */
  begin(item) {
    if (item.position) {
      this.marked.push(item);
      this.current = item;
      this.trim();
    }
    this.onStep(item);
  }

  /** How long a turn is shown: shorter as more wait. @param {RecapItem} item */
  momentOf(item) {
    // Slower or faster with the animation speed; with animations off each turn still has a
    // short moment, so that the turns can be followed one after another.
    const pace = this.pace();
    const scaled = (/** @type {number} */ ms) => Math.max(MIN_STEP_MS, Math.round(ms * pace));
    if (item.event.turn === 'pass') return scaled(PASS_MS);
    const waiting = this.queue.filter((x) => x.position).length;
    return waiting <= 3 ? scaled(STEP_MS) : Math.max(MIN_STEP_MS, Math.round((scaled(STEP_MS) * 3) / waiting));
  }

  /** A watcher keeps the last `limit` turns; never one still to be shown. */
  trim() {
    if (this.limit === null) return;
    while (this.marked.length > Math.max(1, this.limit)) this.marked.shift();
  }
}
