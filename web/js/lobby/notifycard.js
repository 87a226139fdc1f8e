// The lobby's "Notifications and sounds" card (folded until opened): which notifications this
// browser wants (kept in IndexedDB for the service worker: notifysettings.js), the in-tab alerts
// (the chime, the mark in the tab's title: shared/alerts.js), and the browser's permission to
// notify, asked only when the person clicks the button that says why it is wanted. Once it is
// given, this browser also subscribes to pushes for the games it holds (push.js), which the
// person can turn off; a browser without push is told so.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { NOTIFY_KINDS, loadNotifySettings, saveNotifySetting } from '../shared/notifysettings.js';
import { askNotifications, notificationState, setSound, setTitleAlert, soundOn, titleAlertOn } from '../shared/alerts.js';
import { keepFocus } from '../shared/focus.js';
import { pushOn, pushSupported, setPush, syncPush } from '../shared/push.js';

/**
 * The card.
 * @returns {{el: HTMLElement, relabel: () => void}}
 */
export function notifyCard() {
  /** @type {Record<string, boolean> | null} */
  let kinds = null;
  let open = false;
  /** Where push stands for this browser (null: being found out). @type {import('../shared/push.js').PushState | null} */
  let push = null;
  const el = h('section', { class: 'card notify-settings', 'aria-labelledby': 'notify-title' });

  function render() {
    keepFocus(el, () => replace(el, h('details', {
      open, ontoggle: (/** @type {Event} */ e) => { open = /** @type {HTMLDetailsElement} */ (e.target).open; },
    },
    h('summary', {}, h('h2', { id: 'notify-title', text: t('notify.title') })),
    h('p', { class: 'muted small', text: t('notify.intro') }),
    permission(),
    pushPart(),
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
          await findPush();
        },
      });
    }
    return h('p', { class: ['small', 'notify-state', `notify-${state}`], role: 'status', text: t(`notify.state_${state}`) });
  }

  /** Pushes, once notifications are allowed: on or off, and where they stand. */
  function pushPart() {
    if (notificationState() !== 'granted') return null;
    if (!pushSupported()) {
      return h('p', { class: 'small muted notify-push-state', role: 'status', text: t('notify.push_unsupported') });
    }
    const said = push && push !== 'not_allowed' ? t(`notify.push_${push}`) : '';
    return h('div', { class: 'notify-push' },
      check('notify-push-toggle', t('notify.push'), pushOn(), push === null, async (on) => {
        push = null;
        render();
        push = await setPush(on);
        render();
      }),
      h('p', { class: 'small muted notify-push-state', role: 'status', text: said }));
  }

  /** Subscribes this browser to pushes for its games if it may, and says how that went. */
  async function findPush() {
    if (notificationState() !== 'granted') return;
    push = await syncPush();
    render();
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
  findPush();
  loadNotifySettings().then((s) => {
    kinds = s;
    render();
  });
  return { el, relabel: render };
}
