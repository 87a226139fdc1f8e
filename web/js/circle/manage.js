// A circle's people and settings: the invite link (to send to a friend; the creator may make a
// new one, which stops the old), the members (the creator may remove one; anyone may leave),
// the creator's renaming, the push when a game is created, the exports (JSON and CSV), and what
// to do about a lost key: only a transfer link from a device that has it brings it back.

import { confirmDialog, copyText, h, toast } from '../dom.js';
import { t } from '../i18n.js';

/**
 * @typedef {object} ManageActions
 * @property {(name: string) => Promise<void>} rename
 * @property {() => Promise<void>} reinvite
 * @property {(member: string) => Promise<void>} depart   leave (one's own id) or remove
 * @property {(what: 'json' | 'standings' | 'games') => Promise<void>} exportAs
 * @property {(on: boolean) => Promise<void>} push
 */

/**
 * The card.
 * @param {any} view  the CircleView
 * @param {{invite: string | null, push: boolean}} held  what this browser holds
 * @param {ManageActions} act
 * @returns {HTMLElement}
 */
export function manageCard(view, held, act) {
  const creator = view.creator === view.you;
  const present = view.members.filter((/** @type {any} */ m) => m.status === 'member');
  const name = h('input', { type: 'text', class: 'circle-rename-input', value: view.name, maxlength: 48, 'aria-label': t('circle.rename_label') });
  return h('section', { class: 'card circle-manage', 'aria-labelledby': 'circle-manage-title' },
    h('h2', { id: 'circle-manage-title', text: t('circle.people') }),
    h('h3', { text: t('circle.invite_title') }),
    held.invite
      ? h('div', { class: 'transfer-link' },
        h('input', { type: 'text', readonly: true, value: held.invite, class: 'circle-invite', 'aria-label': t('circle.invite_label') }),
        h('button', { type: 'button', class: 'btn btn-small', text: t('common.copy'), onclick: async () => toast((await copyText(held.invite || '')) ? t('common.copied') : t('common.copy_failed')) }))
      : h('p', { class: 'muted small', text: t('circle.invite_unknown') }),
    h('p', { class: 'muted small', text: t('circle.invite_help') }),
    creator ? h('button', { type: 'button', class: 'btn btn-small new-invite', text: t('circle.new_invite'), onclick: () => act.reinvite() }) : null,
    h('h3', { text: t('circle.members_title', { n: present.length }) }),
    h('ul', { class: 'circle-members' }, ...present.map((/** @type {any} */ m) => h('li', { dataset: { member: m.id } },
      h('span', { class: 'member-name', text: m.name }),
      m.id === view.creator ? h('span', { class: 'tag', text: t('circle.creator') }) : null,
      m.id === view.you ? h('span', { class: 'tag', text: t('circle.you') }) : null,
      creator && m.id !== view.you ? h('button', {
        type: 'button', class: 'btn btn-small btn-danger remove-member', text: t('circle.remove'),
        onclick: async () => {
          const q = { title: t('circle.remove'), body: t('circle.remove_confirm', { name: m.name }), ok: t('circle.remove'), cancel: t('common.cancel'), danger: true };
          if (await confirmDialog(q)) act.depart(m.id);
        },
      }) : null))),
    creator ? h('form', {
      class: 'circle-rename',
      onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); act.rename(name.value); },
    }, h('label', { class: 'field' }, h('span', { text: t('circle.rename_label') }), name),
    h('button', { type: 'submit', class: 'btn btn-small', text: t('circle.rename') })) : null,
    h('label', { class: 'check' },
      h('input', { type: 'checkbox', class: 'circle-push', checked: held.push, onchange: (/** @type {Event} */ e) => act.push(/** @type {HTMLInputElement} */ (e.target).checked) }),
      h('span', { text: t('circle.push') })),
    h('h3', { text: t('circle.export') }),
    h('div', { class: 'action-row' },
      h('button', { type: 'button', class: 'btn btn-small export-json', text: t('circle.export_json'), onclick: () => act.exportAs('json') }),
      h('button', { type: 'button', class: 'btn btn-small export-standings', text: t('circle.export_standings'), onclick: () => act.exportAs('standings') }),
      h('button', { type: 'button', class: 'btn btn-small export-games', text: t('circle.export_games'), onclick: () => act.exportAs('games') })),
    h('h3', { text: t('circle.your_key') }),
    h('p', { class: 'muted small key-note', text: t('circle.key_note') }),
    h('button', {
      type: 'button', class: 'btn btn-small btn-danger leave-circle', text: t('circle.leave'),
      onclick: async () => {
        const q = { title: t('circle.leave'), body: t('circle.leave_confirm', { name: view.name }), ok: t('circle.leave'), cancel: t('common.cancel'), danger: true };
        if (await confirmDialog(q)) act.depart(view.you);
      },
    }));
}
