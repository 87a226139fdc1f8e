// The page of a link from "Open my games on another device" (`/transfer#…`): says what the
// link carries (each game, the seat or the creator's rights, and what the server says of the
// game; each circle's membership), keeps it in this browser's "Your games" and circles on a
// click, then shows the lobby. A malformed
// link is refused with its reason and nothing is kept. Only the games' ids are sent to the
// server (to show their state); the tokens stay in the fragment and in this browser.

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { listGamesByIds } from '../api.js';
import { loadAdmin, loadSeat, keepGames } from '../shared/tokens.js';
import { decodeTransfer, TRANSFER_PATH } from '../shared/transfercode.js';
import { armySwatch } from '../board/pieces.js';
import { navigate } from '../nav.js';
import { syncPush } from '../shared/push.js';
import { keepCircles, loadCircle } from '../shared/circles.js';

/**
 * @param {HTMLElement} main
 * @returns {{relabel: () => void}}
 */
export function mount(main) {
  const read = decodeTransfer(location.hash);
  /** @type {Map<string, any>} */
  const summaries = new Map();
  let done = false;
  let looked = false;
  const root = h('section', { class: 'card narrow transfer-page', 'aria-labelledby': 'transfer-page-title' });
  main.append(root);

  function render() {
    document.title = `${t('transfer.page_title')} — Djambi Online`;
    const head = h('h1', { id: 'transfer-page-title', text: t('transfer.page_title') });
    if ('error' in read) {
      replace(root, head,
        h('p', { class: 'error-text transfer-error', role: 'alert', text: t(read.error, read.params) }),
        h('p', {}, h('a', { class: 'btn', href: '/', text: t('transfer.to_lobby') })));
      return;
    }
    const { games, circles } = read;
    replace(root, head,
      h('p', { text: t('transfer.page_intro', { n: games.length }) }),
      games.length ? h('ul', { class: 'transfer-list' }, ...games.map(row)) : null,
      circles.length ? h('p', { text: t('transfer.circles_intro', { n: circles.length }) }) : null,
      circles.length ? h('ul', { class: 'transfer-list transfer-circles' }, ...circles.map((c) => {
        const here = loadCircle(c.id);
        return h('li', { class: 'transfer-circle', dataset: { circle: c.id } },
          h('span', { class: 'transfer-id', text: here && here.name ? here.name : t('transfer.circle', { id: c.id.slice(0, 8) }) }),
          here && here.member === c.member && here.key === c.key ? h('span', { class: 'muted small', text: t('transfer.already_here') }) : null);
      })) : null,
      h('p', { class: 'muted small', text: t('transfer.secret') }),
      h('div', { class: 'action-row' },
        h('button', { type: 'button', class: 'btn btn-primary import-games', disabled: done, text: t('transfer.import', { n: games.length + circles.length }), onclick: () => keep(games, circles) }),
        h('a', { class: 'btn btn-ghost', href: '/', text: t('common.cancel') })));
  }

  /** @param {import('../shared/transfercode.js').TransferGame} g */
  function row(g) {
    const s = summaries.get(g.id);
    const here = loadSeat(g.id);
    const what = [];
    if (g.seat) what.push(h('span', { class: 'you' }, armySwatch(g.seat.player, 12), ' ', t('yourgames.you_play', { player: t(`player.${g.seat.player}`) })));
    if (g.admin) what.push(h('span', { class: 'you', text: t('yourgames.you_created') }));
    /** @type {string[]} */
    const notes = [];
    if (s) notes.push(t(`transfer.status_${s.status}`));
    else if (looked) notes.push(t('transfer.status_unknown'));
    const sameSeat = !g.seat || (here && here.token === g.seat.token);
    if (sameSeat && (!g.admin || loadAdmin(g.id) === g.admin)) notes.push(t('transfer.already_here'));
    else if (g.seat && here) notes.push(t('transfer.replaces_seat', { player: t(`player.${here.player}`) }));
    return h('li', { class: 'transfer-game', dataset: { game: g.id } },
      h('span', { class: 'transfer-id', text: t('transfer.game', { id: g.id.slice(0, 8) }) }),
      h('span', { class: 'transfer-what' }, ...what.flatMap((w, i) => (i ? [' · ', w] : [w]))),
      notes.length ? h('span', { class: 'muted small', text: notes.join(' · ') }) : null);
  }

  /**
   * @param {import('../shared/transfercode.js').TransferGame[]} games
   * @param {import('../shared/transfercode.js').TransferCircle[]} circles
   */
  function keep(games, circles) {
    if (done) return;
    done = true;
    const changed = keepGames(games) + keepCircles(circles);
    // The games brought here get their push notifications here too (if this browser allows them).
    if (changed) syncPush();
    toast(t('transfer.imported', { n: changed }), 'ok');
    // The tokens leave the address bar and this page's history entry.
    history.replaceState(null, '', TRANSFER_PATH);
    navigate('/');
  }

  /** What the server says of the games (their ids only): their state, shown beside each. */
  async function lookUp() {
    if ('error' in read) return;
    try {
      const ids = read.games.map((g) => g.id);
      for (let i = 0; i < ids.length; i += 50) {
        const list = await listGamesByIds(ids.slice(i, i + 50));
        for (const g of (list && list.games) || []) summaries.set(g.id, g);
      }
      looked = true;
    } catch { return; /* the list says less, the import works the same */ }
    if (root.isConnected && !done) render();
  }

  render();
  lookUp();
  return { relabel: render };
}
