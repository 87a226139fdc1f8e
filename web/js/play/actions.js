// The game page's actions panel: resign, offer a draw, take back one's last turn; the player's
// settings (confirm each turn, the turn chime, notifications); the rules, clock and hints in force; and
// the links to the replay, the record and the spectators' link.

import { h, toast, copyText } from '../dom.js';
import { t } from '../i18n.js';
import { isAlive } from '../board/model.js';
import { recordTextUrl, recordUrl } from '../api.js';
import { rulesSummary } from '../board/panels.js';
import { clockSummary } from './clocks.js';
import { askNotifications, notificationState, setSound, soundOn } from '../shared/alerts.js';
import { syncPush } from '../shared/push.js';
import { botLevel, canAskTakeback } from './table.js';

/**
 * @typedef {object} ActionsContext
 * @property {string} id
 * @property {any} g
 * @property {string | null} me
 * @property {boolean} online
 * @property {boolean} started
 * @property {boolean} confirm          whether each turn is confirmed before it is sent
 * @property {(on: boolean) => void} setConfirm
 * @property {(type: string, fields?: object) => void} command
 * @property {() => void} resign        asks, then resigns
 * @property {() => void} redraw        after a setting changed
 */

/**
 * The panel's content.
 * @param {ActionsContext} c
 * @returns {(HTMLElement | null)[]}
 */
export function actionsContent(c) {
  const { g, me } = c;
  const alive = me !== null && isAlive(g, me);
  const live = c.started && !g.result && g.status !== 'cancelled';
  // A bot playing our seat leaves us only resignation (and taking the seat back, in the banner).
  const person = !botLevel(g, me);
  return [
    alive ? h('div', { class: 'action-row' },
      h('button', { type: 'button', class: 'btn btn-danger resign', disabled: !c.online || !live, text: t('game.resign'), onclick: c.resign }),
      h('button', {
        type: 'button', class: 'btn offer-draw', disabled: !c.online || !live || !person || Boolean(g.draw_offer),
        text: t('game.offer_draw'), onclick: () => c.command('offer_draw'),
      }),
      canAskTakeback(g, me) ? h('button', {
        type: 'button', class: 'btn takeback-ask', disabled: !c.online, text: t('takeback.ask'), onclick: () => c.command('takeback'),
      }) : null) : null,
    alive ? settings(c) : null,
    h('p', {
      class: 'muted small rules-line',
      text: [rulesSummary(g.rules), clockSummary(g), g.settings && g.settings.hints ? t('game.hints_on') : ''].filter(Boolean).join(' · '),
    }),
    h('div', { class: 'action-row links' },
      h('a', { class: 'btn btn-ghost btn-small', href: `/game/${c.id}/replay`, text: t('game.replay') }),
      h('a', { class: 'btn btn-ghost btn-small', href: recordUrl(c.id), download: `djambi-${c.id}.json`, text: t('game.download') }),
      h('a', { class: 'btn btn-ghost btn-small download-text', href: recordTextUrl(c.id), download: `djambi-${c.id}.txt`, text: t('game.download_text') }),
      h('button', {
        type: 'button', class: 'btn btn-ghost btn-small', text: t('game.copy_watch_link'),
        onclick: async () => toast((await copyText(`${location.origin}/game/${c.id}`)) ? t('common.copied') : t('common.copy_failed')),
      })),
  ];
}

/**
 * A player's settings: confirm each turn, the chime, notifications.
 * @param {ActionsContext} c
 */
function settings(c) {
  const notify = notificationState();
  return h('div', { class: 'settings' },
    h('label', { class: 'check small' },
      h('input', {
        type: 'checkbox', checked: c.confirm, class: 'confirm-toggle',
        onchange: (/** @type {Event} */ e) => c.setConfirm(/** @type {HTMLInputElement} */ (e.target).checked),
      }),
      h('span', { text: t('game.confirm_turns') })),
    h('label', { class: 'check small' },
      h('input', {
        type: 'checkbox', checked: soundOn(), class: 'sound-toggle',
        onchange: (/** @type {Event} */ e) => setSound(/** @type {HTMLInputElement} */ (e.target).checked),
      }),
      h('span', { text: t('game.sound') })),
    notify === 'default' ? h('button', {
      type: 'button', class: 'btn btn-small notify-ask', text: t('game.notify'),
      onclick: async () => {
        const answer = await askNotifications();
        toast(t(answer === 'granted' ? 'game.notify_on' : 'game.notify_blocked'));
        c.redraw();
        if (answer === 'granted') syncPush();
      },
    }) : null,
    notify === 'granted' ? h('p', { class: 'muted small notify-state', text: t('game.notify_on') }) : null,
    notify === 'denied' ? h('p', { class: 'muted small notify-state', text: t('game.notify_blocked') }) : null);
}
