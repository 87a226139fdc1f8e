// What the people at the table may do besides playing turns (PROTOCOL §6): the clocks' times,
// who is away, who may open or answer a vote on an absent player, who may ask for or answer a
// takeback. Pure (no DOM): the page decides what to show from these, the server decides the rest
// (a button shown in a race is answered with an error, never acted on wrongly).

/**
 * A seat of the game, or undefined.
 * @param {any} g @param {string | null | undefined} player
 */
export function seatOf(g, player) {
  return player ? g.seats.find((/** @type {any} */ s) => s.player === player) : undefined;
}

/**
 * The level of the bot playing a seat, or null when a person (or nobody) plays it.
 * @param {any} g @param {string | null | undefined} player
 * @returns {string | null}
 */
export function botLevel(g, player) {
  const s = seatOf(g, player);
  return s && s.bot ? String(s.bot) : null;
}

/**
 * Each seat's time left on a live clock at `now` (server time, ms), the running one counted
 * down from `since` (PROTOCOL §6.3); never below zero. Null without a live clock.
 * @param {any} clock  the state's `clock` field
 * @param {number} now
 * @returns {Record<string, number> | null}
 */
export function liveTimes(clock, now) {
  if (!clock || clock.kind !== 'live' || !clock.remaining_ms) return null;
  /** @type {Record<string, number>} */
  const out = {};
  for (const [p, ms] of Object.entries(clock.remaining_ms)) {
    // On a player's first turn their clock has not started (PROTOCOL §6.3).
    const running = clock.running === p && typeof clock.since === 'number' && !clock.first_turn;
    out[p] = Math.max(0, Number(ms) - (running ? Math.max(0, now - clock.since) : 0));
  }
  return out;
}

/**
 * The time left before the running turn's deadline at `now` (server time, ms), for either kind
 * of clock; null when no clock runs.
 * @param {any} clock @param {number} now
 * @returns {number | null}
 */
export function deadlineLeft(clock, now) {
  if (!clock || !clock.running || typeof clock.deadline !== 'number') return null;
  return Math.max(0, clock.deadline - now);
}

/**
 * A live clock's face: "9:05", "1:02:03"; under ten seconds with tenths ("7.4").
 * @param {number} ms
 */
export function formatClock(ms) {
  const v = Math.max(0, ms);
  if (v < 10_000) return (Math.floor(v / 100) / 10).toFixed(1);
  const s = Math.floor(v / 1000);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/**
 * A duration in its two largest units, for deadlines and absences: {d, h} above a day, {h, m}
 * above an hour, {m} above a minute, else {s}.
 * @param {number} ms
 * @returns {{unit: 'days'|'hours'|'minutes'|'seconds', d: number, h: number, m: number, s: number}}
 */
export function durationParts(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const unit = d ? 'days' : h ? 'hours' : m ? 'minutes' : 'seconds';
  return { unit, d, h, m, s: s % 60 };
}

/**
 * How long a seat's person has been away at `now` (server time, ms); null while connected, for
 * a bot's seat and for a seat nobody claimed.
 * @param {any} seat @param {number} now
 * @returns {number | null}
 */
export function awayFor(seat, now) {
  if (!seat || seat.connected || seat.bot || !seat.claimed || !seat.away_since) return null;
  const since = Date.parse(seat.away_since);
  return Number.isFinite(since) ? Math.max(0, now - since) : null;
}

/**
 * Whether the game runs on a correspondence clock (a deadline per turn, no votes: §6.4).
 * @param {any} g
 */
export function isCorrespondence(g) {
  const spec = g.settings && g.settings.clock;
  return Boolean((spec && 'per_turn_s' in spec) || (g.clock && g.clock.kind === 'correspondence'));
}

/**
 * The player `me` may open a vote on now (§6.4): the player to move, a living person away for
 * longer than the grace period, while `me` is a living person at the table, no vote is open and
 * the game has no correspondence clock. Null when there is none.
 * @param {any} g @param {string | null} me @param {number} now  server time, ms
 * @returns {string | null}
 */
export function voteTarget(g, me, now) {
  if (!me || g.result || g.status !== 'live' || g.vote || isCorrespondence(g)) return null;
  const target = g.to_move;
  if (!target || target === me || botLevel(g, me) || botLevel(g, target)) return null;
  const mine = seatOf(g, me);
  const theirs = seatOf(g, target);
  if (!mine || mine.alive === false || !theirs || theirs.alive === false) return null;
  const away = awayFor(theirs, now);
  const grace = (typeof g.absent_grace_s === 'number' ? g.absent_grace_s : 120) * 1000;
  return away !== null && away >= grace ? target : null;
}

/**
 * Whether `me` may answer the open vote: one of its voters who has not voted yet.
 * @param {any} g @param {string | null} me
 */
export function canAnswerVote(g, me) {
  const v = g.vote;
  return Boolean(me && v && !g.result && (v.voters || []).includes(me) && !(v.yes || []).includes(me) && !(v.no || []).includes(me));
}

/**
 * Whether `me` may ask to take back its last turn (§6.5): the last turn played was its own (only
 * passes after it) and not its bot's, nothing else happened since that the log cannot undo (a
 * resignation), no request is pending or was refused since that turn, and a person plays the
 * seat.
 * @param {any} g @param {string | null} me
 */
export function canAskTakeback(g, me) {
  if (!me || g.result || g.status !== 'live' || g.takeback || botLevel(g, me)) return false;
  const mine = seatOf(g, me);
  if (!mine || mine.alive === false) return false;
  const turns = g.turns || [];
  let i = turns.length - 1;
  while (i >= 0 && turns[i].turn === 'pass') i--;
  if (i < 0 || turns[i].player !== me) return false;
  // One request per turn: a refused one is not asked again before the next turn.
  if (g.takebackRefused && g.takebackRefused.of === me) return false;
  const after = turns[i].v;
  const since = (/** @type {any} */ e) => typeof e.v === 'number' && e.v > after;
  // A resignation after it cannot be taken back (the server would refuse); nor can a turn the
  // seat's bot played before the person took the seat back.
  return !(g.events || []).some((/** @type {any} */ e) => since(e)
    && (e.kind === 'resign' || (e.kind === 'seat_to_human' && e.player === me)));
}

/**
 * Whether `me` may answer the pending takeback request: a living person other than its author
 * who has not agreed yet (bots agree by themselves).
 * @param {any} g @param {string | null} me
 */
export function canAnswerTakeback(g, me) {
  const r = g.takeback;
  if (!me || !r || g.result || r.by === me || (r.accepted || []).includes(me) || botLevel(g, me)) return false;
  const mine = seatOf(g, me);
  return Boolean(mine && mine.alive !== false);
}
