// What the table is asked, under the turn banner: a draw offer, a vote on an absent player
// (PROTOCOL §6.4) and how it ended, a takeback request (§6.5) and a refusal, and — for a player
// whose seat a bot plays — the way to take it back. Each box has the buttons its viewer may use.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { isAlive } from '../board/model.js';
import { botLevelName, who } from '../board/panels.js';
import { durationText } from './clocks.js';
import { awayFor, botLevel, canAnswerTakeback, canAnswerVote, seatOf, voteTarget } from './table.js';
import { BOT_LEVELS, usualBotLevel } from '../shared/gameopts.js';

/**
 * @typedef {object} RequestContext
 * @property {any} g
 * @property {string | null} me
 * @property {boolean} online
 * @property {number} now   the server's time, ms
 * @property {(type: string, fields?: object) => void} command
 * @property {string | null} [voteLevel]   the level chosen for a vote to hand a seat to a bot
 * @property {(level: string) => void} [setVoteLevel]
 */

/**
 * Every box that applies now, in the order they matter.
 * @param {RequestContext} c
 * @returns {HTMLElement[]}
 */
export function requestBoxes(c) {
  if (c.g.result || c.g.status === 'cancelled') return [];
  return /** @type {HTMLElement[]} */ ([botSeatBox(c), voteBox(c), voteOpener(c), voteResult(c), takebackBox(c), takebackRefused(c), takebackLapsed(c), drawOfferBox(c)]
    .filter(Boolean));
}

/** @param {string} cls @param {string} text @param {() => void} onclick @param {boolean} disabled */
const button = (cls, text, onclick, disabled) =>
  h('button', { type: 'button', class: `btn btn-small ${cls}`, text, onclick, disabled });

/**
 * A seat of ours that a bot plays (after a timeout or a vote): take it back.
 * @param {RequestContext} c
 */
function botSeatBox(c) {
  const level = botLevel(c.g, c.me);
  if (!c.me || !level || !isAlive(c.g, c.me)) return null;
  return h('div', { class: 'request bot-seat', role: 'status' },
    h('span', { text: t('game.your_seat_bot', { level: botLevelName(level) }) }),
    h('span', { class: 'request-actions' },
      button('btn-primary reclaim', t('game.reclaim'), () => c.command('reclaim'), !c.online)));
}

/**
 * The open vote on an absent player: what it would do, the tally, yes/no for its voters.
 * @param {RequestContext} c
 */
function voteBox(c) {
  const v = c.g.vote;
  if (!v) return null;
  const text = v.action === 'resign'
    ? t('vote.open_resign', { by: who(c.g, v.by), target: who(c.g, v.target) })
    : t('vote.open_bot', { by: who(c.g, v.by), target: who(c.g, v.target), level: botLevelName(v.level || 'medium') });
  const voted = c.me && ((v.yes || []).includes(c.me) || (v.no || []).includes(c.me));
  return h('div', { class: 'request vote', role: 'status' },
    h('span', {},
      h('span', { text }), ' ',
      h('span', { class: 'vote-tally muted', text: t('vote.tally', { yes: (v.yes || []).length, no: (v.no || []).length, n: (v.voters || []).length }) }),
      voted ? h('span', { class: 'muted', text: ` ${t('vote.you_voted')}` }) : null),
    canAnswerVote(c.g, c.me) ? h('span', { class: 'request-actions' },
      button('btn-primary vote-yes', t('vote.yes'), () => c.command('vote_answer', { yes: true }), !c.online),
      button('vote-no', t('vote.no'), () => c.command('vote_answer', { yes: false }), !c.online)) : null);
}

/**
 * The player to move has been away past the grace period: offer to put it to the vote.
 * @param {RequestContext} c
 */
