// The head-to-head grid of a circle: for each pair of members who finished a rated game together,
// how often the row's member finished ahead of the column's ("3–1": ahead three times, behind
// once). A table, so it reads cell by cell with a screen reader; people's names built with h().

import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * The pair of `a` and `b` from `a`'s side: [ahead, behind, games] (zeros when they never met).
 * @param {any[]} pairs  CircleView.head_to_head
 * @param {string} a @param {string} b
 * @returns {[number, number, number]}
 */
export function pairOf(pairs, a, b) {
  for (const p of pairs) {
    if (p.a === a && p.b === b) return [p.ahead, p.behind, p.games];
    if (p.a === b && p.b === a) return [p.behind, p.ahead, p.games];
  }
  return [0, 0, 0];
}

/**
 * The grid, over the members who played at least one rated game (in the standings' order).
 * @param {any} view  the CircleView
 * @returns {HTMLElement}
 */
export function headToHeadGrid(view) {
  const members = view.members.filter((/** @type {any} */ m) => m.games > 0);
  if (members.length < 2) return h('p', { class: 'muted', text: t('circle.h2h_none') });
  return h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('circle.h2h') },
    h('table', { class: 'circle-table h2h' },
      h('caption', { class: 'muted small', text: t('circle.h2h_caption') }),
      h('thead', {}, h('tr', {}, h('td', {}),
        ...members.map((/** @type {any} */ m) => h('th', { scope: 'col', text: m.name })))),
      h('tbody', {}, ...members.map((/** @type {any} */ row) => h('tr', {},
        h('th', { scope: 'row', text: row.name }),
        ...members.map((/** @type {any} */ col) => {
          if (row.id === col.id) return h('td', { class: 'self', 'aria-label': '—', text: '·' });
          const [ahead, behind, games] = pairOf(view.head_to_head, row.id, col.id);
          if (!games) return h('td', { class: 'muted', text: '—' });
          return h('td', {
            class: ['pair', ahead > behind && 'ahead', ahead < behind && 'behind'],
            dataset: { a: row.id, b: col.id },
            title: t('circle.h2h_cell', { a: row.name, b: col.name, ahead, behind, games }),
            text: `${ahead}–${behind}`,
          });
        }))))));
}
