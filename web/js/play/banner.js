// The banner above (or beside) the board: the game's state in one card — waiting for players
// (with the creator's invite links), whose turn it is and their clock, the result, or why the
// game was cancelled — followed by what the table is asked (requests.js).

import { h, toast, copyText } from '../dom.js';
import { t } from '../i18n.js';
import { recordTextUrl, recordUrl } from '../api.js';
import { loadInvites } from '../shared/tokens.js';
import { gameOverCard, turnBanner } from '../board/panels.js';
import { armySwatch } from '../board/pieces.js';
import { deadlineNote, firstTurnNote, seatClock } from './clocks.js';
import { requestBoxes } from './requests.js';
import { rematchBox } from './rematch.js';

/**
 * @typedef {object} BannerExtra
 * @property {string} id
 * @property {boolean} started
 * @property {boolean} [holdResult]  turns before the end are still being shown: the result waits
 * @property {() => void} join        take this page's seat in the rematch
 * @property {boolean} joining        that is under way
 */

/**
 * @param {import('./requests.js').RequestContext & BannerExtra} c
 * @returns {HTMLElement[]}
 */
export function bannerContent(c) {
  const { g, id } = c;
  /** @type {HTMLElement[]} */
  const parts = [];
  if (g.status === 'cancelled') {
    parts.push(h('div', { class: 'card game-over cancelled', role: 'status' },
      h('h2', { text: t(g.cancelled === 'creator' ? 'game.cancelled_creator' : 'game.cancelled_expired') }),
      h('a', { class: 'btn btn-primary', href: '/', text: t('game.new_game') })));
  } else if (g.result) {
    // The result waits for the turn that ended the game to have its moment on the board.
    if (!c.holdResult) parts.push(gameOverCard(g, c.me, [
      h('a', { class: 'btn btn-primary', href: `/game/${id}/replay`, text: t('game.replay') }),
      h('a', { class: 'btn', href: recordUrl(id), download: `djambi-${id}.json`, text: t('game.download') }),
      h('a', { class: 'btn download-text', href: recordTextUrl(id), download: `djambi-${id}.txt`, text: t('game.download_text') }),
      h('a', { class: 'btn btn-ghost', href: '/', text: t('game.new_game') }),
    ]));
    const rematch = c.holdResult ? null : rematchBox(c);
    if (rematch) parts.push(rematch);
  } else if (!c.started) {
    parts.push(waiting(g, id));
  } else {
    const clock = g.to_move ? seatClock(g, g.to_move) || deadlineNote(g) : null;
    parts.push(turnBanner(g, c.me, clock ? h('span', { class: 'turn-clock' }, clock, firstTurnNote(g)) : null));
  }
  parts.push(...requestBoxes(c));
  return parts;
}

/**
 * Waiting for players: the free seats, and the creator's invite links for them.
 * @param {any} g @param {string} id
 */
function waiting(g, id) {
  const free = g.seats.filter((/** @type {any} */ s) => !s.claimed);
  // The creator's browser still has the invite links: offer them for the free seats.
  const invites = loadInvites(id).filter((i) => free.some((/** @type {any} */ s) => s.player === i.player));
  return h('div', { class: 'turn-banner waiting', role: 'status' },
    h('div', { class: 'turn-now' }, h('strong', { class: 'turn-title', text: t('game.waiting_players') })),
    h('div', { class: 'turn-next' },
      h('span', { class: 'muted', text: t('game.free_seats', { n: free.length }) }),
      ...free.map((/** @type {any} */ s) => armySwatch(s.player, 14))),
    g.open ? h('p', { class: 'muted small', text: t('game.open_hint') }) : null,
    invites.length ? h('ul', { class: 'waiting-invites' }, ...invites.map((i) => h('li', {},
      armySwatch(i.player, 14), h('span', { text: t(`player.${i.player}`) }),
      h('button', {
        type: 'button', class: 'btn btn-small copy-invite', dataset: { player: i.player },
        onclick: async () => toast((await copyText(i.invite_url)) ? t('common.copied') : t('common.copy_failed')),
      }, t('game.copy_invite'))))) : null);
}
