// The chart of every player's chance of winning after each turn (the analysis's `chances`,
// PROTOCOL §2.3): one line per player in its army's colour, a line style of its own and its
// army's shape at its end and in the legend (so colour is never the only cue), a dot on the mover's line at each inaccuracy, mistake and blunder (a
// click reviews that turn), and the turn shown on the board. The y-axis says what it shows; a
// hover or a tap anywhere on the chart shows that turn and each player's chance beside it. Its
// text alternative is the SVG's title and description, and the numbers in a table opened on
// demand.

import { h, svg } from '../dom.js';
import { language, t } from '../i18n.js';
import { armyShape, armySwatch } from '../board/pieces.js';
import { SIGNS, isMarked, playersOf } from '../board/verdicts.js';

const LEFT = 58;
const RIGHT = 12;
const TOP = 10;
const BOTTOM = 28;
const ARMIES = ['r', 'b', 'y', 'g'];

let charts = 0;

/**
 * A chance of winning as people read it, in the page's language ("25%", "25 %").
 * @param {number} x  0 to 1
 */
export function percent(x) {
  return new Intl.NumberFormat(language(), { style: 'percent', maximumFractionDigits: 0 }).format(x);
}

/**
 * @typedef {object} ChartOptions
 * @property {any} analysis                   the analysis (PROTOCOL §2.3)
 * @property {(player: string) => string} name  a player's name at the table
 * @property {number} current                 the point shown on the board: 0 the start, i after the
 *   analysis's i-th turn
 * @property {(i: number) => void} onSelect   a turn's dot was clicked (its place in `turns`)
 * @property {number} width                   the width it is drawn at, in CSS pixels (its text
 *   then keeps its size)
 */

/**
 * The chart, its legend and its table.
 * @param {ChartOptions} o
 */
export function chanceChart(o) {
  const { analysis } = o;
  const players = playersOf(analysis);
  /** @type {number[][]} */
  const series = [analysis.start, ...analysis.chances];
  const n = series.length - 1;
  const W = Math.round(Math.min(720, Math.max(280, o.width || 560)));
  const H = Math.round(Math.min(240, Math.max(170, W * 0.4)));
  // Up to the highest chance, by quarters (at least a half): four players near a quarter each
  // would otherwise be four flat lines at the bottom.
  const most = Math.max(...series.flatMap((c) => players.map((p) => c[ARMIES.indexOf(p)] || 0)));
  const top = Math.min(1, Math.max(0.5, Math.ceil(most * 4 - 1e-9) / 4));
  const x = (/** @type {number} */ i) => LEFT + (n ? (i * (W - LEFT - RIGHT)) / n : 0);
  const y = (/** @type {number} */ c) => TOP + (1 - c / top) * (H - TOP - BOTTOM);
  const id = `chance-chart-${++charts}`;
  const last = series[n];
  const finals = players.map((p) => `${o.name(p)} ${percent(last[ARMIES.indexOf(p)])}`).join(', ');
  const chart = svg('svg', {
    viewBox: `0 0 ${W} ${H}`, class: 'chance-chart', role: 'img',
    'aria-labelledby': `${id}-title`, 'aria-describedby': `${id}-desc`,
  },
  svg('title', { id: `${id}-title`, text: t('analysis.chart_title') }),
  svg('desc', { id: `${id}-desc`, text: t('analysis.chart_desc', { n, finals }) }));
  for (const c of [0, 0.25, 0.5, 0.75, 1].filter((c) => c <= top + 1e-9)) {
    chart.append(
      svg('line', { x1: LEFT, x2: W - RIGHT, y1: y(c), y2: y(c), class: c === 0 ? 'chart-axis' : 'chart-grid' }),
      svg('text', { x: LEFT - 6, y: y(c) + 4, class: 'chart-label', 'text-anchor': 'end', text: percent(c) }));
  }
  // The y-axis's name, along it.
  const mid = (TOP + H - BOTTOM) / 2;
  chart.append(svg('text', {
    x: 12, y: mid, class: 'chart-label chart-axis-name', 'text-anchor': 'middle',
    transform: `rotate(-90 12 ${mid})`, text: t('analysis.y_axis'),
  }));
  const every = Math.max(1, Math.ceil(n / Math.max(4, Math.floor(W / 70))));
  for (let i = 0; i <= n; i += every) {
    chart.append(svg('text', { x: x(i), y: H - 8, class: 'chart-label', 'text-anchor': 'middle', text: String(i) }));
  }
  if (o.current >= 0 && o.current <= n) {
    chart.append(svg('line', { x1: x(o.current), x2: x(o.current), y1: TOP, y2: H - BOTTOM, class: 'chart-now' }));
  }
  for (const p of players) {
    const k = ARMIES.indexOf(p);
    const points = series.map((c, i) => `${x(i).toFixed(1)},${y(c[k]).toFixed(1)}`).join(' ');
    chart.append(svg('polyline', { points, class: `chance-line army-${p}` }));
    // The army's shape where its line ends (and in the legend): colour is not the only cue.
    chart.append(armyShape(p, x(n), y(last[k]), 5, { class: `chart-dot chart-end army-${p}`, 'aria-hidden': 'true' }));
  }
  analysis.turns.forEach((/** @type {any} */ turn, /** @type {number} */ i) => {
    if (!isMarked(turn)) return;
    const dot = svg('circle', {
      cx: x(i + 1), cy: y(turn.after), r: turn.label === 'blunder' ? 7 : turn.label === 'mistake' ? 6 : 5,
      class: `chance-mark mark-${turn.label} army-${turn.player}`, 'data-turn': turn.turn,
    });
    dot.addEventListener('click', () => o.onSelect(i));
    chart.append(dot);
  });
  const tip = pointTip(o, players, series, chart, { W, x, y, n });
  const legend = h('ul', { class: 'chart-legend' },
    players.map((p) => h('li', {},
      svg('svg', { viewBox: '0 0 28 10', width: 28, height: 10, 'aria-hidden': 'true' },
        svg('line', { x1: 1, x2: 27, y1: 5, y2: 5, class: `chance-line army-${p}` })),
      armySwatch(p, 12), h('span', { text: o.name(p) }))));
  return h('figure', { class: 'chance-figure' }, h('div', { class: 'chart-box' }, chart, tip), legend, numbers(o, players, series));
}

