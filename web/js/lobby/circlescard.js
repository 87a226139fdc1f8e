// The lobby's "Your circles" card: the circles of friends this browser is in (shared/circles.js),
// each a link to its page, and "New circle": a name for the circle and yours in it; the circle's
// page then gives the invite link to send to the friends.

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { createCircle } from '../api.js';
import { errorText } from '../errors.js';
import { navigate } from '../nav.js';
import { rememberName, savedName } from '../prefs.js';
import { heldCircles, saveCircle } from '../shared/circles.js';
import { keepFocus } from '../shared/focus.js';
import { openTransferDialog } from './transferdialog.js';

/**
 * The card.
 * @returns {{el: HTMLElement, relabel: () => void}}
 */
export function circlesCard() {
  let busy = false;
  let error = '';
  let open = false;
  const el = h('section', { class: 'card your-circles', 'aria-labelledby': 'your-circles-title' });
  const circleName = h('input', { type: 'text', class: 'new-circle-name', maxlength: 48, required: true });
  const myName = h('input', { type: 'text', class: 'new-circle-me', maxlength: 32, required: true, value: savedName() || '', autocomplete: 'nickname' });

  function render() {
    const circles = heldCircles();
    keepFocus(el, () => replace(el,
      h('h2', { id: 'your-circles-title', text: t('circle.your_circles') }),
      circles.length
        ? h('ul', { class: 'circle-list' }, ...circles.map((c) => h('li', {},
          h('a', { href: `/circle/${c.id}`, class: 'circle-link', text: c.name || t('circle.title') }),
          c.me ? h('span', { class: 'muted small', text: ` · ${c.me}` }) : null)))
        : h('p', { class: 'muted small', text: t('circle.none_yet') }),
      // A member's key lives in this browser: the way to another device is the transfer link.
      circles.length ? h('button', {
        type: 'button', class: 'btn btn-small btn-ghost circles-elsewhere', text: t('transfer.open'),
        onclick: () => openTransferDialog(null),
      }) : null,
      h('details', {
        open,
        ontoggle: (/** @type {Event} */ e) => {
          const now = /** @type {HTMLDetailsElement} */ (e.target).open;
          if (now !== open) { open = now; render(); }
        },
      },
      h('summary', { class: 'new-circle-toggle', text: t('circle.new_circle') }),
      // The form is there only while it is open (the lobby keeps one form to submit at a time).
      open ? [
        h('p', { class: 'muted small', text: t('circle.new_circle_help') }),
        h('form', {
          class: 'new-circle',
          onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); create(); },
        },
        h('label', { class: 'field' }, h('span', { text: t('circle.circle_name') }), circleName),
        h('label', { class: 'field' }, h('span', { text: t('circle.your_name') }), myName),
        error ? h('p', { class: 'error-text small', role: 'alert', text: error }) : null,
        h('button', { type: 'submit', class: 'btn btn-primary create-circle', disabled: busy, text: t('circle.create') })),
      ] : null)));
  }

  async function create() {
    if (busy) return;
    busy = true;
    error = '';
    render();
    try {
      const me = myName.value.trim();
      const created = await createCircle(circleName.value, me);
      rememberName(me);
      saveCircle({ id: created.id, member: created.member.id, key: created.member.key, name: circleName.value.trim(), me, invite: created.invite_url });
      toast(t('circle.created'), 'ok');
      navigate(`/circle/${created.id}`);
      return;
    } catch (e) {
      error = errorText(e, 'circle.errors');
    }
    busy = false;
    if (el.isConnected) render();
  }

  render();
  return { el, relabel: render };
}
