// The game's clocks on the page (PROTOCOL §6.3): a face per seat for live clocks, the time left
// before a correspondence turn's deadline, both ticking between the server's updates. The
// server's times are corrected by the offset measured from `pong.now`.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { timeLeftText } from '../shared/duration.js';
import { deadlineLeft, durationParts, formatClock, liveTimes } from './table.js';

/** Below this, a running live clock is shown as low on time. */
const LOW_MS = 30_000;

/**
 * A duration for people: "2 d 3 h", "5 h 12 min", "12 min", "45 s".
 * @param {number} ms
 */
export function durationText(ms) {
  const p = durationParts(ms);
  switch (p.unit) {
    case 'days': return p.h ? t('clock.days', { d: p.d, h: p.h }) : t('clock.days_only', { d: p.d });
    case 'hours': return p.m ? t('clock.hours', { h: p.h, m: p.m }) : t('clock.hours_only', { h: p.h });
    case 'minutes': return t('clock.minutes', { m: p.m });
    default: return t('clock.seconds', { s: p.s });
  }
}

/**
 * The clock of the game in one line, for the rules line: "Clock: 10 min + 5 s per turn".
 * Empty for a casual game.
 * @param {any} g
 */
export function clockSummary(g) {
  const spec = g.settings && g.settings.clock;
  if (spec && typeof spec.per_turn_s === 'number') return t('clock.summary_turn', { time: durationText(spec.per_turn_s * 1000) });
  if (spec && typeof spec.initial_s === 'number') {
    return t('clock.summary_live', { time: durationText(spec.initial_s * 1000), inc: spec.increment_s || 0 });
  }
  return '';
}

/**
 * A seat's live clock face (updated by a ClockTicker), or null when the game has no live clock.
 * @param {any} g @param {string} player
 */
export function seatClock(g, player) {
  if (!g.clock || g.clock.kind !== 'live') return null;
  return h('span', {
    class: 'clock', role: 'timer', dataset: { player },
    'aria-label': t('clock.of', { player: t(`player.${player}`) }),
  }, h('span', { class: 'clock-face', text: '' }));
}

/**
 * The time left to move under a correspondence clock (updated by a ClockTicker), or null.
 * @param {any} g
 */
export function deadlineNote(g) {
  if (!g.clock || g.clock.kind !== 'correspondence' || !g.clock.running || g.result) return null;
  return h('span', { class: 'deadline', role: 'timer', dataset: { player: g.clock.running } });
}

/**
 * On a player's first turn under a live clock: their clock has not started, and the turn has
 * its own allowance (PROTOCOL §6.3). Null otherwise.
 * @param {any} g
 */
export function firstTurnNote(g) {
  if (!g.clock || g.clock.kind !== 'live' || !g.clock.first_turn || !g.clock.running || g.result) return null;
  return h('span', { class: 'deadline first-turn', role: 'timer', dataset: { player: g.clock.running } });
}

/** A player's own running live clock is low (its warning sound) under this share of the time it
 * started with, or under LOW_FLOOR_MS, whichever comes first. */
const LOW_SHARE = 0.1;
const LOW_FLOOR_MS = 20_000;

/**
 * Whether `me`'s live clock is running and low now (under 10 % of its start or 20 s, whichever
 * comes first): the cue for the low-clock sound. False on a first turn (the clock has not
 * started) and without a live clock.
 * @param {any} g @param {string | null} me @param {number} now  server time, ms
 */
export function lowClock(g, me, now) {
  if (!me || !g || g.result || !g.clock || g.clock.kind !== 'live' || g.clock.running !== me || g.clock.first_turn) return false;
  const times = liveTimes(g.clock, now);
  if (!times || typeof times[me] !== 'number') return false;
  const spec = g.settings && g.settings.clock;
  const initial = spec && typeof spec.initial_s === 'number' ? spec.initial_s * 1000 : 0;
  return times[me] > 0 && times[me] < Math.max(initial * LOW_SHARE, LOW_FLOOR_MS);
}

/** Keeps every clock face under a root element ticking. */
export class ClockTicker {
  /**
   * @param {HTMLElement} root
   * @param {() => any} game       the current game (or null)
   * @param {() => number} offset  the server's clock minus ours, ms
   * @param {() => void} [onSecond] called about once a second (for decisions that depend on time)
   */
  constructor(root, game, offset, onSecond) {
    this.root = root;
    this.game = game;
    this.offset = offset;
    this.onSecond = onSecond;
    this.lastSecond = 0;
    /** @type {any} */
    this.timer = setInterval(() => this.tick(), 200);
  }

  /** The server's time now, as well as we know it. */
  now() {
    return Date.now() + this.offset();
  }

  /** Redraws every face now. */
  tick() {
    const g = this.game();
    if (!g) return;
    const now = this.now();
    const times = liveTimes(g.clock, now);
    const over = Boolean(g.result) || g.status === 'cancelled';
    for (const el of this.root.querySelectorAll('.clock[data-player]')) {
      const p = /** @type {HTMLElement} */ (el).dataset.player || '';
      const ms = times ? times[p] ?? 0 : 0;
      const running = !over && g.clock && g.clock.running === p;
      const face = el.querySelector('.clock-face');
      if (face) face.textContent = formatClock(ms);
      el.classList.toggle('running', Boolean(running));
      el.classList.toggle('low', Boolean(running) && ms < LOW_MS);
      el.classList.toggle('flag', ms <= 0 && !over);
    }
    for (const el of this.root.querySelectorAll('.deadline')) {
      const left = over ? null : deadlineLeft(g.clock, now);
      const first = el.classList.contains('first-turn');
      el.textContent = left === null ? '' : first
        ? t('clock.first_turn', { time: formatClock(left) })
        : t('clock.left', { time: timeLeftText(left, t) });
      // A correspondence deadline under an hour is pressing; a first turn's allowance is short anyway.
      el.classList.toggle('low', !first && left !== null && left < 60 * 60_000);
    }
    const second = Math.floor(Date.now() / 1000);
    if (second !== this.lastSecond) {
      this.lastSecond = second;
      if (this.onSecond) this.onSecond();
    }
  }

  /** Stops ticking (the page is left). */
  stop() {
    clearInterval(this.timer);
  }
}
