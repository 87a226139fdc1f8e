// Each member's rating over time, as an SVG line chart (one line per member, after each rated
// game they played), with its legend and, for people who do not see it, the same figures as a
// table ("Show as a table"). The chart is a figure with its own text description.

import { h, svg } from '../dom.js';
import { t } from '../i18n.js';
import { ratingText } from './standings.js';

/** Line colours (and dash patterns, so lines differ without colour too). */
const COLOURS = ['#b8322a', '#2f5fb0', '#b88a10', '#2a7d3d', '#7a3fa0', '#0f8a8a', '#a0522d', '#555'];
const DASHES = ['', '6 4', '2 3', '10 3 2 3'];

/**
 * Each member's points: [game index (1-based), rating] after each rated game they played.
 * @param {any} view
 * @returns {Map<string, [number, number][]>}
 */
export function seriesOf(view) {
  /** @type {Map<string, [number, number][]>} */
  const out = new Map();
  view.history.forEach((/** @type {any} */ point, /** @type {number} */ i) => {
    for (const [member, rating] of Object.entries(point.ratings)) {
      if (!out.has(member)) out.set(member, []);
      /** @type {[number, number][]} */ (out.get(member)).push([i + 1, Number(rating)]);
    }
  });
  return out;
}

/**
 * The chart with its legend and table.
 * @param {any} view  the CircleView
 * @returns {HTMLElement}
 */
export function ratingChart(view) {
  const series = seriesOf(view);
  const games = view.history.length;
  if (!games) return h('p', { class: 'muted', text: t('circle.chart_none') });
  const members = view.members.filter((/** @type {any} */ m) => series.has(m.id));
  const all = [...series.values()].flat().map((p) => p[1]);
  const lo = Math.floor(Math.min(...all, 0) - 1);
  const hi = Math.ceil(Math.max(...all) + 1);
  const W = 600;
  const H = 260;
  const pad = { l: 40, r: 12, t: 12, b: 28 };
  const x = (/** @type {number} */ i) => pad.l + ((W - pad.l - pad.r) * i) / games;
  const y = (/** @type {number} */ r) => pad.t + ((H - pad.t - pad.b) * (hi - r)) / (hi - lo || 1);
  const step = Math.max(1, Math.ceil((hi - lo) / 6));
  /** @type {SVGElement[]} */
  const grid = [];
  for (let r = Math.ceil(lo / step) * step; r <= hi; r += step) {
    grid.push(svg('line', { x1: pad.l, x2: W - pad.r, y1: y(r), y2: y(r), class: 'chart-grid' }));
    grid.push(svg('text', { x: pad.l - 6, y: y(r) + 4, class: 'chart-label', 'text-anchor': 'end', text: String(r) }));
  }
  const every = Math.max(1, Math.ceil(games / 10));
  for (let i = 1; i <= games; i += every) {
    grid.push(svg('text', { x: x(i), y: H - 8, class: 'chart-label', 'text-anchor': 'middle', text: String(i) }));
  }
  const lines = members.map((/** @type {any} */ m, /** @type {number} */ k) => {
    const pts = /** @type {[number, number][]} */ (series.get(m.id));
    const colour = COLOURS[k % COLOURS.length];
    // From the start (a newcomer's rating, where the first point's line begins) to each game.
    const d = pts.map(([i, r], j) => `${j ? 'L' : 'M'}${x(i).toFixed(1)},${y(r).toFixed(1)}`).join(' ');
    return svg('g', { class: 'chart-series', 'data-member': m.id },
      svg('path', { d, fill: 'none', stroke: colour, 'stroke-width': 2.5, 'stroke-dasharray': DASHES[Math.floor(k / COLOURS.length) % DASHES.length] || DASHES[k % DASHES.length] }),
      ...pts.map(([i, r]) => svg('circle', { cx: x(i), cy: y(r), r: 3.5, fill: colour },
        svg('title', { text: `${m.name}: ${ratingText(r)} (${t('circle.chart_game', { n: i })})` }))));
  });
  const desc = t('circle.chart_desc', { games, members: members.length });
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img', 'aria-labelledby': 'rating-chart-desc' },
    svg('desc', { id: 'rating-chart-desc', text: desc }), ...grid, ...lines);
  const legend = h('ul', { class: 'chart-legend' }, ...members.map((/** @type {any} */ m, /** @type {number} */ k) => h('li', {},
    h('span', { class: 'legend-swatch', style: { background: COLOURS[k % COLOURS.length] }, 'aria-hidden': 'true' }),
    h('span', { text: m.name }))));
  const table = h('details', { class: 'chart-table' },
    h('summary', { text: t('circle.chart_table') }),
    h('div', { class: 'table-wrap', tabindex: 0, role: 'region', 'aria-label': t('circle.chart_table') }, h('table', { class: 'circle-table' },
      h('caption', { class: 'visually-hidden', text: desc }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', text: t('circle.col_game') }),
        ...members.map((/** @type {any} */ m) => h('th', { scope: 'col', text: m.name })))),
      h('tbody', {}, ...view.history.map((/** @type {any} */ p, /** @type {number} */ i) => h('tr', {},
        h('th', { scope: 'row', text: t('circle.chart_game', { n: i + 1 }) }),
        ...members.map((/** @type {any} */ m) => h('td', { class: 'num', text: m.id in p.ratings ? ratingText(p.ratings[m.id]) : '' }))))))));
  return h('figure', { class: 'chart' }, chart, h('figcaption', { class: 'muted small', text: t('circle.chart_caption') }), legend, table);
}
