// "Open my games on another device": a dialog with a QR code and a link that carry this
// browser's seats and admin tokens, and its circles' member keys (transfercode.js), to another
// browser, which imports them into its own "Your games" and circles. The games still in play go
// by default; finished ones on request; the circles always (at most MAX_CIRCLES).

import { h, copyText, toast } from '../dom.js';
import { t } from '../i18n.js';
import { qrSvg } from '../shared/qr.js';
import { heldGames, storedGameIds } from '../shared/tokens.js';
import { MAX_CIRCLES, transferLink } from '../shared/transfercode.js';
import { heldCircles } from '../shared/circles.js';

/**
 * Opens the dialog.
 * @param {{id: string, status: string}[] | null} known  the games' statuses, as "Your games"
 *   last fetched them (null: not known, every game goes)
 */
export function openTransferDialog(known) {
  const over = new Set((known || []).filter((g) => g.status === 'finished' || g.status === 'cancelled').map((g) => g.id));
  const ids = storedGameIds();
  let withFinished = over.size === 0;
  const body = h('div', { class: 'transfer-body' });
  const dlg = h('dialog', { class: 'dialog transfer-dialog', 'aria-labelledby': 'transfer-title' },
    h('h2', { id: 'transfer-title', text: t('transfer.title') }),
    h('p', { text: t('transfer.how') }),
    h('p', { class: 'muted small', text: t('transfer.secret') }),
    over.size ? h('label', { class: 'check small' },
      h('input', {
        type: 'checkbox', class: 'transfer-finished', checked: withFinished,
        onchange: (/** @type {Event} */ e) => {
          withFinished = /** @type {HTMLInputElement} */ (e.target).checked;
          draw();
        },
      }),
      h('span', { text: t('transfer.with_finished', { n: over.size }) })) : null,
    body,
    h('form', { method: 'dialog', class: 'dialog-actions' },
      h('button', { value: 'close', class: 'btn', text: t('transfer.close') })));

  function draw() {
    const games = heldGames(ids.filter((id) => withFinished || !over.has(id)));
    const circles = heldCircles().slice(0, MAX_CIRCLES).map((c) => ({ id: c.id, member: c.member, key: c.key }));
    body.replaceChildren();
    if (!games.length && !circles.length) {
      body.append(h('p', { class: 'muted', text: t('transfer.nothing') }));
      return;
    }
    const link = transferLink(location.origin, games, circles);
    /** @type {Element} */
    let code;
    try {
      code = qrSvg(link, { px: 240, label: t('transfer.qr_label', { n: games.length }) });
    } catch {
      // More than a QR code holds: the link still carries them.
      code = h('p', { class: 'muted small transfer-no-qr', text: t('transfer.too_many_for_qr') });
    }
    body.append(
      h('p', { class: 'transfer-count', text: t('transfer.count', { n: games.length }) }),
      circles.length ? h('p', { class: 'transfer-circles', text: t('transfer.circles_count', { n: circles.length }) }) : null,
      h('div', { class: 'transfer-qr' }, code),
      h('div', { class: 'transfer-link' },
        h('input', { type: 'text', readonly: true, value: link, class: 'transfer-url', 'aria-label': t('transfer.link_label') }),
        h('button', {
          type: 'button', class: 'btn btn-small copy-transfer', text: t('common.copy'), autofocus: true,
          onclick: async () => toast((await copyText(link)) ? t('common.copied') : t('common.copy_failed')),
        })));
  }

  draw();
  dlg.addEventListener('close', () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  return dlg;
}
