// The rules help (`/rules`): a concise, illustrated digest of RULES.md. The illustrations are
// positions with the marks and example turns the djambi command gave for them
// (data/rules-examples.json, scripts/rules-examples.mjs), drawn by rulesfigure.js.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { pieceIcon } from '../board/pieces.js';
import { rulesFigure } from '../board/rulesfigure.js';

/** @typedef {{figures: Record<string, import('../board/rulesfigure.js').Figure>}} Examples */

/** The diagrams' data, next to the client's modules (under the client's hash, like them). */
const EXAMPLES_URL = new URL('../../data/rules-examples.json', import.meta.url);

/** @type {Promise<Examples | null> | null} */
let loading = null;

/** The diagrams' data, fetched once (null if it cannot be had: the text stands without them). */
function loadExamples() {
  if (!loading) {
    loading = fetch(EXAMPLES_URL)
      .then((res) => (res.ok ? res.json() : null))
      .catch(() => null)
      .then((data) => {
        if (!data) loading = null;
        return data;
      });
  }
  return loading;
}

/**
 * @param {string} key
 */
function paragraphs(key) {
  return t(key).split('\n\n').map((p) => h('p', { text: p }));
}

/** @param {HTMLElement} main */
export function mount(main) {
  const root = h('article', { class: 'rules-page' });
  main.append(root);
  /** @type {Examples | null} */
  let examples = null;

  /** A diagram, once its data is here. @param {string} name */
  function figure(name) {
    const f = examples && examples.figures[name];
    return f ? rulesFigure(name, f) : null;
  }

  function render() {
    document.title = `${t('rules.title')} — Djambi Online`;
    const roles = ['Chief', 'Militant', 'Assassin', 'Reporter', 'Diplomat', 'Necromobile'];
    const letters = { Chief: 'C', Militant: 'M', Assassin: 'A', Reporter: 'R', Diplomat: 'D', Necromobile: 'N' };
    replace(root,
      h('header', { class: 'rules-head' },
        h('h1', { text: t('rules.title') }),
        h('p', { class: 'tagline', text: t('rules.intro') })),
      h('nav', { class: 'rules-toc', 'aria-label': t('rules.contents') },
        h('ol', {}, ...['goal', 'board', 'moving', 'pieces', 'maze', 'elimination', 'three', 'end', 'here'].map((s) =>
          h('li', {}, h('a', { href: `#${s}`, onclick: (/** @type {Event} */ e) => { e.preventDefault(); document.getElementById(s)?.scrollIntoView({ behavior: 'smooth' }); }, text: t(`rules.${s}_title`) }))))),
      section('goal'),
      section('board', figure('start')),
      section('moving'),
      h('section', { id: 'pieces', class: 'rules-section' },
        h('h2', { text: t('rules.pieces_title') }),
        ...paragraphs('rules.pieces_body'),
        h('div', { class: 'piece-cards' }, ...roles.map((r) => h('div', { class: 'piece-card', id: `piece-${r}` },
          h('div', { class: 'piece-card-head' },
            pieceIcon(letters[/** @type {keyof typeof letters} */ (r)], 'r', 44), pieceIcon(letters[/** @type {keyof typeof letters} */ (r)], 'y', 44),
            h('h3', { text: t(`role.${r}`) })),
          h('p', { text: t(`rules.piece_${r}`) }),
          figure(r)))),
        h('div', { class: 'piece-card corpse-card' },
          h('div', { class: 'piece-card-head' }, pieceIcon(null, 'r', 44), h('h3', { text: t('rules.corpse_title') })),
          h('p', { text: t('rules.corpse_body') }))),
      section('maze', figure('maze')),
      section('elimination', figure('corpses')),
      section('three'),
      section('end'),
      section('here'));
  }

  /** @param {string} name @param {...(HTMLElement | null)} extra */
  function section(name, ...extra) {
    return h('section', { id: name, class: 'rules-section' },
      h('h2', { text: t(`rules.${name}_title`) }),
      ...paragraphs(`rules.${name}_body`),
      ...extra);
  }

  render();
  loadExamples().then((data) => {
    examples = data;
    if (data && root.isConnected) render();
  });
  return { relabel: render };
}
