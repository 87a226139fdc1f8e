// The client's copy of a game (PROTOCOL §3.3) and how events change it (§3.5). It mirrors what
// the server says; where the server is silent (who is alive) it reads the DPN. Pure: unit-tested.

import { ARMIES, MAZE, livingPlayers, parseDpn } from './dpn.js';

/** The state fields the events that change what a board shows carry (PROTOCOL §3.5). */
const STATE_FIELDS = ['dpn', 'to_move', 'bonus', 'order', 'ruler', 'control', 'legal', 'result', 'ranking', 'clock'];

/** Events that change the position: the replay's steps. */
const MOVES = ['turn', 'resign', 'draw_agreed', 'taken_back'];

/**
 * Whether an event has a position of its own to show (a turn, a resignation, an agreed draw, a
 * takeback), rather than being a note (a draw offer, a vote, a bot taking a seat…).
 * @param {any} ev
 */
export function isPositionEvent(ev) {
  return Boolean(ev) && typeof ev.dpn === 'string' && MOVES.includes(ev.kind);
}

/**
 * Fills the fields a snapshot may leave out, so the rest of the client can rely on them.
 * @param {any} game
 */
export function normalizeGame(game) {
  const g = { ...game };
  // The snapshot may list every event (PROTOCOL §3.3) or only the turns; in that case the client
  // fetches the events (`GET /api/games/{id}/events`) and `historyLoaded` stays false until they
  // come.
  g.historyLoaded = Array.isArray(g.events) || !g.v;
  g.events = Array.isArray(g.events)
    ? g.events.map((/** @type {any} */ e, /** @type {number} */ i) => ({ ...e, v: typeof e.v === 'number' ? e.v : i + 1 }))
    : [];
  g.status = g.status || (g.result ? 'finished' : 'live');
  g.turns = Array.isArray(g.turns) ? g.turns : [];
  g.seats = Array.isArray(g.seats) ? g.seats.map((/** @type {any} */ s) => ({ ...s })) : [];
  g.chat = Array.isArray(g.chat) ? g.chat : [];
  g.legal = g.legal || {};
  g.order = Array.isArray(g.order) ? g.order : [];
  g.ranking = Array.isArray(g.ranking) ? g.ranking : [];
  g.eliminated = Array.isArray(g.eliminated) ? g.eliminated : [];
  g.spectators = typeof g.spectators === 'number' ? g.spectators : 0;
  g.draw_offer = g.draw_offer || null;
  g.vote = g.vote || null;
  g.takeback = g.takeback || null;
  g.voteResult = null;
  g.takebackRefused = null;
  g.takebackLapsed = null;
  g.clock = g.clock || null;
  g.result = g.result || null;
  return g;
}

/**
 * Applies one versioned event (§3.5) to the game, in place.
 * @param {any} g  a normalized game
 * @param {number} v
 * @param {any} ev
 */
