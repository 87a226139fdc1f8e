// The lobby's "Import a game record" card: a record (NOTATION §4, as the game pages download
// it) chosen as a file or pasted, sent to `POST /api/games/import`; the server replays it and
// the page opens the game — its replay when the record ends it, else the game, whose seats wait
// for the invite links this browser keeps. What is wrong is said under the record's field: the
// server's own reason (the first event that does not replay), or the client's (not JSON).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { getGame, importRecord } from '../api.js';
import { saveInvites } from '../shared/tokens.js';
import { errorText } from '../errors.js';
import { markInvalid, clearInvalid } from '../shared/invalid.js';
import { navigate } from '../nav.js';
import { keepFocus } from '../shared/focus.js';

/**
 * Why the server refused a record, as a sentence: a record that does not replay names its
 * first bad event in the server's words.
 * @param {any} e
 */
export function importErrorText(e) {
  if (e && e.code === 'invalid_record' && e.message) return t('import.invalid', { reason: e.message });
  return errorText(e);
}

/**
 * The record's text as JSON, or the reason it is not.
 * @param {string} text
 * @returns {{record: unknown} | {error: string}}
 */
export function parseRecordText(text) {
  if (!text.trim()) return { error: t('import.empty') };
  try {
    return { record: JSON.parse(text) };
  } catch {
    return { error: t('import.not_json') };
  }
}

/**
 * The card.
 * @returns {{el: HTMLElement, relabel: () => void}}
 */
export function importCard() {
  let busy = false;
  let text = '';
  /** What is wrong with the record, shown under its field until it changes. */
  let problem = '';
  const el = h('section', { class: 'card import-record', 'aria-labelledby': 'import-title' });
  const area = h('textarea', {
    id: 'import-text', name: 'record', class: 'import-text', rows: 4, spellcheck: 'false', autocomplete: 'off',
    oninput: () => {
      text = area.value;
      forget();
    },
  });
  const file = h('input', { id: 'import-file', type: 'file', name: 'record_file', class: 'import-file', accept: '.json,application/json', onchange: readFile });
  // Not a form's submit button: the lobby's one form is the create form, and Enter in the
  // paste area is a new line.
  const button = h('button', { type: 'button', class: 'btn btn-primary import-submit', onclick: () => submit() });

  /** Draws the card in the page's language; the record typed or read so far stays. */
  function render() {
    keepFocus(el, () => {
      area.value = text;
      replace(el,
        h('h2', { id: 'import-title', text: t('import.title') }),
        h('p', { class: 'muted small', text: t('import.help') }),
        h('div', { class: 'field' }, h('label', { for: 'import-file', text: t('import.file') }), file),
        h('div', { class: 'field' }, h('label', { for: 'import-text', text: t('import.paste') }), area),
        button);
      setBusy(busy);
      if (problem) markInvalid(area, problem);
    });
  }

  /** @param {boolean} on */
  function setBusy(on) {
    busy = on;
    button.disabled = on;
    button.textContent = on ? t('import.importing') : t('import.submit');
  }

  /** A chosen file fills the paste area: one place holds the record that is sent. */
  async function readFile() {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    try {
      text = await chosen.text();
      area.value = text;
      forget();
    } catch {
      show(t('import.unreadable'));
    }
  }

  async function submit() {
    if (busy) return;
    const parsed = parseRecordText(text);
    if ('error' in parsed) {
      show(parsed.error);
      return;
    }
    setBusy(true);
    try {
      const created = await importRecord(parsed.record);
      // The seats' invite links are this browser's, as for a game it created.
      saveInvites(created.id, created.seats);
      const game = await getGame(created.id).catch(() => null);
      const over = game && (game.result || game.status === 'finished' || game.status === 'cancelled');
      navigate(over ? `/game/${created.id}/replay` : `/game/${created.id}`);
    } catch (err) {
      setBusy(false);
      show(importErrorText(err));
    }
  }

  /** Shows what is wrong under the record's field, and goes there. @param {string} message */
  function show(message) {
    problem = message;
    markInvalid(area, message);
    area.focus();
  }

  /** The record changed: what was wrong with it no longer shows. */
  function forget() {
    if (!problem) return;
    problem = '';
    clearInvalid(area);
  }

  render();
  return { el, relabel: render };
}
