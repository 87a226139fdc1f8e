// A circle's standings (docs/CIRCLES.md): each member's conservative rating (μ − 2σ), with a
// "provisional" mark before 5 rated games, their games, wins, draws, average place and when
// they last played; members who left are shown too, marked. Names are people's text: built with
// h(), never as markup.

import { h } from '../dom.js';
import { t } from '../i18n.js';

/**
 * A rating as shown: one decimal, a real minus sign.
 * @param {number} r
 */
export function ratingText(r) {
  const s = (Math.round(r * 10) / 10).toFixed(1);
  return s.startsWith('-') ? `−${s.slice(1)}` : s;
}

/**
 * A date as shown (the day, in the page's language).
 * @param {string | null} iso
 * @param {string} lang
 */
export function dayText(iso, lang) {
  if (!iso) return '—';
  try {
    return new Date(iso).toLocaleDateString(lang, { day: 'numeric', month: 'short', year: 'numeric' });
  } catch {
    return iso.slice(0, 10);
  }
}

/**
 * The standings table.
 * @param {any} view  the CircleView
 * @param {string} lang
 * @returns {HTMLElement}
 */
export function standingsTable(view, lang) {
  const head = ['rank', 'member', 'rating', 'games', 'wins', 'draws', 'average_place', 'last_played'];
  const note = view.members.some((/** @type {any} */ m) => m.provisional)
    ? h('p', { class: 'muted small footnote', text: `* ${t('circle.provisional_help')}` }) : null;
  return h('div', {}, h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('circle.standings') },
    h('table', { class: 'circle-table standings' },
      h('caption', { class: 'visually-hidden', text: t('circle.standings') }),
      h('thead', {}, h('tr', {}, ...head.map((k) => h('th', { scope: 'col', text: t(`circle.col_${k}`) })))),
      h('tbody', {}, ...view.members.map((/** @type {any} */ m, /** @type {number} */ i) => h('tr', {
        class: ['member-row', m.status !== 'member' && 'departed', m.id === view.you && 'me'],
        dataset: { member: m.id },
      },
      h('td', { class: 'num', text: String(i + 1) }),
      h('th', { scope: 'row', class: 'member-name' },
        h('span', { text: m.name }),
        m.id === view.you ? h('span', { class: 'tag', text: t('circle.you') }) : null,
        m.status !== 'member' ? h('span', { class: 'tag tag-muted', text: t(`circle.status_${m.status}`) }) : null),
      h('td', { class: 'num rating' },
        h('strong', { text: ratingText(m.rating) }),
        m.provisional ? h('span', { class: 'provisional', title: t('circle.provisional_help') },
          h('span', { 'aria-hidden': 'true', text: '*' }),
          h('span', { class: 'visually-hidden', text: ` ${t('circle.provisional')}` })) : null),
      h('td', { class: 'num', text: String(m.games) }),
      h('td', { class: 'num', text: String(m.wins) }),
      h('td', { class: 'num', text: String(m.draws) }),
      h('td', { class: 'num', text: m.average_place == null ? '—' : m.average_place.toFixed(2) }),
      h('td', { text: dayText(m.last_played, lang) })))))), note);
}