export function applyEvent(g, v, ev) {
  g.v = v;
  if (!g.events.some((/** @type {any} */ e) => e.v === v)) g.events.push({ ...ev, v });
  // The events that change what a board shows carry the state after them (PROTOCOL §3.5),
  // whatever their kind: a new kind of event needs nothing here.
  if (typeof ev.dpn === 'string') {
    for (const k of STATE_FIELDS) if (k in ev) g[k] = ev[k];
    g.legal = g.legal || {};
    g.order = g.order || [];
    for (const fx of ev.effects || []) {
      if (fx.type === 'eliminated' && !g.eliminated.includes(fx.player)) g.eliminated.push(fx.player);
    }
    if (g.result) {
      g.legal = {};
      g.draw_offer = null;
      g.status = 'finished';
    }
  }
  // A takeback names the turns it removed.
  if (Array.isArray(ev.undone)) {
    const undone = new Set(ev.undone);
    g.turns = g.turns.filter((/** @type {any} */ x) => !undone.has(x.v));
  }
  // What the page shows besides the board: the turn list and the pending offer, vote and
  // takeback (the snapshot's `draw_offer`, `vote`, `takeback`).
  switch (ev.kind) {
    case 'turn':
      g.turns.push({ v, number: ev.number, player: ev.player, turn: ev.turn });
      // A pending takeback lapses with the next turn: kept to say so, until the turn after.
      g.takebackLapsed = g.takeback ? { of: g.takeback.by, by: ev.player } : null;
      g.takeback = null;
      g.vote = null;
      // A vote that handed a seat to a bot stays said while the bot plays it; others end here.
      if (!(g.voteResult && g.voteResult.passed && g.voteResult.action === 'bot')) g.voteResult = null;
      g.takebackRefused = null;
      break;
    case 'draw_offered':
      g.draw_offer = { by: ev.by, accepted: [ev.by] };
      break;
    case 'draw_accepted':
      if (g.draw_offer && !g.draw_offer.accepted.includes(ev.by)) g.draw_offer.accepted.push(ev.by);
      break;
    case 'draw_declined':
      g.draw_offer = null;
      break;
    case 'started':
      g.status = 'live';
      break;
    case 'seat_to_bot':
    case 'seat_to_human': {
      const seat = g.seats.find((/** @type {any} */ s) => s.player === ev.player);
      if (seat) seat.bot = ev.kind === 'seat_to_bot' ? ev.level : null;
      g.vote = null;
      if (ev.kind === 'seat_to_human' && g.voteResult && g.voteResult.target === ev.player) g.voteResult = null;
      break;
    }
    case 'taken_back': {
      g.takeback = null;
      g.takebackRefused = null;
      g.draw_offer = null;
      g.vote = null;
      break;
    }
    case 'vote_opened':
      g.vote = { by: ev.by, target: ev.target, action: ev.action, level: ev.level || null, voters: ev.voters || [], yes: [ev.by], no: [] };
      break;
    case 'vote_cast':
      if (g.vote) (ev.yes ? g.vote.yes : g.vote.no).push(ev.by);
      break;
    case 'vote_closed':
      // Kept for the page to say how the vote ended, until the next turn.
      g.voteResult = g.vote ? { target: g.vote.target, action: g.vote.action, level: g.vote.level, passed: Boolean(ev.passed) } : null;
      g.vote = null;
      break;
    case 'takeback_requested':
      g.takeback = { by: ev.by, accepted: [] };
      g.takebackRefused = null;
      g.takebackLapsed = null;
      break;
    case 'takeback_answered':
      if (g.takeback && ev.yes) g.takeback.accepted.push(ev.by);
      else {
        g.takebackRefused = g.takeback ? { of: g.takeback.by, by: ev.by } : null;
        g.takeback = null;
      }
      break;
    case 'cancelled':
      g.to_move = null;
      g.legal = {};
      g.order = [];
      g.draw_offer = null;
      g.status = 'cancelled';
      g.cancelled = ev.reason;
      break;
    default:
      break;
  }
  syncSeats(g);
}

/**
 * Adds an event from before the snapshot (history fetched after it), keeping events in order.
 * @param {any} g
 * @param {number} v
 * @param {any} ev
 */
export function addHistory(g, v, ev) {
  if (v > g.v || g.events.some((/** @type {any} */ e) => e.v === v)) return;
  g.events.push({ ...ev, v });
  g.events.sort((/** @type {any} */ a, /** @type {any} */ b) => a.v - b.v);
  if (g.events.length >= g.v) g.historyLoaded = true;
}

/**
 * Marks each seat alive or not from the position (a player is alive while its chief is).
 * @param {any} g
 */
export function syncSeats(g) {
  let alive;
  try {
    alive = livingPlayers(parseDpn(g.dpn));
  } catch {
    return;
  }
  for (const s of g.seats) s.alive = alive.includes(s.player);
}

/**
 * Applies a presence message (§3.2).
 * @param {any} g
 * @param {{seats?: {player: string, connected?: boolean, claimed?: boolean, name?: string | null, bot?: string | null, away_since?: string | null}[], spectators?: number, status?: string}} p
 */
export function applyPresence(g, p) {
  for (const s of p.seats || []) {
    const seat = g.seats.find((/** @type {any} */ x) => x.player === s.player);
    if (!seat) continue;
    if (typeof s.connected === 'boolean') seat.connected = s.connected;
    if (typeof s.claimed === 'boolean') seat.claimed = s.claimed;
    if ('name' in s) seat.name = s.name;
    // Who plays the seat (a bot's level, or null) and since when its person is away (§6).
    if ('bot' in s) seat.bot = s.bot;
    if ('away_since' in s) seat.away_since = s.away_since;
  }
  if (typeof p.spectators === 'number') g.spectators = p.spectators;
  if (typeof p.status === 'string') g.status = p.status;
}

/**
 * The controller of an army, normalized: a player letter, 'h' for the hostage, or null.
 * @param {any} g
 * @param {string} army
 */
export function controllerOf(g, army) {
  const c = g.control ? g.control[army] : undefined;
  if (c === undefined) {
    try { return parseDpn(g.dpn).control[army]; } catch { return null; }
  }
  return c === '-' || c === '' ? null : c;
}

