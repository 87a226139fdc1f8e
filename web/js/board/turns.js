// The list of a game's turns in notation, each with a plain sentence; a click shows the position
// after that turn. Shared by the game page and the replay.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { narrate } from './narrate.js';
import { armySwatch } from './pieces.js';
import { isPositionEvent } from './model.js';
import { SIGNS } from './verdicts.js';

/**
 * @param {object} o
 * @param {any[]} o.events      the game's events (PROTOCOL §3.5)
 * @param {number} o.selected   index of the event whose position is shown; -1 for the start
 * @param {boolean} o.live      the shown position is the current one
 * @param {(index: number) => void} o.onSelect
 * @param {Map<number, {label: string}>} [o.verdicts]  the engine's verdict on turns, by event
 *   index (the replay of an analysed game): inaccuracies, mistakes and blunders are marked
 */
export function historyList({ events, selected, live, onSelect, verdicts }) {
  const list = h('ol', { class: 'history', 'aria-label': t('game.turns') });
  list.append(h('li', { class: 'history-row start' },
    h('button', {
      type: 'button', class: 'history-btn', 'aria-current': selected === -1 ? 'true' : null,
      onclick: () => onSelect(-1),
    }, h('span', { class: 'num', text: '0' }), h('span', { class: 'sentence', text: t('game.start_position') }))));
  // Turns taken back stay in the log: they are struck through.
  const undone = new Set(events.filter((ev) => ev.kind === 'taken_back').flatMap((ev) => ev.undone || []));
  events.forEach((ev, i) => {
    const sentence = narrate(t, ev);
    if (!isPositionEvent(ev)) {
      list.append(h('li', { class: 'history-row note', dataset: { index: String(i) } },
        h('span', { class: 'num' }), h('span', { class: 'sentence', text: sentence })));
      return;
    }
    const who = ev.kind === 'turn' ? ev.player : ev.kind === 'resign' ? ev.player : null;
    const label = ev.kind === 'turn' ? ev.turn : ev.kind === 'resign' ? t('game.resigns_short')
      : ev.kind === 'taken_back' ? t('takeback.short') : t('game.draw_short');
    list.append(h('li', { class: ['history-row', ev.kind, undone.has(ev.v) ? 'undone' : ''], dataset: { index: String(i) } },
      h('button', {
        type: 'button', class: 'history-btn',
        'aria-current': selected === i ? (live ? 'step' : 'true') : null,
        onclick: () => onSelect(i),
      },
      h('span', { class: 'num', text: ev.kind === 'turn' ? String(ev.number) : '·' }),
      who ? armySwatch(who, 12) : h('span', { class: 'swatch-gap' }),
      judged(h('code', { class: 'notation', text: label }), verdicts && verdicts.get(i)),
      h('span', { class: 'sentence', text: sentence }))));
  });
  return list;
}

/**
 * A turn's notation, followed by the sign of the engine's verdict when it judged the turn an
 * inaccuracy (?!), a mistake (?) or a blunder (??), with its word for screen readers.
 * @param {HTMLElement} notation
 * @param {{label: string} | undefined} verdict
 */
function judged(notation, verdict) {
  if (!verdict || !(verdict.label in SIGNS)) return notation;
  const label = /** @type {keyof typeof SIGNS} */ (verdict.label);
  return h('span', { class: 'judged' }, notation,
    h('span', { class: `judge judge-${label}`, title: t(`analysis.label.${label}`) },
      h('span', { 'aria-hidden': 'true', text: SIGNS[label] }),
      h('span', { class: 'visually-hidden', text: ` (${t(`analysis.label.${label}`)})` })));
}

/**
 * Scrolls a history list so the shown row is visible (without moving the page).
 * @param {HTMLElement} list
 */
export function scrollToCurrent(list) {
  const cur = list.querySelector('[aria-current]');
  const box = list.parentElement;
  if (!cur || !box) return;
  const row = /** @type {HTMLElement} */ (cur.closest('li'));
  if (!row) return;
  const top = row.offsetTop - box.offsetTop;
  if (top < box.scrollTop || top + row.offsetHeight > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  }
}
