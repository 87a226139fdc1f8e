// The game page's side of the recap (recap.js): the events go through it in order, each turn
// since the person's last one has its moment on the board, its sentence is said in the
// narration log (every sentence, in order, not only the last) and written in the numbered list
// under the board that matches the numbers on the board; the person learns plainly when they are
// out, and by whom (outnotice.js).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { narrate } from '../board/narrate.js';
import { isAlive, travels } from '../board/model.js';
import { TurnRecap, turnsSince } from './recap.js';
import { eliminationText, outNoticeCard } from './outnotice.js';
import { playTurnSound } from '../shared/alerts.js';
import { motionFactor } from '../shared/settings.js';

/** The recap's pace: the animation speed chosen (a turn's moment at normal speed is 1; the
 * system's reduced motion does not hurry it, it only stops the pieces sliding). */
const recapPace = motionFactor;

/** Sentences kept in the narration log (older ones were read already). */
const LOG_KEEP = 12;

/**
 * @typedef {object} RecapViewContext
 * @property {() => any} game
 * @property {() => string | null} me              the person's seat, or null for a watcher
 * @property {(animate: {from: string, to: string, flash?: boolean}[]) => void} onStep  a turn's
 *   moment: draw the board (with its piece moving), the banner and the list
 * @property {() => void} onIdle                   every turn is shown: draw the live game
 */

export class RecapView {
  /** @param {RecapViewContext} c */
  constructor(c) {
    this.c = c;
    /** Every event's sentence, appended in order, for screen readers. */
    this.log = h('div', { class: 'visually-hidden narration', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions' });
    /** The turns marked on the board, numbered, as sentences. */
    this.list = h('section', { class: 'recap', 'aria-labelledby': 'recap-title', hidden: true });
    /** What tells the person they are out, by the version of the event that did it. @type {Map<number, string>} */
    this.outTexts = new Map();
    /** The message shown now. @type {string | null} */
    this.notice = null;
    /** Where it is shown (above the banner): drawn once, so that it is announced once. */
    this.noticeSlot = h('div', { class: 'notice-slot' });
    this.recap = new TurnRecap({ onStep: (item) => this.step(item), onIdle: () => c.onIdle(), pace: recapPace });
  }

  /** Whether the person plays a seat still in the game (else they watch the last round). */
  playing() {
    const g = this.c.game();
    const me = this.c.me();
    return Boolean(g && me && isAlive(g, me));
  }

  /** How many turns stay marked: all since the person's last one, or a watcher's last round. */
  limit() {
    const g = this.c.game();
    if (this.playing()) return null;
    return g ? Math.max(1, g.seats.filter((/** @type {any} */ s) => s.alive !== false).length) : 4;
  }

  /**
   * Whether an event is the person's own turn (shown at once; it ends the recap).
   * @param {any} ev
   */
  isMine(ev) {
    const me = this.c.me();
    return Boolean(me && ev.kind === 'turn' && ev.player === me);
  }

  /**
   * An event came (applied to the game already). The person's own turn clears the marks and is
   * said at once; any other event waits for its moment.
   * @param {number} v @param {any} ev
   */
  event(v, ev) {
    this.recap.setLimit(this.limit());
    if (this.isMine(ev)) {
      this.recap.clear();
      this.say(narrate(t, ev));
      this.renderList();
      return;
    }
    if (ev.kind === 'taken_back') this.recap.dropUndone(ev.undone || []);
    const me = this.c.me();
    const g = this.c.game();
    if (me && g) {
      const text = eliminationText(t, ev, me, this.before(g, v));
      if (text) this.outTexts.set(v, text);
    }
    this.recap.push(v, ev);
  }

  /**
   * The event before version `v`, with what a closing vote was about (its event does not say).
   * @param {any} g @param {number} v
   */
  before(g, v) {
    const i = g.events.findIndex((/** @type {any} */ e) => e.v === v);
    const prev = i > 0 ? g.events[i - 1] : null;
    if (prev && prev.kind === 'vote_closed' && g.voteResult) {
      return { ...prev, target: g.voteResult.target, passed: g.voteResult.passed && g.voteResult.action === 'resign' };
    }
    return prev;
  }

  /** A page opening on a game in progress (its events loaded): mark the turns since ours. */
  seed() {
    const g = this.c.game();
    if (!g) return;
    this.recap.setLimit(this.limit());
    this.recap.seed(turnsSince(g.events, this.playing() ? this.c.me() : null, this.limit() || 4));
    this.renderList();
  }

  /** A new snapshot: what was marked or waiting belonged to the old copy of the game. */
  reset() {
    this.recap.finish();
    this.recap = new TurnRecap({ onStep: (item) => this.step(item), onIdle: () => this.c.onIdle(), pace: recapPace });
    this.renderList();
  }

  /** Redraws its text after a language change. */
  relabel() {
    this.renderList();
    this.renderNotice();
  }

  /** Shows whatever is waiting at once (the person wants to play). */
  skip() {
    this.recap.finish();
  }

  /** What the board needs: the marks, and the position of a turn shown while others wait. */
  view() {
    return { event: this.recap.showing(), turns: this.recap.marks() };
  }

  /** Whether turns are still waiting for their moment (the game's result waits with them). */
  behind() {
    return this.recap.behind();
  }

  /** Draws the message that the person is out (after a language change too), or nothing. */
  renderNotice() {
    const g = this.c.game();
    if (!this.notice || !g) {
      replace(this.noticeSlot);
      return;
    }
    replace(this.noticeSlot, outNoticeCard({
      text: this.notice, over: Boolean(g.result),
      onWatch: () => {
        this.notice = null;
        this.renderNotice();
      },
    }));
  }

  // ---- inside ----

  /** @param {import('./recap.js').RecapItem} item */
  step(item) {
    this.say(narrate(t, item.event));
    // A turn's moment on the board: its sound (a move, or a kill).
    if (item.position) playTurnSound(item.event);
    const out = this.outTexts.get(item.v);
    if (out) {
      this.outTexts.delete(item.v);
      this.notice = out;
      this.renderNotice();
    }
    const animate = item.position ? travels(item.event) : [];
    // After the page's own drawing of this event, if it comes in the same task.
    queueMicrotask(() => {
      this.renderList();
      if (item.position) this.c.onStep(animate);
    });
  }

  /** Appends a sentence to the narration log. @param {string} text */
  say(text) {
    if (!text) return;
    this.log.append(h('p', { text }));
    while (this.log.childElementCount > LOG_KEEP) this.log.firstElementChild?.remove();
  }

  /** The numbered list of the marked turns, under the board (and the message's button, once the game is over). */
  renderList() {
    const g = this.c.game();
    // Watching on makes no sense once the game is over: the button only closes the message.
    const watch = this.noticeSlot.querySelector('.watch-on');
    if (watch && g && g.result) watch.textContent = t('out.close');
    const marks = this.recap.marks();
    const events = this.recap.events();
    this.list.hidden = marks.length === 0;
    if (!marks.length) {
      replace(this.list);
      return;
    }
    const title = this.playing() ? t('recap.since_yours') : t('recap.last_turns');
    replace(this.list,
      h('h2', { id: 'recap-title', class: 'recap-title', text: title }),
      h('ol', { class: 'recap-list' }, ...marks.map((m, i) => h('li', {
        class: ['recap-row', `army-${m.player}`, m.active && 'active'], dataset: { n: String(m.n), player: m.player },
      },
      h('span', { class: `recap-num army-${m.player}`, 'aria-hidden': 'true', text: String(m.n) }),
      h('span', { class: 'recap-text', text: narrate(t, events[i]) })))));
  }
}
