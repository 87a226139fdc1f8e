// A form field the server refused: its reason shown under it, tied to it for screen readers
// (aria-invalid, aria-describedby), until the person changes the field.

import { h } from '../dom.js';

/**
 * Marks `control` invalid with `text` shown next to it: after `after` (the field's row or label;
 * the control itself by default).
 * @param {HTMLElement} control @param {string} text @param {HTMLElement} [after]
 */
export function markInvalid(control, text, after) {
  clearInvalid(control);
  const name = control.getAttribute('name') || control.id || 'field';
  const note = h('p', { id: `invalid-${name}`, class: 'field-error', role: 'alert', text });
  control.setAttribute('aria-invalid', 'true');
  const described = (control.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
  control.setAttribute('aria-describedby', [...described, note.id].join(' '));
  (after || control).after(note);
}

/** Takes the mark of `markInvalid` off `control`. @param {HTMLElement} control */
export function clearInvalid(control) {
  const name = control.getAttribute('name') || control.id || 'field';
  const id = `invalid-${name}`;
  const note = document.getElementById(id);
  if (note) note.remove();
  control.removeAttribute('aria-invalid');
  const rest = (control.getAttribute('aria-describedby') || '').split(' ').filter((x) => x && x !== id);
  if (rest.length) control.setAttribute('aria-describedby', rest.join(' '));
  else control.removeAttribute('aria-describedby');
}
