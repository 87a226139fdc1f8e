// The entry point: picks the language, routes by path (`/` lobby, `/game/{id}` game,
// `/game/{id}/replay` replay, `/rules` rules, `/learn` and `/learn/{lesson}` lessons, `/puzzles`
// and `/puzzles/{id}` puzzles, `/transfer` games from another device, `/circle/{id}` a circle
// and `/circle/{id}/join` joining it), keeps links inside the page, and registers the service
// worker.

import { LANGUAGES, language, onLanguageChange, preferredLanguage, setLanguage, t } from './i18n.js';
import { h } from './dom.js';
import { NAVIGATE_EVENT, navigate } from './nav.js';
import { registerServiceWorker } from './serviceworker.js';
import { followSystemTheme, settingsDialog } from './shared/settings.js';

/**
 * @typedef {object} View
 * @property {() => void} [unmount]
 * @property {() => void} [relabel]   redraw the text after a language change
 */

/** @type {View | null} */
let view = null;
let routeSeq = 0;

/**
 * @param {string} path
 * @returns {{name: string, params: Record<string, string>}}
 */
export function matchRoute(path) {
  let m;
  if (path === '/' || path === '/index.html') return { name: 'lobby', params: {} };
  if (path === '/rules' || path === '/rules/') return { name: 'rules', params: {} };
  if (path === '/transfer') return { name: 'transfer', params: {} };
  if (path === '/learn' || path === '/learn/') return { name: 'learn', params: {} };
  if ((m = /^\/learn\/([a-z0-9_-]+)\/?$/.exec(path))) return { name: 'learn', params: { lesson: m[1] } };
  if (path === '/puzzles' || path === '/puzzles/') return { name: 'puzzles', params: {} };
  if ((m = /^\/puzzles\/([a-z0-9_-]+)\/?$/.exec(path))) return { name: 'puzzles', params: { id: m[1] } };
  if ((m = /^\/game\/([^/]+)\/replay\/?$/.exec(path))) return { name: 'replay', params: { id: decodeURIComponent(m[1]) } };
  if ((m = /^\/game\/([^/]+)\/?$/.exec(path))) return { name: 'game', params: { id: decodeURIComponent(m[1]) } };
  if ((m = /^\/circle\/([0-9a-f-]{36})\/?$/.exec(path))) return { name: 'circle', params: { id: m[1] } };
  if ((m = /^\/circle\/([0-9a-f-]{36})\/join\/?$/.exec(path))) return { name: 'circle', params: { id: m[1], join: '1' } };
  return { name: 'notfound', params: {} };
}

async function route() {
  const seq = ++routeSeq;
  const main = /** @type {HTMLElement} */ (document.getElementById('main'));
  if (view && view.unmount) view.unmount();
  view = null;
  main.replaceChildren();
  const { name, params } = matchRoute(location.pathname);
  document.body.dataset.page = name;
  markNav(name);
  let mod;
  if (name === 'lobby') mod = await import('./pages/lobby.js');
  else if (name === 'game') mod = await import('./pages/game.js');
  else if (name === 'replay') mod = await import('./pages/replay.js');
  else if (name === 'rules') mod = await import('./pages/rules.js');
  else if (name === 'transfer') mod = await import('./pages/transfer.js');
  else if (name === 'learn') mod = await import('./pages/learn.js');
  else if (name === 'puzzles') mod = await import('./pages/puzzles.js');
  else if (name === 'circle') mod = await import('./pages/circle.js');
  if (seq !== routeSeq) return;
  if (!mod) {
    document.title = `${t('notfound.title')} — Djambi Online`;
    main.append(h('section', { class: 'card narrow' },
      h('h1', { text: t('notfound.title') }),
      h('p', {}, h('a', { href: '/', text: t('notfound.back') }))));
    return;
  }
  view = mod.mount(main, /** @type {any} */ (params));
}

/** @param {string} name */
function markNav(name) {
  for (const a of document.querySelectorAll('.topbar nav a')) {
    const target = a.getAttribute('data-route');
    if (target === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

function relabelChrome() {
  for (const el of document.querySelectorAll('[data-i18n]')) {
    el.textContent = t(el.getAttribute('data-i18n') || '');
  }
  const sel = /** @type {HTMLSelectElement | null} */ (document.getElementById('lang'));
  if (sel) sel.value = language();
}

async function start() {
  // The theme follows the system's scheme while "system" is chosen (early.js set it for the
  // first paint).
  followSystemTheme();
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById('lang'));
  for (const [code, name] of LANGUAGES) sel.append(h('option', { value: code, lang: code, text: name }));
  sel.addEventListener('change', () => setLanguage(sel.value));
  await setLanguage(preferredLanguage());
  relabelChrome();
  const settings = settingsDialog(/** @type {HTMLButtonElement} */ (document.getElementById('settings-open')));
  onLanguageChange(() => {
    relabelChrome();
    settings.relabel();
    if (view && view.relabel) view.relabel();
    else route();
  });
  document.addEventListener('click', (e) => {
    const a = /** @type {Element} */ (e.target).closest('a');
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (a.target || a.hasAttribute('download')) return;
    const url = new URL(a.href, location.href);
    if (url.origin !== location.origin || url.pathname.startsWith('/api/')) return;
    if (matchRoute(url.pathname).name === 'notfound') return;
    e.preventDefault();
    if (url.pathname === location.pathname && url.hash) {
      history.pushState(null, '', url.pathname + url.hash);
      route();
      return;
    }
    navigate(url.pathname + url.search + url.hash);
  });
  window.addEventListener('popstate', route);
  window.addEventListener(NAVIGATE_EVENT, route);
  await route();
  registerServiceWorker();
}

start();
