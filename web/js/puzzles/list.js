// The puzzle list (`/puzzles`): every puzzle with its theme and difficulty, the ones this browser
// solved marked, a theme filter and the way to the next unsolved one.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { solvedPuzzles } from '../learn/progress.js';

/** The puzzle's number for people: `p012` → 12. @param {string} id */
export const puzzleNumber = (id) => Number(id.replace(/^\D+/, '')) || id;

/**
 * The difficulty as stars, with its words for screen readers.
 * @param {number} n  1 to 5
 */
export function difficultyStars(n) {
  const d = Math.max(1, Math.min(5, Math.round(n)));
  return h('span', { class: 'stars', role: 'img', 'aria-label': t('puzzles.difficulty', { n: d }), title: t('puzzles.difficulty', { n: d }) },
    '★'.repeat(d), h('span', { class: 'stars-off', text: '★'.repeat(5 - d) }));
}

/**
 * Draws the list into `root`.
 * @param {HTMLElement} root
 * @param {{id: string, theme: string, difficulty: number, player: string}[]} puzzles
 */
export function puzzleList(root, puzzles) {
  const solved = solvedPuzzles();
  let theme = '';
  const themes = [...new Set(puzzles.map((p) => p.theme))];
  const grid = h('ol', { class: 'puzzle-grid' });
  const select = h('select', { id: 'puzzle-theme', onchange: () => { theme = select.value; draw(); } },
    h('option', { value: '', text: t('puzzles.all_themes') }),
    ...themes.map((th) => h('option', { value: th, text: t(`puzzles.themes.${th}`) })));
  const next = puzzles.find((p) => !solved.has(p.id));
  const count = puzzles.filter((p) => solved.has(p.id)).length;

  function draw() {
    replace(grid, ...puzzles.filter((p) => !theme || p.theme === theme).map((p) =>
      h('li', { class: ['puzzle-item', solved.has(p.id) ? 'solved' : ''], dataset: { puzzle: p.id } },
        h('a', { href: `/puzzles/${p.id}`, class: 'puzzle-link' },
          h('span', { class: 'puzzle-num', text: t('puzzles.number', { n: puzzleNumber(p.id) }) }),
          h('span', { class: 'puzzle-theme', text: t(`puzzles.themes.${p.theme}`) }),
          difficultyStars(p.difficulty),
          solved.has(p.id) ? h('span', { class: 'puzzle-solved', text: t('puzzles.solved_mark') }) : null))));
  }

  replace(root,
    h('header', { class: 'learn-head' },
      h('h1', { text: t('puzzles.title') }),
      h('p', { class: 'tagline', text: t('puzzles.intro') }),
      h('div', { class: 'learn-summary' },
        h('p', { class: 'learn-count', text: t('puzzles.count', { solved: count, total: puzzles.length }) }),
        next ? h('a', { class: 'btn btn-primary', href: `/puzzles/${next.id}`, text: t(count ? 'puzzles.next_unsolved' : 'puzzles.start') }) : null,
        h('a', { class: 'btn', href: '/learn', text: t('puzzles.to_lessons') }))),
    h('div', { class: 'field inline puzzle-filter' }, h('label', { for: 'puzzle-theme', text: t('puzzles.theme') }), select),
    grid);
  draw();
}
