// After the game, a rematch (PROTOCOL §6.7): any of its people asks, the server sets up the
// same table with the seats rotated, and every page shows the offer. A player joins with one
// click: their new seat is claimed with the token of their seat here.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { claimSeat } from '../api.js';
import { saveSeat } from '../shared/tokens.js';

/**
 * @typedef {object} RematchContext
 * @property {any} g                 the game (its `rematch`, once offered)
 * @property {string | null} me      this page's seat
 * @property {boolean} online
 * @property {(type: string, fields?: object) => void} command
 * @property {() => void} join       take this page's seat in the rematch
 * @property {boolean} joining       the join is under way
 */

/** @param {any} g @param {string} p */
function nameOf(g, p) {
  const s = (g.seats || []).find((/** @type {any} */ x) => x.player === p);
  return s && s.name ? s.name : t(`player.${p}`);
}

/**
 * The rematch card under a finished game: ask for one, the offer with its "Join" button, or
 * (for spectators) a link to watch it. Null when there is nothing to say.
 * @param {RematchContext} c
 * @returns {HTMLElement | null}
 */
export function rematchBox(c) {
  const { g, me } = c;
  if (!g.result) return null;
  const offer = g.rematch;
  if (!offer) {
    if (!me) return null;
    return h('div', { class: 'request rematch', role: 'status' },
      h('span', { text: t('rematch.ask_help') }),
      h('span', { class: 'request-actions' },
        h('button', {
          type: 'button', class: 'btn btn-small btn-primary ask-rematch', disabled: !c.online,
          text: t('rematch.ask'), onclick: () => c.command('rematch'),
        })));
  }
  const href = `/game/${encodeURIComponent(offer.game)}`;
  if (!me || !offer.seats[me]) {
    return h('div', { class: 'request rematch', role: 'status' },
      h('span', { text: t('rematch.offered_watch', { by: nameOf(g, offer.by) }) }),
      h('span', { class: 'request-actions' }, h('a', { class: 'btn btn-small watch-rematch', href, text: t('rematch.watch') })));
  }
  const seat = t(`player.${offer.seats[me]}`);
  const text = offer.by === me ? t('rematch.offered_you', { seat }) : t('rematch.offered', { by: nameOf(g, offer.by), seat });
  return h('div', { class: 'request rematch', role: 'status' },
    h('span', { text }),
    h('span', { class: 'request-actions' },
      h('button', {
        type: 'button', class: 'btn btn-small btn-primary join-rematch', disabled: c.joining,
        text: c.joining ? t('rematch.joining') : t('rematch.join'), onclick: () => c.join(),
      })));
}

/**
 * Takes this browser's seat in the rematch with the token of its seat in this game, keeps it,
 * and opens the new game. A seat this token already took (another tab) simply opens.
 * @param {{game: string, seats: Record<string, string>}} offer
 * @param {string} me     this page's seat here
 * @param {string} token  its token
 */
export async function joinRematch(offer, me, token) {
  let player = offer.seats[me];
  try {
    const seat = await claimSeat(offer.game, { token });
    player = seat.player;
  } catch (e) {
    // Taken with this token already (another tab): `seat_held`.
    if (!(e && ['seat_held', 'seat_taken'].includes(/** @type {any} */ (e).code))) throw e;
  }
  saveSeat(offer.game, { player, token });
  location.assign(`/game/${encodeURIComponent(offer.game)}`);
}