/**
 * What a point of the chart says in words: the turn (or the start) and each player's chance.
 * @param {ChartOptions} o @param {string[]} players @param {number[][]} series @param {number} i
 */
export function pointText(o, players, series, i) {
  const chances = players.map((p) => `${o.name(p)} ${percent(series[i][ARMIES.indexOf(p)] || 0)}`).join(', ');
  const turn = i > 0 ? o.analysis.turns[i - 1] : null;
  return turn
    ? t('analysis.point', { n: turn.turn, player: t(`player.${turn.player}`), played: turn.played, chances })
    : t('analysis.start_point', { chances });
}

/**
 * The hover and tap read-out: a guide at the turn under the pointer, a dot on each line, and the
 * turn with every player's chance in a box beside it (also said to screen readers, politely).
 * @param {ChartOptions} o @param {string[]} players @param {number[][]} series
 * @param {SVGElement} chart @param {{W: number, x: (i: number) => number, y: (c: number) => number, n: number}} g
 */
function pointTip(o, players, series, chart, g) {
  const tip = h('div', { class: 'chart-tip', role: 'status', 'aria-live': 'polite', hidden: true });
  const guide = svg('g', { class: 'chart-point', visibility: 'hidden', 'aria-hidden': 'true' });
  chart.append(guide);
  /** @param {PointerEvent} e */
  const show = (e) => {
    const box = chart.getBoundingClientRect();
    if (!box.width) return;
    const vx = ((e.clientX - box.left) / box.width) * g.W;
    const i = Math.max(0, Math.min(g.n, Math.round(g.n ? ((vx - LEFT) * g.n) / (g.W - LEFT - RIGHT) : 0)));
    if (tip.dataset.i === String(i) && !tip.hidden) return;
    tip.dataset.i = String(i);
    guide.replaceChildren(
      svg('line', { x1: g.x(i), x2: g.x(i), y1: TOP, y2: g.y(0), class: 'chart-guide' }),
      ...players.map((p) => armyShape(p, g.x(i), g.y(series[i][ARMIES.indexOf(p)] || 0), 4.5, { class: `chart-dot army-${p}` })));
    guide.setAttribute('visibility', 'visible');
    tip.textContent = pointText(o, players, series, i);
    tip.hidden = false;
    // Beside the guide, on the side with room.
    const left = (g.x(i) / g.W) * box.width;
    tip.style.left = left > box.width / 2 ? '' : `${Math.round(left + 10)}px`;
    tip.style.right = left > box.width / 2 ? `${Math.round(box.width - left + 10)}px` : '';
  };
  const hide = () => {
    guide.setAttribute('visibility', 'hidden');
    tip.hidden = true;
  };
  chart.addEventListener('pointermove', show);
  chart.addEventListener('pointerdown', show);
  chart.addEventListener('pointerleave', (e) => { if (e.pointerType === 'mouse') hide(); });
  return tip;
}

/**
 * The numbers behind the chart: each turn, its verdict and every player's chance after it.
 * @param {ChartOptions} o @param {string[]} players @param {number[][]} series
 */
function numbers(o, players, series) {
  const cells = (/** @type {number[]} */ c) => players.map((p) => h('td', { class: 'num', text: percent(c[ARMIES.indexOf(p)]) }));
  return h('details', { class: 'chance-numbers' },
    h('summary', { text: t('analysis.numbers') }),
    h('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': t('analysis.numbers_caption') },
      h('table', {},
        h('caption', { class: 'visually-hidden', text: t('analysis.numbers_caption') }),
        h('thead', {}, h('tr', {},
          h('th', { scope: 'col', text: t('analysis.col_turn') }),
          h('th', { scope: 'col', text: t('analysis.col_verdict') }),
          players.map((p) => h('th', { scope: 'col', text: o.name(p) })))),
        h('tbody', {},
          h('tr', {}, h('th', { scope: 'row', text: t('game.start_position') }), h('td'), cells(series[0])),
          o.analysis.turns.map((/** @type {any} */ turn, /** @type {number} */ i) => h('tr', {},
            h('th', { scope: 'row' }, `${turn.turn}. `, armySwatch(turn.player, 10), ' ', h('code', { text: turn.played })),
            h('td', { text: isMarked(turn) ? `${SIGNS[/** @type {keyof typeof SIGNS} */ (turn.label)]} ${t(`analysis.label.${turn.label}`)}` : t(`analysis.label.${turn.label}`) }),
            cells(series[i + 1])))))));
}
