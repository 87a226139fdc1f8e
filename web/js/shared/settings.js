// This browser's display settings, kept in localStorage, and the dialog that changes them (the
// top bar's "Settings"): the theme (light, dark, or the system's), the sounds (shared/alerts.js,
// off until turned on), the speed of the board's animations (slow, normal, fast, off; a system
// that asks for reduced motion gets none whatever is chosen) and whether the game page shows its
// text view of the board (always there for screen readers). early.js applies the theme and the
// speed before the first paint; this module keeps them applied as they change.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { setSound, soundOn, unlockAudioOnGesture } from './alerts.js';

const THEME_KEY = 'djambi.theme';
const MOTION_KEY = 'djambi.motion';
const TEXT_VIEW_KEY = 'djambi.textView';

/** The theme choices, in the dialog's order. */
export const THEMES = /** @type {const} */ (['system', 'light', 'dark']);
/** The animation speeds, in the dialog's order. */
export const MOTIONS = /** @type {const} */ (['slow', 'normal', 'fast', 'off']);
/** How long each speed makes an animation, against the normal one. */
const MOTION_FACTOR = { slow: 1.8, normal: 1, fast: 0.45, off: 0 };

/** The window event sent when a setting changes (the game page redraws its text view). */
export const SETTINGS_EVENT = 'djambi:settings';

/** @param {string} key @returns {string | null} */
function read(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** @param {string} key @param {string} value */
function write(key, value) {
  try { localStorage.setItem(key, value); } catch { /* storage may be off */ }
  window.dispatchEvent(new Event(SETTINGS_EVENT));
}

/** The theme chosen here (the system's by default). @returns {typeof THEMES[number]} */
export function themeChoice() {
  const v = read(THEME_KEY);
  return v === 'light' || v === 'dark' ? v : 'system';
}

/** The scheme the system asks for now. */
function systemDark() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/** Sets `data-theme` on the page's root from the choice (and the system's scheme). */
export function applyTheme() {
  const choice = themeChoice();
  const dark = choice === 'dark' || (choice === 'system' && systemDark());
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

/** @param {typeof THEMES[number]} choice */
export function setTheme(choice) {
  write(THEME_KEY, choice);
  applyTheme();
}

/** The animation speed chosen here (normal by default). @returns {typeof MOTIONS[number]} */
export function motionChoice() {
  const v = read(MOTION_KEY);
  return v === 'slow' || v === 'fast' || v === 'off' ? v : 'normal';
}

/** @param {typeof MOTIONS[number]} choice */
export function setMotion(choice) {
  write(MOTION_KEY, choice);
  if (choice === 'normal') delete document.documentElement.dataset.motion;
  else document.documentElement.dataset.motion = choice;
}

/** Whether the system asks for reduced motion (honoured whatever the speed chosen). */
export function reducedMotion() {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** How long things on the board take against the normal speed, as chosen (0: animations off). */
export function motionFactor() {
  return MOTION_FACTOR[motionChoice()];
}

/**
 * How long an animation of `ms` at normal speed lasts now: 0 when animations are off or the
 * system asks for reduced motion.
 * @param {number} ms
 */
export function animationMs(ms) {
  if (reducedMotion()) return 0;
  return Math.round(ms * motionFactor());
}

/** Whether the game page shows its text view of the board (it is there for screen readers anyway). */
export function textViewShown() {
  return read(TEXT_VIEW_KEY) === '1';
}

/** @param {boolean} on */
export function setTextViewShown(on) {
  write(TEXT_VIEW_KEY, on ? '1' : '0');
}

/** Keeps the theme in step with the system's scheme while "system" is chosen. */
export function followSystemTheme() {
  applyTheme();
  if (typeof matchMedia !== 'function') return;
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', applyTheme);
}

/**
 * The settings dialog, opened by the top bar's button; `relabel` redraws it in a new language.
 * @param {HTMLButtonElement} opener
 * @returns {{relabel: () => void}}
 */
export function settingsDialog(opener) {
  const dialog = /** @type {HTMLDialogElement} */ (h('dialog', { class: 'dialog settings-dialog', 'aria-labelledby': 'settings-title' }));
  document.body.append(dialog);

  /**
   * A group of radio buttons.
   * @param {string} name @param {readonly string[]} values @param {string} current
   * @param {(v: any) => void} set @param {string} legend @param {Node | null} [note]
   */
  function radios(name, values, current, set, legend, note = null) {
    return h('fieldset', { class: `settings-group settings-${name}` },
      h('legend', { text: legend }),
      h('div', { class: 'settings-options' },
        ...values.map((v) => h('label', { class: 'settings-option' },
          h('input', {
            type: 'radio', name: `settings-${name}`, value: v, checked: v === current,
            onchange: () => { set(v); render(); },
          }),
          h('span', { text: t(`settings.${name}_${v}`) })))),
      note);
  }

  function render() {
    replace(dialog,
      h('h2', { id: 'settings-title', text: t('settings.title') }),
      radios('theme', THEMES, themeChoice(), setTheme, t('settings.theme')),
      h('fieldset', { class: 'settings-group settings-sounds' },
        h('legend', { text: t('settings.sounds') }),
        h('label', { class: 'check' },
          h('input', {
            type: 'checkbox', class: 'settings-sound', checked: soundOn(),
            onchange: (/** @type {Event} */ e) => {
              setSound(/** @type {HTMLInputElement} */ (e.target).checked);
              window.dispatchEvent(new Event(SETTINGS_EVENT));
            },
          }),
          h('span', {}, t('settings.sounds_on'), h('small', { text: t('settings.sounds_help') })))),
      radios('motion', MOTIONS, motionChoice(), setMotion, t('settings.motion'),
        reducedMotion() ? h('p', { class: 'small muted settings-reduced', text: t('settings.motion_reduced') }) : null),
      h('fieldset', { class: 'settings-group settings-a11y' },
        h('legend', { text: t('settings.text_view') }),
        h('label', { class: 'check' },
          h('input', {
            type: 'checkbox', class: 'settings-text-view', checked: textViewShown(),
            onchange: (/** @type {Event} */ e) => setTextViewShown(/** @type {HTMLInputElement} */ (e.target).checked),
          }),
          h('span', {}, t('settings.text_view_on'), h('small', { text: t('settings.text_view_help') })))),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'btn btn-primary settings-close', text: t('settings.close'), onclick: () => dialog.close() })));
  }

  opener.addEventListener('click', () => {
    render();
    dialog.showModal();
    const first = dialog.querySelector('input:checked, input');
    if (first instanceof HTMLElement) first.focus();
  });
  dialog.addEventListener('close', () => opener.focus());
  // A click on the backdrop (outside the dialog's box) closes it.
  dialog.addEventListener('click', (e) => {
    if (e.target !== dialog) return;
    const r = dialog.getBoundingClientRect();
    const inside = e.clientX >= r.left && e.clientX <= r.right && e.clientY >= r.top && e.clientY <= r.bottom;
    if (!inside) dialog.close();
  });
  unlockAudioOnGesture();
  return { relabel: () => { if (dialog.open) render(); } };
}