/**
 * The armies a player controls.
 * @param {any} g
 * @param {string} player
 */
export function armiesOf(g, player) {
  return ARMIES.filter((a) => controllerOf(g, a) === player);
}

/**
 * The game's events that have a position after them (turns, resignations, an agreed draw),
 * each with its index in `g.events`.
 * @param {any} g
 * @returns {{index: number, event: any}[]}
 */
export function positions(g) {
  return g.events
    .map((/** @type {any} */ event, /** @type {number} */ index) => ({ index, event }))
    .filter((/** @type {{event: any}} */ e) => isPositionEvent(e.event));
}

/**
 * The squares to highlight for an event: where the piece came from and went, and every square
 * its kill, exit or placement touched.
 * @param {any} ev
 * @returns {string[]}
 */
export function touchedSquares(ev) {
  const out = new Set();
  for (const fx of (ev && ev.effects) || []) {
    switch (fx.type) {
      case 'moved': out.add(fx.from); out.add(fx.to); break;
      case 'killed': out.add(fx.at); break;
      case 'exited_maze': out.add(fx.to); break;
      case 'corpse_moved':
      case 'displaced': out.add(fx.from); out.add(fx.to); break;
      case 'resigned':
      case 'encircled': out.add(fx.at); break;
      default: break;
    }
  }
  return [...out];
}

/**
 * How pieces travelled in an event, for animation: each piece's final square and where it came
 * from (a piece leaving the maze slides from its start straight to its exit).
 * @param {any} ev
 * @returns {{from: string, to: string, flash?: boolean}[]}
 */
export function travels(ev) {
  const fx = (ev && ev.effects) || [];
  /** @type {{from: string, to: string, flash?: boolean}[]} */
  const out = [];
  const moved = fx.find((/** @type {any} */ e) => e.type === 'moved');
  const exited = fx.find((/** @type {any} */ e) => e.type === 'exited_maze');
  if (moved) out.push({ from: moved.from, to: exited ? exited.to : moved.to });
  for (const e of fx) {
    if (e.type === 'corpse_moved' || e.type === 'displaced') out.push({ from: e.from, to: e.to });
    if (e.type === 'killed' && !fx.some((/** @type {any} */ c) => c.type === 'corpse_moved' && c.from === e.at)) {
      out.push({ from: e.at, to: e.at, flash: true });
    }
    if (e.type === 'encircled' || e.type === 'resigned') out.push({ from: e.at, to: e.at, flash: true });
  }
  return out;
}

/**
 * Whether a player may still act in the game (resign, offer a draw).
 * @param {any} g
 * @param {string | null | undefined} player
 */
export function isAlive(g, player) {
  if (!player || g.result) return false;
  const seat = g.seats.find((/** @type {any} */ s) => s.player === player);
  if (seat && typeof seat.alive === 'boolean') return seat.alive;
  try { return livingPlayers(parseDpn(g.dpn)).includes(player); } catch { return false; }
}

/**
 * The coming turns for display: each with whether it is a bonus turn of the ruler.
 * @param {any} g
 * @returns {{player: string, bonus: boolean}[]}
 */
export function comingTurns(g) {
  const ruler = g.ruler || null;
  return (g.order || []).map((/** @type {string} */ p) => ({ player: p, bonus: ruler !== null && p === ruler }));
}

/**
 * The ruler, from the snapshot or, failing that, from the maze.
 * @param {any} g
 */
export function rulerOf(g) {
  if (g.ruler !== undefined) return g.ruler;
  try {
    const pos = parseDpn(g.dpn);
    const c = pos.board[MAZE];
    return c && !('corpse' in c) && c.role === 'C' && pos.control[c.army] !== 'h' ? c.army : null;
  } catch {
    return null;
  }
}

/**
 * The game as it stood at a position of its history, for the panels that describe it: who is
 * still in, who rules, who controls which army are read from that position's DPN; the result
 * and the ranking only at the last position (the replay's start is not the game's end).
 * @param {any} g  the game as it is now
 * @param {string} dpn  the position shown
 * @param {boolean} last  whether it is the game's latest position
 */
export function gameAt(g, dpn, last) {
  if (last) return g;
  const at = { ...g, dpn, ruler: undefined, control: undefined, result: null, ranking: [], draw_offer: null };
  at.seats = g.seats.map((/** @type {any} */ s) => ({ ...s }));
  syncSeats(at);
  return at;
}
