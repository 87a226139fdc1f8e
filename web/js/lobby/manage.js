// The creator's view of a game waiting for its players: every seat with its invite link (Copy, a
// QR code, Play this seat), and while the game is open the creator's rights (PROTOCOL §6.1) —
// a new link for a seat, a seat for a bot, cancelling the game — with the admin token this
// browser kept. It also warns when the links cannot reach the creator's friends (linkhost.js).

import { h, replace, toast, copyText, confirmDialog } from '../dom.js';
import { t } from '../i18n.js';
import { cancelGame, listGamesByIds, reinviteSeat, seatToBot } from '../api.js';
import { forgetSeat, loadAdmin, loadInvites, loadSeat, parseInvite, saveInvites, saveSeat } from '../shared/tokens.js';
import { armySwatch } from '../board/pieces.js';
import { errorText } from '../errors.js';
import { navigate } from '../nav.js';
import { BOT_LEVELS, usualBotLevel } from '../shared/gameopts.js';
import { linkWarning } from './linkhost.js';
import { qrSvg } from '../shared/qr.js';
import { keepFocus } from '../shared/focus.js';

/**
 * An error of a creator's action as a sentence (`create.errors.*` first: `started`, `bad_token`).
 * @param {any} e
 */
const adminError = (e) => errorText(e, 'create.errors');

/**
 * The warning (or hint) about where invite links point, for this page.
 * @param {string} link  one of the game's links
 * @returns {HTMLElement | null}
 */
export function linkNotice(link) {
  const w = linkWarning(link, location);
  if (!w) return null;
  if (w.kind === 'elsewhere') {
    return h('div', { class: 'link-notice warning', role: 'alert' },
      h('strong', { text: t('lobby.links_elsewhere_title', { host: w.linkHost }) }),
      h('p', { text: t('lobby.links_elsewhere', { host: w.linkHost, origin: w.pageOrigin }) }),
      h('code', { text: `--public-url ${w.pageOrigin}` }));
  }
  return h('div', { class: 'link-notice hint', role: 'note' },
    h('strong', { text: t('lobby.links_local_title') }),
    h('p', { text: t('lobby.links_local') }));
}

/**
 * The creator's card for game `id`.
 * @param {string} id
 * @param {{onClose: () => void, onChanged?: () => void}} o  `onClose`: back to the create form;
 *   `onChanged`: the game changed (the lists may want a refresh)
 * @returns {{el: HTMLElement, refresh: () => Promise<void>, relabel: () => void}}
 */
