// Taking an invited seat: the invite link's token is the seat; the player chooses the name the
// others will see (POST /api/games/{id}/seats). The game starts when every seat is taken.

import { h, toast } from '../dom.js';
import { t } from '../i18n.js';
import { checkInvite, claimSeat, getGame } from '../api.js';
import { forgetSeat, saveSeat } from '../shared/tokens.js';
import { armySwatch } from '../board/pieces.js';
import { errorText, fieldError } from '../errors.js';
import { clearInvalid, markInvalid } from '../shared/invalid.js';
import { rememberName, savedName } from '../prefs.js';

/**
 * Opens an invite link (PROTOCOL §2, claim): the server first says which seat the link's token
 * opens (seats/check), so that a wrong or replaced link says so, with watching as the only way
 * on; a right link to a free seat asks for the name the others will see; a right link to a seat
 * already claimed opens at once if this browser holds it, else says who plays it on another
 * device and offers to play it from here too (the link is the seat) or to watch. Calls `done`
 * with the seat to play, or null to watch.
 * @param {HTMLElement} main
 * @param {string} id
 * @param {{player: string, token: string}} invite  the link's seat and token
 * @param {{player: string, token: string} | null} held  the seat this browser held before
 * @param {(seat: {player: string, token: string} | null) => void} done
 */
export function openInvite(main, id, invite, held, done) {
  getGame(id).then(async (g) => {
    const seat = (g.seats || []).find((/** @type {any} */ x) => x.player === invite.player);
    if (seat && seat.claimed && held && held.player === invite.player) {
      // Claimed from this browser already (with this token, or with the newer one an open
      // game's claim gave): keep what we hold.
      done(held);
      return;
    }
    /** @type {string | null | undefined} */
    let opens;
    try {
      opens = (await checkInvite(id, invite.token)).player;
    } catch {
      opens = undefined; // not known (offline, or too many wrong tokens): the claim will tell
    }
    if (opens === null || (opens && opens !== invite.player)) {
      forgetSeat(id);
      showInvalid(main, invite, done);
    } else if (!seat || !seat.claimed) {
      showClaim(main, id, invite, seat && seat.name ? seat.name : '', done);
    } else {
      showTaken(main, invite, seat.name || '', done);
    }
  }).catch((/** @type {any} */ err) => {
    // No such game: the page says so. Otherwise ask for the name; the claim will tell.
    if (err && (err.code === 'not_found' || err.code === 'bad_request')) done(null);
    else showClaim(main, id, invite, '', done);
  });
}

/**
 * The claim form: the name to play under.
 * @param {HTMLElement} main @param {string} id @param {{player: string, token: string}} seat
 * @param {string} preset  the name the creator gave the seat, if any
 * @param {(seat: {player: string, token: string} | null) => void} done
 */
function showClaim(main, id, seat, preset, done) {
  const input = h('input', {
    type: 'text', id: 'claim-name', maxlength: '32', required: true, value: savedName() || preset, autocomplete: 'nickname',
    oninput: () => clearInvalid(input),
  });
  const label = h('label', { class: 'field' }, h('span', { text: t('claim.name') }), input);
  const form = h('form', {
    class: 'card claim', 'aria-labelledby': 'claim-title',
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) return;
      rememberName(name);
      /** @type {{player: string, token: string} | null} */
      let result = seat;
      try {
        const res = await claimSeat(id, { name, token: seat.token });
        result = res && res.token ? { player: res.player || seat.player, token: res.token } : seat;
        saveSeat(id, result);
      } catch (err) {
        const code = /** @type {any} */ (err).code;
        if (code === 'bad_token') {
          // The link stopped working meanwhile (the creator replaced it).
          form.remove();
          forgetSeat(id);
          showInvalid(main, seat, done);
          return;
        }
        if (code === 'seat_taken' || code === 'seat_held') {
          // Someone claimed it first: say who, instead of carrying on under a name nobody sees.
          form.remove();
          const g = await getGame(id).catch(() => null);
          const taken = g && (g.seats || []).find((/** @type {any} */ x) => x.player === seat.player);
          showTaken(main, seat, taken && taken.name ? taken.name : '', done);
          return;
        }
        const reason = fieldError(err);
        if (code === 'bad_request' && reason.field === 'name' && reason.text) {
          // The name refused (reserved, taken at this table): say why under it.
          markInvalid(input, reason.text, label);
          input.focus();
          return;
        }
        toast(errorText(err), 'error');
        if (code === 'not_found') {
          forgetSeat(id);
          result = null;
        } else {
          return;
        }
      }
      form.remove();
      done(result);
    },
  },
  h('h1', { id: 'claim-title' }, armySwatch(seat.player, 24), h('span', { text: t('claim.title', { player: t(`player.${seat.player}`) }) })),
  h('p', { text: t('claim.body') }),
  label,
  h('button', { type: 'submit', class: 'btn btn-primary btn-wide', text: t('claim.take') }));
  main.prepend(form);
  input.focus();
}

/**
 * The link's token opens no seat (mistyped, or the creator replaced it): it says so, and the
 * only way on is to watch.
 * @param {HTMLElement} main @param {{player: string, token: string}} seat
 * @param {(seat: {player: string, token: string} | null) => void} done
 */
function showInvalid(main, seat, done) {
  const card = h('section', { class: 'card claim invite-invalid', 'aria-labelledby': 'invalid-title', role: 'alert' },
    h('h1', { id: 'invalid-title', text: t('claim.invalid_title') }),
    h('p', { text: t('claim.invalid_body') }),
    h('div', { class: 'action-row' },
      h('button', {
        type: 'button', class: 'btn btn-primary watch-taken', text: t('game.watch'),
        onclick: () => { card.remove(); done(null); },
      })));
  main.prepend(card);
  const first = card.querySelector('button');
  if (first) first.focus();
}

/**
 * The seat is held with this very link on another device: by whom, and the choice to play it
 * from here too or to watch.
 * @param {HTMLElement} main @param {{player: string, token: string}} seat @param {string} name
 * @param {(seat: {player: string, token: string} | null) => void} done
 */
function showTaken(main, seat, name, done) {
  const player = t(`player.${seat.player}`);
  const shown = name || player;
  const card = h('section', { class: 'card claim seat-taken seat-held', 'aria-labelledby': 'taken-title', role: 'alert' },
    h('h1', { id: 'taken-title' }, armySwatch(seat.player, 24), h('span', { text: t('game.seat_taken_title', { player }) })),
    h('p', { text: t('game.seat_taken_body', { name: shown }) }),
    h('div', { class: 'action-row' },
      h('button', {
        type: 'button', class: 'btn btn-primary play-taken', text: t('game.play_as', { name: shown }),
        onclick: () => { card.remove(); done(seat); },
      }),
      h('button', {
        type: 'button', class: 'btn watch-taken', text: t('game.watch'),
        onclick: () => { card.remove(); done(null); },
      })));
  main.prepend(card);
  const first = card.querySelector('button');
  if (first) first.focus();
}
