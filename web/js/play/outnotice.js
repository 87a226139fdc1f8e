// Telling the person plainly that they are out of the game, and by whom: "Yellow's Reporter
// killed your Chief on c7: you are out", read from the effects of the event that eliminated them
// (a kill, an encirclement, a resignation forced by the clock or a vote). The card offers to
// watch on or to leave for the lobby.

import { h } from '../dom.js';
import { MAZE } from '../board/dpn.js';
import { pieceName } from '../board/narrate.js';
import { capitalize, t } from '../i18n.js';

/** @typedef {import('../i18n.js').Translate} Translate */

/**
 * The sentence that tells `me` it is out, or null when `ev` does not eliminate `me` (or `me`
 * resigned of its own accord: it knows).
 * @param {Translate} tr
 * @param {any} ev     the event (PROTOCOL §3.5), its pieces as objects (wire.js)
 * @param {string} me
 * @param {any} [before]  the event before it (a timeout, or a vote that made `me` resign: its
 *   `target` may be added, as `vote_closed` does not say it)
 * @returns {string | null}
 */
export function eliminationText(tr, ev, me, before = null) {
  const fx = Array.isArray(ev && ev.effects) ? ev.effects : [];
  if (!fx.some((/** @type {any} */ e) => e.type === 'eliminated' && e.player === me)) return null;
  const player = (/** @type {string} */ p) => tr(`player.${p}`);
  const killed = fx.find((/** @type {any} */ e) => e.type === 'killed' && e.piece && e.piece.role === 'Chief' && e.piece.army === me);
  if (killed) {
    const moved = fx.find((/** @type {any} */ e) => e.type === 'moved');
    const by = killed.by && typeof killed.by === 'object' ? killed.by : moved ? moved.piece : null;
    const where = killed.at === MAZE ? tr('narr.in_maze') : tr('narr.on', { sq: killed.at });
    if (!by) return tr('out.killed_by_player', { player: player(ev.player), where });
    // A piece of an army its player took over: say who played it.
    const key = ev.player && by.army !== ev.player ? 'out.killed_for' : 'out.killed';
    return capitalize(tr(key, { killer: pieceName(tr, by), player: ev.player ? player(ev.player) : '', where }));
  }
  const encircled = fx.find((/** @type {any} */ e) => e.type === 'encircled' && e.player === me);
  if (encircled) return tr('out.encircled', { player: player(ev.player), sq: encircled.at });
  if (ev.kind === 'resign') {
    if (ev.player !== me) return null;
    if (before && before.kind === 'timeout' && before.player === me) return tr('out.timeout');
    if (before && before.kind === 'vote_closed' && before.passed && (!before.target || before.target === me)) return tr('out.vote');
    return null;
  }
  return ev.player ? tr('out.by_turn', { player: player(ev.player) }) : tr('out.plain');
}

/**
 * The card under which the board goes on: what happened, then "Watch on" (closes it) and
 * "Back to the lobby".
 * @param {{text: string, over: boolean, onWatch: () => void}} o  `over`: the game ended with it
 */
export function outNoticeCard({ text, over, onWatch }) {
  return h('section', { class: 'out-notice', role: 'alert', 'aria-labelledby': 'out-title' },
    h('h2', { id: 'out-title', text: t('out.title') }),
    h('p', { class: 'out-text', text }),
    h('div', { class: 'out-actions' },
      h('button', { type: 'button', class: 'btn btn-primary watch-on', text: t(over ? 'out.close' : 'out.watch'), onclick: onWatch }),
      h('a', { class: 'btn leave-game', href: '/', text: t('out.leave') })));
}
