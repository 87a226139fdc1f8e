// The game page's turn list: every turn with its sentence, a click shows the position after it,
// with buttons to step back and forth. Until the events have come over HTTP, the turns are
// listed as plain text.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { positions } from '../board/model.js';
import { historyList, scrollToCurrent } from '../board/turns.js';
import { armySwatch } from '../board/pieces.js';
import { icon } from '../board/icons.js';

/**
 * Draws the history panel into `box`.
 * @param {HTMLElement} box
 * @param {object} c
 * @param {any} c.g
 * @param {number | null} c.viewing   index of the event shown; null: the live position
 * @param {boolean} c.unavailable     the events could not be loaded
 * @param {(index: number | null) => void} c.show  shows the position after an event (null: live)
 */
export function renderHistory(box, { g, viewing, unavailable, show }) {
  const head = h('div', { class: 'panel-head' }, h('h2', { id: 'history-title', class: 'panel-title', text: t('game.turns') }));
  if (!g.historyLoaded) {
    // Without the events, list the turns as text (no positions to show, no sentences).
    replace(box, head,
      unavailable
        ? h('div', { class: 'history-scroll' }, h('ol', { class: 'history plain' }, ...g.turns.map((/** @type {any} */ x) =>
          h('li', { class: 'history-row' }, h('span', { class: 'num', text: String(x.number) }), ' ', armySwatch(x.player, 12), ' ', h('code', { class: 'notation', text: x.turn })))))
        : h('p', { class: 'muted', text: t('common.loading') }));
    return;
  }
  const all = positions(g);
  const lastIndex = all.length ? all[all.length - 1].index : -1;
  const selected = viewing === null ? lastIndex : viewing;
  const list = historyList({
    events: g.events, selected, live: viewing === null,
    onSelect: (i) => show(i === lastIndex ? null : i),
  });
  const step = (/** @type {number} */ d) => {
    const idx = [-1, ...all.map((e) => e.index)];
    const k = idx.indexOf(selected);
    const next = idx[Math.min(idx.length - 1, Math.max(0, k + d))];
    show(next === lastIndex ? null : next);
  };
  head.append(h('span', { class: 'step-buttons' },
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': t('replay.prev'), title: t('replay.prev'), onclick: () => step(-1) }, icon('prev')),
    h('button', { type: 'button', class: 'btn btn-icon', 'aria-label': t('replay.next'), title: t('replay.next'), onclick: () => step(1) }, icon('next'))));
  replace(box, head, h('div', { class: 'history-scroll' }, list));
  requestAnimationFrame(() => scrollToCurrent(list));
}
