// "Your games": the games this browser holds a seat or the creator's token for
// (`GET /api/games?ids=…`), those waiting for you first, each with its status, whose turn it is,
// the time left and a link to open it. Refreshed every 30 s while the page is visible, and when
// the window comes back into focus. Each game can be forgotten on this device (once confirmed);
// "Open my games on another device" carries them to another browser (transferdialog.js).

import { confirmDialog, h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { listGamesByIds } from '../api.js';
import { forgetGame, loadAdmin, loadSeat, storedGameIds } from '../shared/tokens.js';
import { armySwatch } from '../board/pieces.js';
import { errorText } from '../errors.js';
import { timeLeftText } from '../shared/duration.js';
import { openTransferDialog } from './transferdialog.js';
import { forgetPush } from '../shared/push.js';

/** How often the list is fetched again while the page is visible. */
export const REFRESH_MS = 30_000;
/** The server answers at most this many ids at once. */
const IDS_PER_REQUEST = 50;

/** The order of statuses after "your turn". */
const STATUS_ORDER = ['live', 'open', 'finished', 'cancelled'];

/**
 * Whether this browser's seat is the one to move in a game of the list.
 * @param {any} g  a GameSummary
 * @param {{player: string} | null} seat
 */
export function isYourTurn(g, seat) {
  return Boolean(seat && g.status === 'live' && !g.result && g.to_move === seat.player);
}

/**
 * Your games in the order shown: those waiting for you first, then live, open, finished and
 * cancelled ones, each group most recently changed first.
 * @template {{game: any, seat: {player: string} | null}} R
 * @param {R[]} rows
 * @returns {R[]}
 */
export function sortYourGames(rows) {
  /** @param {R} r */
  const rank = (r) => (isYourTurn(r.game, r.seat) ? -1 : STATUS_ORDER.indexOf(r.game.status));
  return [...rows].sort((a, b) => rank(a) - rank(b) || String(b.game.updated_at).localeCompare(String(a.game.updated_at)));
}

/**
 * The "Your games" card.
 * @param {{onManage: (id: string) => void}} o  opens the creator's view of an open game
 * @returns {{el: HTMLElement, refresh: () => Promise<void>, stop: () => void, relabel: () => void}}
 */
export function yourGamesCard({ onManage }) {
  /** @type {{game: any, seat: {player: string, token: string} | null, admin: boolean}[] | null} */
  let rows = null;
  let error = '';
  let loading = false;
  const el = h('section', { class: 'card your-games', 'aria-labelledby': 'your-games-title', hidden: true });

  function render() {
    const waiting = (rows || []).filter((r) => isYourTurn(r.game, r.seat)).length;
    let body;
    if (error) body = h('p', { class: 'muted error-text', text: error });
    else if (rows === null) body = h('p', { class: 'muted', text: t('common.loading') });
    else if (!rows.length) body = h('p', { class: 'muted', text: t('yourgames.empty') });
    else body = h('ul', { class: 'game-list your-game-list' }, ...rows.map(row));
    replace(el,
      h('div', { class: 'card-head' },
        h('h2', { id: 'your-games-title' }, t('yourgames.title'),
          waiting ? h('span', { class: 'badge your-turn-count', text: t('yourgames.waiting_count', { n: waiting }) }) : null),
        h('button', { type: 'button', class: 'btn btn-ghost btn-small', text: t('common.refresh'), onclick: () => refresh() })),
      body,
      h('button', {
        type: 'button', class: 'btn btn-small btn-ghost open-elsewhere', text: t('transfer.open'),
        onclick: () => openTransferDialog(rows && rows.map((r) => ({ id: r.game.id, status: r.game.status }))),
      }));
    tick();
  }

  /** @param {{game: any, seat: {player: string} | null, admin: boolean}} r */
  function row({ game: g, seat, admin }) {
    const mine = isYourTurn(g, seat);
    const over = g.status === 'finished' || g.status === 'cancelled';
    /** @type {any[]} */
    const state = [];
    if (mine) state.push(h('span', { class: 'badge your-turn', text: t('yourgames.your_turn') }));
    if (g.status === 'open') {
      const free = (g.seats || []).filter((/** @type {any} */ s) => !s.claimed && !s.bot).length;
      state.push(h('span', { class: 'status status-open', text: t('yourgames.waiting', { n: free }) }));
    } else if (g.status === 'live' && !mine && g.to_move) {
      state.push(h('span', { class: 'status status-live' }, armySwatch(g.to_move, 12), ' ', t('lobby.to_move', { player: t(`player.${g.to_move}`) })));
    } else if (g.status === 'finished') {
      const res = g.result && g.result.winner ? t('lobby.result_winner', { player: t(`player.${g.result.winner}`) }) : t('lobby.result_draw');
      state.push(h('span', { class: 'status status-finished', text: `${t('yourgames.finished')} · ${res}` }));
    } else if (g.status === 'cancelled') {
      state.push(h('span', { class: 'status status-cancelled', text: t('yourgames.cancelled') }));
    }
    if (g.status === 'live' && typeof g.deadline === 'number') {
      state.push(h('span', { class: 'time-left', dataset: { deadline: String(g.deadline) }, title: t('yourgames.time_left_title') }));
    }
    const you = seat
      ? h('span', { class: 'you' }, armySwatch(seat.player, 12), ' ', t('yourgames.you_play', { player: t(`player.${seat.player}`) }))
      : h('span', { class: 'you', text: t('yourgames.you_created') });
    return h('li', { class: ['game-row', 'your-game', mine && 'mine'], dataset: { game: g.id, status: g.status } },
      h('div', { class: 'game-main' },
        h('span', { class: 'game-kind' }, ...state),
        h('span', { class: 'muted small' }, you, ' · ', t(g.players === 3 ? 'lobby.kind_3' : 'lobby.kind_4'),
          g.status === 'live' ? [' · ', t('lobby.turn_n', { n: g.turn })] : null)),
      h('div', { class: 'game-actions' },
        admin && g.status === 'open'
          ? h('button', { type: 'button', class: 'btn btn-small manage-game', text: t('yourgames.manage'), onclick: () => onManage(g.id) })
          : null,
        g.status === 'finished'
          ? h('a', { class: 'btn btn-small', href: `/game/${g.id}/replay`, text: t('lobby.replay') })
          : h('a', { class: ['btn', 'btn-small', 'open-game', mine && 'btn-primary'], href: `/game/${g.id}`, text: t(mine ? 'yourgames.play' : 'yourgames.open') }),
        h('button', {
          type: 'button', class: 'btn btn-small btn-ghost forget', text: '×',
          title: t('yourgames.forget'), 'aria-label': t('yourgames.forget'),
          onclick: () => forget(g.id, over || !seat),
        })));
  }

  /**
   * Forgets a game on this device, once the person confirms.
   * @param {string} id @param {boolean} harmless  finished, or no seat to lose
   */
  async function forget(id, harmless) {
    const ok = await confirmDialog({
      title: t('yourgames.forget_title'),
      body: t(harmless ? 'yourgames.forget_body_done' : 'yourgames.forget_body_seat'),
      ok: t('yourgames.forget_ok'), cancel: t('common.cancel'), danger: !harmless,
    });
    if (!ok) return;
    // The server stops pushing this game here (the seat's token is needed: before forgetting).
    await forgetPush(id);
    forgetGame(id);
    rows = (rows || []).filter((r) => r.game.id !== id);
    el.hidden = storedGameIds().length === 0;
    render();
  }

  /** Counts the clocks down between refreshes. */
  function tick() {
    for (const span of el.querySelectorAll('.time-left')) {
      const deadline = Number(/** @type {HTMLElement} */ (span).dataset.deadline);
      span.textContent = t('clock.left', { time: timeLeftText(deadline - Date.now(), t) });
    }
  }

  async function refresh() {
    const ids = storedGameIds();
    el.hidden = ids.length === 0;
    if (!ids.length || loading) return;
    loading = true;
    try {
      /** @type {any[]} */
      const games = [];
      for (let i = 0; i < ids.length; i += IDS_PER_REQUEST) {
        const list = await listGamesByIds(ids.slice(i, i + IDS_PER_REQUEST));
        games.push(...(list && Array.isArray(list.games) ? list.games : []));
      }
      rows = sortYourGames(games.map((g) => ({ game: g, seat: loadSeat(g.id), admin: Boolean(loadAdmin(g.id)) })));
      error = '';
    } catch (e) {
      error = errorText(e);
    } finally {
      loading = false;
    }
    if (el.isConnected) render();
  }

  const onFocus = () => { refresh(); };
  const onVisible = () => { if (!document.hidden) refresh(); };
  window.addEventListener('focus', onFocus);
  document.addEventListener('visibilitychange', onVisible);
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  const ticker = setInterval(tick, 1000);
  render();
  refresh();

  return {
    el,
    refresh,
    stop() {
      clearInterval(timer);
      clearInterval(ticker);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
    },
    relabel: render,
  };
}
