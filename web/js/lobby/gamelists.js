// The server's public game lists in the lobby: open seats to join, live games to watch,
// finished games to replay (`GET /api/games?status=…`).

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { listGames, claimSeat, ApiError } from '../api.js';
import { saveSeat } from '../shared/tokens.js';
import { armySwatch, eyeIcon } from '../board/pieces.js';
import { navigate } from '../nav.js';
import { errorText } from '../errors.js';
import { rememberName, savedName } from '../prefs.js';

const STATUSES = /** @type {const} */ (['open', 'live', 'finished']);

/**
 * The seats of a listed game as small coloured name tags.
 * @param {any} g  a GameSummary
 */
export function seatsLine(g) {
  return h('span', { class: 'seat-dots' }, ...(g.seats || []).map((/** @type {any} */ s) => {
    // A seat named at creation but not yet claimed is kept for whoever has its link.
    const kept = !s.claimed && !s.bot && Boolean(s.name);
    const label = s.bot ? t('create.bot_level', { level: t(`create.level_${s.bot}`) })
      : s.claimed ? (s.name || t(`player.${s.player}`))
        : kept ? t('lobby.kept_seat', { name: s.name }) : t('lobby.free_seat');
    return h('span', {
      class: ['seat-dot', s.claimed || s.bot || kept ? 'claimed' : 'free', s.connected ? 'online' : '', s.bot ? 'bot' : ''],
      title: `${t(`player.${s.player}`)}: ${label}`,
    }, armySwatch(s.player, 14), h('span', { text: label }));
  }));
}

/**
 * The "Games" card: the name to join under, then the three lists.
 * @returns {{el: HTMLElement, refresh: () => Promise<void>, relabel: () => void}}
 */
export function gameListsCard() {
  /** @type {Record<string, any[] | null>} */
  const lists = { open: null, live: null, finished: null };
  /** @type {Record<string, string | null>} */
  const listErrors = { open: null, live: null, finished: null };
  const el = h('section', { class: 'card games', 'aria-labelledby': 'games-title' });

  function render() {
    const nameInput = h('input', {
      type: 'text', id: 'lobby-name', maxlength: '32', value: savedName(), autocomplete: 'nickname',
      placeholder: t('lobby.your_name_placeholder'),
      oninput: (/** @type {Event} */ e) => rememberName(/** @type {HTMLInputElement} */ (e.target).value.trim()),
    });
    replace(el,
      h('div', { class: 'card-head' },
        h('h2', { id: 'games-title', text: t('lobby.games_title') }),
        h('button', { type: 'button', class: 'btn btn-ghost btn-small', text: t('common.refresh'), onclick: refresh })),
      h('label', { class: 'field inline' }, h('span', { text: t('lobby.your_name') }), nameInput),
      ...STATUSES.map(section));
  }

  /** @param {'open'|'live'|'finished'} status */
  function section(status) {
    const title = t(`lobby.${status}_games`);
    const items = lists[status];
    const row = status === 'open' ? openRow : status === 'live' ? liveRow : finishedRow;
    let body;
    if (listErrors[status]) body = h('p', { class: 'muted error-text', text: listErrors[status] });
    else if (items === null) body = h('p', { class: 'muted', text: t('common.loading') });
    else if (!items.length) body = h('p', { class: 'muted', text: t(`lobby.empty_${status}`) });
    else body = h('ul', { class: 'game-list' }, ...items.map(row));
    return h('section', { class: `list list-${status}`, 'aria-label': title }, h('h3', { text: title }), body);
  }

  /** @param {any} g */
  function openRow(g) {
    const free = (g.seats || []).filter((/** @type {any} */ s) => !s.claimed && !s.bot && !s.name);
    return h('li', { class: 'game-row' },
      h('div', { class: 'game-main' },
        h('span', { class: 'game-kind', text: t(g.players === 3 ? 'lobby.kind_3' : 'lobby.kind_4') }),
        seatsLine(g)),
      h('div', { class: 'game-actions' },
        ...free.map((/** @type {any} */ s) => h('button', {
          type: 'button', class: 'btn btn-small join', dataset: { player: s.player },
          'aria-label': t('lobby.join_as', { player: t(`player.${s.player}`) }),
          onclick: () => join(g.id, s.player),
        }, armySwatch(s.player, 12), t('lobby.join')))));
  }

  /** @param {any} g */
  function liveRow(g) {
    return h('li', { class: 'game-row' },
      h('div', { class: 'game-main' },
        h('span', { class: 'game-kind' }, t('lobby.turn_n', { n: g.turn ?? '?' }),
          g.to_move ? [' · ', armySwatch(g.to_move, 12), ' ', t('lobby.to_move', { player: t(`player.${g.to_move}`) })] : null),
        seatsLine(g)),
      h('div', { class: 'game-actions' },
        h('span', { class: 'spectators', title: t('game.spectators') }, eyeIcon(15), ` ${g.spectators ?? 0}`),
        h('a', { class: 'btn btn-small', href: `/game/${g.id}`, text: t('lobby.watch') })));
  }

  /** @param {any} g */
  function finishedRow(g) {
    let result = '';
    if (g.result && g.result.winner) result = t('lobby.result_winner', { player: t(`player.${g.result.winner}`) });
    else if (g.result && g.result.draw) result = t('lobby.result_draw');
    return h('li', { class: 'game-row' },
      h('div', { class: 'game-main' },
        h('span', { class: 'game-kind', text: result }),
        seatsLine(g)),
      h('div', { class: 'game-actions' },
        h('a', { class: 'btn btn-small', href: `/game/${g.id}/replay`, text: t('lobby.replay') })));
  }

  /** @param {string} id @param {string} player */
  async function join(id, player) {
    const name = savedName() || '';
    if (!name) {
      toast(t('lobby.name_needed'), 'error');
      document.getElementById('lobby-name')?.focus();
      return;
    }
    try {
      const seat = await claimSeat(id, { name, player });
      saveSeat(id, { player: seat.player, token: seat.token });
      navigate(`/game/${id}`);
    } catch (e) {
      toast(errorText(e), 'error');
      refresh();
    }
  }

  async function refresh() {
    await Promise.all(STATUSES.map(async (status) => {
      try {
        const res = await listGames(status);
        const games = Array.isArray(res && res.games) ? res.games : [];
        // Games waiting for invited players are private: only open games can be joined here.
        lists[status] = status === 'open' ? games.filter((/** @type {any} */ g) => g.open !== false) : games;
        listErrors[status] = null;
      } catch (e) {
        listErrors[status] = e instanceof ApiError ? errorText(e) : String(e);
      }
    }));
    if (!el.isConnected) return;
    // Keep what the user is typing: only the lists are redrawn.
    for (const status of STATUSES) {
      const old = el.querySelector(`.list-${status}`);
      if (old && !old.contains(document.activeElement)) old.replaceWith(section(status));
    }
  }

  render();
  return { el, refresh, relabel: render };
}