function voteOpener(c) {
  if (!c.online) return null;
  const target = voteTarget(c.g, c.me, c.now);
  if (!target) return null;
  // "More than" whole minutes, or the grace period: a figure that does not tick every second.
  const away = awayFor(seatOf(c.g, target), c.now) ?? 0;
  const grace = (typeof c.g.absent_grace_s === 'number' ? c.g.absent_grace_s : 120) * 1000;
  const shown = Math.max(grace, Math.floor(away / 60_000) * 60_000);
  // The bot would join the table's other bots: their level unless the voter chooses another.
  const level = c.voteLevel || usualBotLevel(c.g.seats, target);
  const select = h('select', {
    name: 'vote-level', class: 'select-small',
    onchange: () => { if (c.setVoteLevel) c.setVoteLevel(select.value); },
  }, ...BOT_LEVELS.map((l) => h('option', { value: l, selected: l === level, text: t('vote.bot_of_level', { level: botLevelName(l) }) })));
  return h('div', { class: 'request vote-open', role: 'status' },
    h('span', { text: t('vote.away', { who: who(c.g, target), time: durationText(shown) }) }),
    h('span', { class: 'request-actions' },
      h('label', { class: 'vote-level' }, h('span', { class: 'visually-hidden', text: t('vote.level') }), select),
      button('btn-primary vote-bot', t('vote.ask_bot'), () => c.command('vote', { target, action: 'bot', level: select.value }), false),
      button('vote-resign', t('vote.ask_resign'), () => c.command('vote', { target, action: 'resign' }), false)));
}

/**
 * How the last vote ended (until the next turn).
 * @param {RequestContext} c
 */
function voteResult(c) {
  const r = c.g.voteResult;
  if (!r) return null;
  let text;
  if (!r.passed) text = t('vote.failed', { target: who(c.g, r.target) });
  else if (r.action === 'resign') text = t('vote.passed_resign', { target: who(c.g, r.target) });
  else text = t('vote.passed_bot', { target: who(c.g, r.target), level: botLevelName(r.level || 'medium') });
  return h('div', { class: ['request', 'vote-result', r.passed ? 'passed' : 'failed'], role: 'status', text });
}

/**
 * A pending takeback request: who asks, and agree/refuse for those who answer.
 * @param {RequestContext} c
 */
function takebackBox(c) {
  const r = c.g.takeback;
  if (!r) return null;
  return h('div', { class: 'request takeback', role: 'status' },
    h('span', { text: r.by === c.me ? t('takeback.asked_you') : t('takeback.asked_by', { who: who(c.g, r.by) }) }),
    canAnswerTakeback(c.g, c.me) ? h('span', { class: 'request-actions' },
      button('btn-primary takeback-yes', t('takeback.agree'), () => c.command('takeback_answer', { yes: true }), !c.online),
      button('takeback-no', t('takeback.refuse'), () => c.command('takeback_answer', { yes: false }), !c.online)) : null);
}

/**
 * A takeback request that lapsed because the next turn was played (said until the turn after).
 * @param {RequestContext} c
 */
function takebackLapsed(c) {
  const r = c.g.takebackLapsed;
  if (!r) return null;
  return h('div', { class: 'request takeback-lapsed', role: 'status', text: t('takeback.lapsed', { who: who(c.g, r.of), by: who(c.g, r.by) }) });
}

/**
 * A takeback that was refused (until the next turn).
 * @param {RequestContext} c
 */
function takebackRefused(c) {
  const r = c.g.takebackRefused;
  if (!r) return null;
  return h('div', { class: 'request takeback-refused', role: 'status', text: t('takeback.refused', { who: who(c.g, r.by) }) });
}

/**
 * A pending draw offer, with accept/decline for the living players who have not agreed.
 * @param {RequestContext} c
 */
function drawOfferBox(c) {
  const offer = c.g.draw_offer;
  if (!offer) return null;
  const accepted = Array.isArray(offer.accepted) ? offer.accepted : [offer.by];
  const canAnswer = c.me && isAlive(c.g, c.me) && !accepted.includes(c.me) && !botLevel(c.g, c.me);
  return h('div', { class: 'draw-offer', role: 'status' },
    h('span', { text: offer.by === c.me ? t('game.you_offered') : t('game.draw_offered_by', { who: who(c.g, offer.by) }) }),
    canAnswer ? h('span', { class: 'draw-actions' },
      button('btn-primary accept-draw', t('game.accept'), () => c.command('accept_draw'), !c.online),
      button('decline-draw', t('game.decline'), () => c.command('decline_draw'), !c.online)) : null);
}
