// Translations: English, French and Italian, the game's original languages. Dictionaries are the
// JSON files in /i18n/; keys are dotted paths into them. Text is only ever inserted with
// textContent, so translations cannot inject markup.

/** The languages offered, with their own names. */
export const LANGUAGES = /** @type {const} */ ([
  ['en', 'English'],
  ['fr', 'Français'],
  ['it', 'Italiano'],
]);

/** @typedef {(key: string, params?: Record<string, string | number>) => string} Translate */

/**
 * @param {any} dict
 * @param {string} key
 * @returns {any}
 */
function lookup(dict, key) {
  let node = dict;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) return undefined;
    node = node[part];
  }
  return node;
}

/**
 * A translate function over a dictionary, falling back to another (English) and then to the key.
 * `{name}` placeholders are replaced by `params.name`.
 * @param {object} dict
 * @param {object} [fallback]
 * @returns {Translate}
 */
export function makeTranslator(dict, fallback = {}) {
  // A dictionary may list euphony rules, `[pattern, replacement]` pairs applied after the
  // placeholders are filled (Italian: "a a5" becomes "ad a5", "e e5" becomes "ed e5").
  const rules = /** @type {{_euphony?: [string, string][]}} */ (dict)._euphony;
  /** @type {[RegExp, string][]} */
  const euphony = Array.isArray(rules)
    ? rules.map(([pattern, replacement]) => [new RegExp(pattern, 'g'), replacement])
    : [];
  return (key, params = {}) => {
    let s = lookup(dict, key);
    if (typeof s !== 'string') s = lookup(fallback, key);
    if (typeof s !== 'string') return key;
    s = s.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
    for (const [pattern, replacement] of euphony) s = s.replace(pattern, replacement);
    return s;
  };
}

/**
 * Joins words as a list: "A, B and C".
 * @param {Translate} t
 * @param {string[]} items
 */
export function listOf(t, items) {
  if (items.length <= 1) return items.join('');
  return items.slice(0, -1).join(', ') + t('common.and') + items[items.length - 1];
}

/** Upper-cases the first letter of a sentence. @param {string} s */
export function capitalize(s) {
  return s ? s[0].toLocaleUpperCase() + s.slice(1) : s;
}

// ---- the browser's current language ----

const STORAGE_KEY = 'djambi.lang';
/** @type {Record<string, object>} */
const loaded = {};
let current = 'en';
/** @type {Translate} */
let translate = (key) => key;
/** @type {Set<() => void>} */
const listeners = new Set();

/** @param {string} lang */
async function fetchDict(lang) {
  if (!loaded[lang]) {
    const res = await fetch(`/i18n/${lang}.json`);
    if (!res.ok) throw new Error(`no dictionary for ${lang}`);
    loaded[lang] = await res.json();
  }
  return loaded[lang];
}

/** The language to start with: the saved choice, else the browser's, else English. */
export function preferredLanguage() {
  const codes = /** @type {string[]} */ (LANGUAGES.map(([c]) => c));
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && codes.includes(saved)) return saved;
  } catch { /* storage may be disabled */ }
  for (const l of navigator.languages || [navigator.language]) {
    const code = String(l).slice(0, 2).toLowerCase();
    if (codes.includes(code)) return code;
  }
  return 'en';
}

/**
 * Switches the language, loads its dictionary and tells every listener.
 * @param {string} lang
 */
export async function setLanguage(lang) {
  const en = await fetchDict('en');
  const dict = lang === 'en' ? en : await fetchDict(lang).catch(() => en);
  current = lang;
  translate = makeTranslator(dict, en);
  document.documentElement.lang = lang;
  try { localStorage.setItem(STORAGE_KEY, lang); } catch { /* ignore */ }
  for (const f of listeners) f();
}

/** The current language code. */
export function language() {
  return current;
}

/** Translates with the current language. @type {Translate} */
export function t(key, params) {
  return translate(key, params);
}

/**
 * Calls `f` after every language change; returns a function that stops it.
 * @param {() => void} f
 */
export function onLanguageChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}
