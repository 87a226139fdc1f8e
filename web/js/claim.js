// Taking an invited seat: the invite link's token is the seat; the player chooses the name the
// others will see (POST /api/games/{id}/seats). The game starts when every seat is taken.

import { h, toast } from './dom.js';
import { t } from './i18n.js';
import { claimSeat, forgetSeat, getGame, saveSeat } from './protocol.js';
import { armySwatch } from './pieces.js';
import { errorText } from './errors.js';
import { rememberName, savedName } from './prefs.js';

/**
 * Shows the claim form at the top of `main`; calls `done` with the seat to play (or null to
 * watch) once the claim is settled.
 * @param {HTMLElement} main
 * @param {string} id
 * @param {{player: string, token: string}} seat
 * @param {(seat: {player: string, token: string} | null) => void} done
 */
export function showClaim(main, id, seat, done) {
  const input = h('input', { type: 'text', id: 'claim-name', maxlength: '32', required: true, value: savedName(), autocomplete: 'nickname' });
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
        if (res && res.token) {
          result = { player: res.player || seat.player, token: res.token };
          saveSeat(id, result);
        }
      } catch (err) {
        const code = /** @type {any} */ (err).code;
        if (code === 'bad_token' || code === 'not_found') {
          forgetSeat(id);
          result = null;
        }
        // seat_taken: this token may have claimed it already (a reopened link); the socket decides.
        if (code !== 'seat_taken') toast(errorText(err), 'error');
      }
      form.remove();
      done(result);
    },
  },
  h('h1', { id: 'claim-title' }, armySwatch(seat.player, 24), h('span', { text: t('claim.title', { player: t(`player.${seat.player}`) }) })),
  h('p', { text: t('claim.body') }),
  h('label', { class: 'field' }, h('span', { text: t('claim.name') }), input),
  h('button', { type: 'submit', class: 'btn btn-primary btn-wide', text: t('claim.take') }));
  main.prepend(form);
  input.focus();
  // The creator may have named this seat already: offer that name.
  getGame(id).then((g) => {
    const preset = (g.seats || []).find((/** @type {any} */ x) => x.player === seat.player);
    if (preset && preset.name && !input.value) input.value = preset.name;
  }).catch(() => { /* the socket will say what is wrong */ });
}
