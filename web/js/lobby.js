// The lobby (`/`): create a game and hand out its invite links, or join, watch and replay the
// games the server lists.

import { h, replace, toast, copyText } from './dom.js';
import { t } from './i18n.js';
import { createGame, listGames, claimSeat, saveSeat, saveInvites, ApiError } from './protocol.js';
import { armySwatch, eyeIcon, pieceIcon } from './pieces.js';
import { ARMIES } from './dpn.js';
import { navigate } from './nav.js';
import { errorText } from './errors.js';
import { rememberName, savedName } from './prefs.js';

/** @param {HTMLElement} main */
export function mount(main) {
  /** The last created game, shown until the page is left. @type {any} */
  let created = null;
  /** @type {Record<string, any[] | null>} */
  const lists = { open: null, live: null, finished: null };
  /** @type {Record<string, string | null>} */
  const listErrors = { open: null, live: null, finished: null };
  const form = { players: 4, hostage: 'g', names: { r: '', b: '', y: '', g: '' }, own_kills: false, diplomat_to_maze: true, turn_limit: '', open: false };
  let busy = false;

  const root = h('div', { class: 'lobby' });
  main.append(root);

  function render() {
    document.title = `Djambi Online — ${t('lobby.tagline_short')}`;
    replace(root,
      h('section', { class: 'hero' },
        h('div', { class: 'hero-text' },
          h('h1', { text: t('lobby.title') }),
          h('p', { class: 'tagline', text: t('lobby.tagline') }),
          h('p', {}, h('a', { href: '/rules', class: 'btn btn-ghost', text: t('lobby.learn_rules') }))),
        h('div', { class: 'hero-pieces', 'aria-hidden': 'true' },
          ...['C', 'A', 'R', 'D', 'N', 'M'].map((r, i) => pieceIcon(r, ARMIES[i % 4], 46)), pieceIcon(null, 'r', 46))),
      h('div', { class: 'lobby-grid' },
        created ? createdCard() : createCard(),
        gamesCard()));
  }

  function createCard() {
    const hostageRow = h('label', { class: 'field inline', hidden: form.players !== 3 },
      h('span', { text: t('lobby.hostage') }),
      h('select', {
        name: 'hostage',
        onchange: (/** @type {Event} */ e) => { form.hostage = /** @type {HTMLSelectElement} */ (e.target).value; render(); },
      }, ...ARMIES.map((a) => h('option', { value: a, selected: form.hostage === a, text: t(`player.${a}`) }))));
    const seats = ARMIES.filter((a) => form.players === 4 || a !== form.hostage);
    return h('section', { class: 'card create', 'aria-labelledby': 'create-title' },
      h('h2', { id: 'create-title', text: t('lobby.create_title') }),
      h('form', {
        onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); submit(); },
      },
      h('fieldset', { class: 'segmented' },
        h('legend', { text: t('lobby.players') }),
        ...[4, 3].map((n) => h('label', { class: 'seg' },
          h('input', {
            type: 'radio', name: 'players', value: String(n), checked: form.players === n,
            onchange: () => { form.players = n; render(); },
          }),
          h('span', { text: t(n === 4 ? 'lobby.players_4' : 'lobby.players_3') })))),
      hostageRow,
      h('fieldset', { class: 'names' },
        h('legend', { text: t('lobby.names') }),
        ...seats.map((a) => h('label', { class: 'name-row' },
          armySwatch(a, 18),
          h('span', { class: 'visually-hidden', text: t(`player.${a}`) }),
          h('input', {
            type: 'text', name: `name-${a}`, maxlength: '40', autocomplete: 'off',
            placeholder: t('lobby.name_placeholder', { player: t(`player.${a}`) }), value: form.names[/** @type {'r'} */ (a)],
            oninput: (/** @type {Event} */ e) => { form.names[/** @type {'r'} */ (a)] = /** @type {HTMLInputElement} */ (e.target).value; },
          })))),
      h('details', { class: 'options' },
        h('summary', { text: t('lobby.rules_title') }),
        checkbox('own_kills', t('lobby.own_kills'), t('lobby.own_kills_help')),
        checkbox('diplomat_to_maze', t('lobby.diplomat_to_maze'), t('lobby.diplomat_to_maze_help')),
        h('label', { class: 'field' },
          h('span', { text: t('lobby.turn_limit') }),
          h('input', {
            type: 'number', name: 'turn_limit', min: '1', step: '1', inputmode: 'numeric', value: form.turn_limit,
            placeholder: t('lobby.turn_limit_none'),
            oninput: (/** @type {Event} */ e) => { form.turn_limit = /** @type {HTMLInputElement} */ (e.target).value; },
          }),
          h('small', { text: t('lobby.turn_limit_help') }))),
      checkbox('open', t('lobby.open'), t('lobby.open_help')),
      h('button', { type: 'submit', class: 'btn btn-primary btn-wide', disabled: busy, text: busy ? t('lobby.creating') : t('lobby.create') })));
  }

  /** @param {'own_kills'|'diplomat_to_maze'|'open'} key @param {string} label @param {string} help */
  function checkbox(key, label, help) {
    return h('label', { class: 'check' },
      h('input', {
        type: 'checkbox', name: key, checked: form[key],
        onchange: (/** @type {Event} */ e) => { form[key] = /** @type {HTMLInputElement} */ (e.target).checked; },
      }),
      h('span', {}, h('strong', { text: label }), h('small', { text: help })));
  }

  async function submit() {
    if (busy) return;
    /** @type {any} */
    const body = { players: form.players };
    if (form.players === 3) body.hostage = form.hostage;
    const limit = form.turn_limit.trim() === '' ? null : Number(form.turn_limit);
    if (limit !== null && !(Number.isInteger(limit) && limit >= 1)) {
      toast(t('lobby.turn_limit_bad'), 'error');
      return;
    }
    body.rules = { own_kills: form.own_kills, diplomat_to_maze: form.diplomat_to_maze, turn_limit: limit };
    /** @type {Record<string, string>} */
    const names = {};
    for (const a of ARMIES) {
      const n = form.names[/** @type {'r'} */ (a)].trim();
      if (n && (form.players === 4 || a !== form.hostage)) names[a] = n;
    }
    if (Object.keys(names).length) body.names = names;
    if (form.open) body.open = true;
    busy = true;
    render();
    try {
      created = await createGame(body);
      saveInvites(created.id, created.seats);
      toast(t('lobby.created_toast'), 'ok');
    } catch (e) {
      toast(errorText(e), 'error');
    } finally {
      busy = false;
      render();
      refresh();
    }
  }

  function createdCard() {
    const g = created;
    return h('section', { class: 'card created', 'aria-labelledby': 'created-title' },
      h('h2', { id: 'created-title', text: t('lobby.created_title') }),
      h('p', { class: 'muted', text: t('lobby.created_help') }),
      h('ul', { class: 'invites' },
        ...g.seats.map((/** @type {any} */ s) => {
          const input = h('input', { type: 'text', readonly: true, value: s.invite_url, 'aria-label': t('lobby.invite_for', { player: t(`player.${s.player}`) }), onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select() });
          return h('li', { class: 'invite', dataset: { player: s.player } },
            h('div', { class: 'invite-head' },
              armySwatch(s.player, 18),
              h('strong', { text: t(`player.${s.player}`) }),
              s.name ? h('span', { class: 'muted', text: s.name }) : null),
            h('div', { class: 'invite-actions' },
              input,
              h('button', {
                type: 'button', class: 'btn btn-small copy', text: t('common.copy'),
                onclick: async (/** @type {Event} */ e) => {
                  const btn = /** @type {HTMLButtonElement} */ (e.currentTarget);
                  const ok = await copyText(s.invite_url);
                  btn.textContent = ok ? t('common.copied') : t('common.copy_failed');
                  setTimeout(() => { btn.textContent = t('common.copy'); }, 1600);
                },
              }),
              h('button', {
                type: 'button', class: 'btn btn-small btn-primary play-seat', text: t('lobby.play_seat'),
                onclick: () => {
                  saveSeat(g.id, { player: s.player, token: s.token });
                  navigate(`/game/${g.id}#seat=${s.player}&token=${encodeURIComponent(s.token)}`);
                },
              })));
        })),
      h('div', { class: 'created-foot' },
        h('a', { class: 'btn', href: `/game/${g.id}`, text: t('lobby.watch_game') }),
        h('button', { type: 'button', class: 'btn btn-ghost', text: t('lobby.create_another'), onclick: () => { created = null; render(); } })));
  }

  function gamesCard() {
    const nameInput = h('input', {
      type: 'text', id: 'lobby-name', maxlength: '40', value: savedName(), autocomplete: 'nickname',
      placeholder: t('lobby.your_name_placeholder'),
      oninput: (/** @type {Event} */ e) => rememberName(/** @type {HTMLInputElement} */ (e.target).value.trim()),
    });
    return h('section', { class: 'card games', 'aria-labelledby': 'games-title' },
      h('div', { class: 'card-head' },
        h('h2', { id: 'games-title', text: t('lobby.games_title') }),
        h('button', { type: 'button', class: 'btn btn-ghost btn-small', text: t('common.refresh'), onclick: refresh })),
      h('label', { class: 'field inline' }, h('span', { text: t('lobby.your_name') }), nameInput),
      sectionFor('open'), sectionFor('live'), sectionFor('finished'));
  }

  /** @param {'open'|'live'|'finished'} status */
  function sectionFor(status) {
    if (status === 'open') return listSection('open', t('lobby.open_games'), t('lobby.empty_open'), openRow);
    if (status === 'live') return listSection('live', t('lobby.live_games'), t('lobby.empty_live'), liveRow);
    return listSection('finished', t('lobby.finished_games'), t('lobby.empty_finished'), finishedRow);
  }

  /**
   * @param {'open'|'live'|'finished'} status
   * @param {string} title @param {string} empty
   * @param {(g: any) => HTMLElement} row
   */
  function listSection(status, title, empty, row) {
    const items = lists[status];
    let body;
    if (listErrors[status]) body = h('p', { class: 'muted error-text', text: listErrors[status] });
    else if (items === null) body = h('p', { class: 'muted', text: t('common.loading') });
    else if (!items.length) body = h('p', { class: 'muted', text: empty });
    else body = h('ul', { class: 'game-list' }, ...items.map(row));
    return h('section', { class: `list list-${status}`, 'aria-label': title }, h('h3', { text: title }), body);
  }

  /** @param {any} g */
  function seatsLine(g) {
    return h('span', { class: 'seat-dots' }, ...(g.seats || []).map((/** @type {any} */ s) =>
      h('span', { class: ['seat-dot', s.claimed ? 'claimed' : 'free', s.connected ? 'online' : ''], title: `${t(`player.${s.player}`)}: ${s.name || t('lobby.free_seat')}` },
        armySwatch(s.player, 14), h('span', { text: s.claimed ? (s.name || t(`player.${s.player}`)) : t('lobby.free_seat') }))));
  }

  /** @param {any} g */
  function openRow(g) {
    const free = (g.seats || []).filter((/** @type {any} */ s) => !s.claimed);
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
    await Promise.all(/** @type {const} */ (['open', 'live', 'finished']).map(async (status) => {
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
    if (!root.isConnected) return;
    // Keep what the user is typing: only the lists are redrawn.
    for (const status of /** @type {const} */ (['open', 'live', 'finished'])) {
      const old = root.querySelector(`.list-${status}`);
      if (old && !old.contains(document.activeElement)) old.replaceWith(sectionFor(status));
    }
  }

  render();
  refresh();
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, 8000);

  return {
    unmount() { clearInterval(timer); },
    relabel() { render(); },
  };
}
