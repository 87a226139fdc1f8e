// The puzzle pages: `/puzzles`, the list (list.js), and `/puzzles/{id}`, one puzzle to solve on
// the real board (solve.js).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { listPuzzles } from '../learn/positions.js';
import { puzzleList } from '../puzzles/list.js';
import { puzzleSolver } from '../puzzles/solve.js';

/**
 * @param {HTMLElement} main
 * @param {{id?: string}} params
 */
export function mount(main, params) {
  const root = h('article', { class: ['learn-page', params.id ? 'puzzle-page' : 'puzzles-page'] });
  main.append(root);
  let gone = false;
  /** @type {{id: string, theme: string, difficulty: number, player: string}[]} */
  let puzzles = [];
  /** @type {{relabel: () => void} | null} */
  let solver = null;

  async function show() {
    document.title = `${t('puzzles.title')} — Djambi Online`;
    replace(root, h('p', { class: 'muted', text: t('learn.loading') }));
    try {
      puzzles = (await listPuzzles()).puzzles;
      if (gone) return;
      replace(root);
      if (!params.id) {
        puzzleList(root, puzzles);
        return;
      }
      const at = puzzles.findIndex((p) => p.id === params.id);
      if (at < 0) {
        root.append(h('section', { class: 'card narrow' },
          h('h1', { text: t('puzzles.no_puzzle') }), h('p', {}, h('a', { href: '/puzzles', text: t('puzzles.all') }))));
        return;
      }
      solver = puzzleSolver(root, { puzzles, at });
    } catch {
      if (!gone) replace(root, h('p', { class: 'error-text', role: 'alert', text: t('learn.load_error') }));
    }
  }

  show();
  return {
    unmount() { gone = true; },
    relabel() {
      if (solver) solver.relabel();
      else if (!params.id && puzzles.length) puzzleList(root, puzzles);
      else show();
    },
  };
}
