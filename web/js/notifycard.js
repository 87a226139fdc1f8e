// The lobby's "Notifications and sounds" card (folded until opened): which notifications this
// browser wants (kept in IndexedDB for the service worker: notifysettings.js), the in-tab alerts
// (the chime, the mark in the tab's title: play/alerts.js), and the browser's permission to
// notify, asked only when the person clicks the button that says why it is wanted.

import { h, replace } from './dom.js';
import { t } from './i18n.js';
import { NOTIFY_KINDS, loadNotifySettings, saveNotifySetting } from './notifysettings.js';
import { askNotifications, notificationState, setSound, setTitleAlert, soundOn, titleAlertOn } from './play/alerts.js';
import { keepFocus } from './focus.js';

/**
 * The card.
 * @returns {{el: HTMLElement, relabel: () => void}}
 */
export function notifyCard() {
  /** @type {Record<string, boolean> | null} */
  let kinds = null;
  let open = false;
  const el = h('section', { class: 'card notify-settings', 'aria-labelledby': 'notify-title' });

  function render() {
    keepFocus(el, () => replace(el, h('details', {
      open, ontoggle: (/** @type {Event} */ e) => { open = /** @type {HTMLDetailsElement} */ (e.target).open; },
    },
    h('summary', {}, h('h2', { id: 'notify-title', text: t('notify.title') })),
    h('p', { class: 'muted small', text: t('notify.intro') }),
    permission(),
    h('fieldset', { class: 'notify-kinds' },
      h('legend', { text: t('notify.kinds_legend') }),
      ...NOTIFY_KINDS.map((k) => check(`notify-${k}`, t(`notify.kind_${k}`), kinds ? kinds[k] : true, !kinds, async (on) => {
        if (kinds) kinds[k] = on;
        await saveNotifySetting(k, on);
      }))),
    h('fieldset', { class: 'notify-tab' },
      h('legend', { text: t('notify.tab_legend') }),
      check('notify-sound', t('game.sound'), soundOn(), false, setSound),
      check('notify-title-mark', t('notify.title_mark'), titleAlertOn(), false, setTitleAlert)))));
  }

  /** The permission's state, and the button that asks for it while it has not been asked. */
  function permission() {
    const state = notificationState();
    if (state === 'default') {
      return h('button', {
        type: 'button', class: 'btn btn-small btn-primary notify-allow', text: t('notify.allow'),
        onclick: async () => {
          await askNotifications();
          render();
        },
      });
    }
    return h('p', { class: ['small', 'notify-state', `notify-${state}`], role: 'status', text: t(`notify.state_${state}`) });
  }

  /**
   * A checkbox that calls `save` when changed.
   * @param {string} cls @param {string} label @param {boolean} checked @param {boolean} disabled
   * @param {(on: boolean) => void | Promise<void>} save
   */
  function check(cls, label, checked, disabled, save) {
    return h('label', { class: 'check small' },
      h('input', {
        type: 'checkbox', class: cls, checked, disabled,
        onchange: (/** @type {Event} */ e) => save(/** @type {HTMLInputElement} */ (e.target).checked),
      }),
      h('span', { text: label }));
  }

  render();
  loadNotifySettings().then((s) => {
    kinds = s;
    render();
  });
  return { el, relabel: render };
}