export function manageCard(id, { onClose, onChanged }) {
  /** The game as the list shows it (seats claimed, bots, status); null until loaded. @type {any} */
  let game = null;
  let busy = false;
  /** Seats whose QR code is shown. @type {Set<string>} */
  const qrShown = new Set();
  /** The level chosen in each seat's bot picker. @type {Record<string, string>} */
  const levels = {};
  const el = h('section', { class: 'card created manage', 'aria-labelledby': 'created-title', dataset: { game: id } });

  const admin = () => loadAdmin(id);
  const isOpen = () => !game || game.status === 'open';

  function render() {
    const invites = loadInvites(id);
    const seats = game ? game.seats : invites.map((i) => ({ player: i.player, name: i.name, claimed: false, bot: null }));
    const canAdmin = Boolean(admin()) && isOpen();
    const status = game ? game.status : 'open';
    keepFocus(el, () => replace(el,
      h('h2', { id: 'created-title', text: t(status === 'open' ? 'lobby.created_title' : `create.status_${status}`) }),
      status === 'open' ? h('p', { class: 'muted', text: t('lobby.created_help') }) : null,
      status === 'open' && invites.length ? linkNotice(invites[0].invite_url) : null,
      h('ul', { class: 'invites' }, ...seats.map((/** @type {any} */ s) => seatRow(s, invites.find((i) => i.player === s.player), canAdmin))),
      h('div', { class: 'created-foot' },
        h('a', { class: 'btn', href: `/game/${id}`, text: t(status === 'open' ? 'lobby.watch_game' : 'create.open_game') }),
        canAdmin ? h('button', { type: 'button', class: 'btn btn-danger cancel-game', disabled: busy, text: t('create.cancel_game'), onclick: cancel }) : null,
        h('button', { type: 'button', class: 'btn btn-ghost', text: t('lobby.create_another'), onclick: onClose }))));
  }

  /**
   * @param {any} s  the seat (list form)
   * @param {{player: string, name: string | null, invite_url: string} | undefined} invite
   * @param {boolean} canAdmin
   */
  function seatRow(s, invite, canAdmin) {
    const player = t(`player.${s.player}`);
    const free = !s.claimed && !s.bot;
    /** @type {any[]} */
    let body = [];
    if (s.bot) {
      body = [h('p', { class: 'muted seat-state', text: t('create.seat_bot', { level: t(`create.level_${s.bot}`) }) })];
    } else if (s.claimed) {
      body = [h('p', { class: 'muted seat-state', text: t('create.seat_claimed', { name: s.name || player }) })];
    } else if (invite) {
      const input = h('input', {
        type: 'text', readonly: true, value: invite.invite_url, 'aria-label': t('lobby.invite_for', { player }),
        onfocus: (/** @type {Event} */ e) => /** @type {HTMLInputElement} */ (e.target).select(),
      });
      const shown = qrShown.has(s.player);
      body = [
        h('div', { class: 'invite-actions' },
          input,
          h('button', {
            type: 'button', class: 'btn btn-small copy', text: t('common.copy'),
            onclick: async (/** @type {Event} */ e) => {
              const btn = /** @type {HTMLButtonElement} */ (e.currentTarget);
              const ok = await copyText(invite.invite_url);
              btn.textContent = ok ? t('common.copied') : t('common.copy_failed');
              setTimeout(() => { btn.textContent = t('common.copy'); }, 1600);
            },
          }),
          h('button', {
            type: 'button', class: 'btn btn-small qr-toggle', 'aria-expanded': shown ? 'true' : 'false',
            'aria-controls': `qr-${s.player}`, text: t('create.qr'), title: t('create.qr_title', { player }),
            onclick: () => { if (shown) qrShown.delete(s.player); else qrShown.add(s.player); render(); },
          }),
          h('button', {
            type: 'button', class: 'btn btn-small btn-primary play-seat', text: t('lobby.play_seat'),
            onclick: () => {
              const seat = parseInvite(new URL(invite.invite_url).hash);
              if (!seat) return;
              saveSeat(id, seat);
              navigate(`/game/${id}#seat=${seat.player}&token=${encodeURIComponent(seat.token)}`);
            },
          })),
        shown ? h('figure', { class: 'qr', id: `qr-${s.player}` },
          qrSvg(invite.invite_url, { label: t('create.qr_label', { player }) }),
          h('figcaption', { class: 'muted small', text: t('create.qr_caption', { player }) })) : null,
      ];
    } else if (free) {
      body = [h('p', { class: 'muted seat-state', text: t('create.seat_no_link') })];
    }
    return h('li', { class: ['seat-row', invite && free && 'invite'], dataset: { player: s.player } },
      h('div', { class: 'invite-head' },
        armySwatch(s.player, 18),
        h('strong', { text: player }),
        !s.claimed && s.name ? h('span', { class: 'muted', text: s.name }) : null),
      ...body,
      canAdmin && !s.bot ? adminRow(s, player) : null);
  }

  /** The level offered for a seat: the one chosen, else that of the table's other bots. @param {string} p */
  const levelFor = (p) => levels[p] || usualBotLevel(game ? game.seats : [], p);

  /** The creator's actions on a seat a person plays or will play. @param {any} s @param {string} player */
  function adminRow(s, player) {
    const level = levelFor(s.player);
    // How the chosen level plays, in a line.
    const desc = h('small', { class: 'muted level-desc', text: t(`create.level_desc_${level}`) });
    return h('div', { class: 'seat-admin' },
      h('button', {
        type: 'button', class: 'btn btn-small btn-ghost reinvite', disabled: busy,
        text: t('create.new_link'), title: t('create.new_link_title', { player }),
        onclick: () => reinvite(s, player),
      }),
      h('span', { class: 'seat-bot' },
        h('label', {},
          h('span', { class: 'visually-hidden', text: t('create.bot_level_for', { player }) }),
          h('select', {
            name: `bot-level-${s.player}`,
            onchange: (/** @type {Event} */ e) => {
              const select = /** @type {HTMLSelectElement} */ (e.target);
              levels[s.player] = select.value;
              desc.textContent = t(`create.level_desc_${select.value}`);
            },
          }, ...BOT_LEVELS.map((l) => h('option', { value: l, selected: l === level, text: t(`create.level_${l}`) })))),
        h('button', {
          type: 'button', class: 'btn btn-small to-bot', disabled: busy,
          text: t('create.give_bot'), title: t('create.give_bot_title', { player }),
          onclick: () => toBot(s, player),
        })),
      desc);
  }

  /** Runs a creator's action, shows its error, then reloads the game. @param {() => Promise<void>} action */
  async function act(action) {
    const token = admin();
    if (busy || !token) return;
    busy = true;
    render();
    try {
      await action();
      if (onChanged) onChanged();
    } catch (e) {
      toast(adminError(e), 'error');
    } finally {
      busy = false;
      await refresh();
    }
  }

  /** @param {any} s @param {string} player */
  async function reinvite(s, player) {
    if (s.claimed) {
      const ok = await confirmDialog({
        title: t('create.new_link_confirm_title', { player }), body: t('create.new_link_confirm', { name: s.name || player }),
        ok: t('create.new_link'), cancel: t('common.cancel'), danger: true,
      });
      if (!ok) return;
    }
    await act(async () => {
      const invite = await reinviteSeat(id, s.player, /** @type {string} */ (admin()));
      // The new link replaces the old one; a seat this browser held on the old token is gone.
      const others = loadInvites(id).filter((i) => i.player !== invite.player);
      saveInvites(id, [...others, invite].sort((a, b) => 'rbyg'.indexOf(a.player) - 'rbyg'.indexOf(b.player)));
      if (loadSeat(id)?.player === invite.player) forgetSeat(id);
      toast(t('create.new_link_done', { player }), 'ok');
    });
  }

  /** @param {any} s @param {string} player */
  async function toBot(s, player) {
    const level = levelFor(s.player);
    await act(async () => {
      await seatToBot(id, s.player, level, /** @type {string} */ (admin()));
      saveInvites(id, loadInvites(id).filter((i) => i.player !== s.player));
      if (loadSeat(id)?.player === s.player) forgetSeat(id);
      toast(t('create.give_bot_done', { player, level: t(`create.level_${level}`) }), 'ok');
    });
  }

  async function cancel() {
    const ok = await confirmDialog({
      title: t('create.cancel_title'), body: t('create.cancel_body'), ok: t('create.cancel_game'), cancel: t('create.keep_game'), danger: true,
    });
    if (!ok) return;
    await act(async () => {
      await cancelGame(id, /** @type {string} */ (admin()));
      toast(t('create.cancelled_toast'), 'ok');
    });
  }

  async function refresh() {
    try {
      const list = await listGamesByIds([id]);
      const found = (list && list.games || []).find((/** @type {any} */ g) => g.id === id);
      if (found) game = found;
    } catch { /* keep what we showed; the next refresh may work */ }
    render();
  }

  render();
  refresh();
  return { el, refresh, relabel: render };
}
