// A diagram of the rules page: the board, seen from Red's seat as in the lessons, with its
// coordinates beside it (board.js), the squares its caption speaks of marked, and "Play the
// example": Next and Back through the example's turns, each drawn as the game draws a turn and
// explained in the caption. The positions and marks come
// from data/rules-examples.json, which the djambi command computed: nothing here knows a rule.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { BoardView } from './board.js';
import { ARMIES, parseDpn } from './dpn.js';
import { parseTurn } from './picker.js';
import { describeSquare } from './panels.js';

/**
 * @typedef {object} Figure   one figure of data/rules-examples.json
 * @property {string} position
 * @property {string} [selected]
 * @property {'moves'|'reporter'|'exits'|'turn'|'none'} show
 * @property {string[]} options
 * @property {string[]} victims
 * @property {{turn: string, position: string}[]} steps
 */

/** The army drawn in the bottom-left corner: Red's, as in the lessons (every board turns so
 * that its viewer's army is at the bottom; on the rules page and in the lessons that is Red). */
const BOTTOM = 'r';

/**
 * The board's marks before the example is played.
 * @param {Figure} f
 * @returns {import('./board.js').Marks}
 */
function figureMarks(f) {
  return {
    selected: f.selected || null,
    options: f.options,
    optionKind: f.show === 'exits' ? 'exit' : 'to',
    victims: f.victims,
  };
}

/**
 * The board's marks after step `k` (1-based): that turn, numbered and in its player's colour as
 * the game draws recent turns; the armies nobody controls any more, faded.
 * @param {Figure} f @param {number} k
 * @returns {import('./board.js').Marks}
 */
function stepMarks(f, k) {
  const before = parseDpn(k === 1 ? f.position : f.steps[k - 2].position);
  const after = parseDpn(f.steps[k - 1].position);
  const parts = parseTurn(f.steps[k - 1].turn);
  const to = parts ? parts.exit || parts.to : null;
  const at = parts ? [parts.victim, parts.place, parts.exit ? parts.to : null].filter((s) => s !== null) : [];
  const present = new Set(Object.values(after.board).map((c) => ('corpse' in c ? null : c.army)));
  return {
    turns: [{ n: k, player: before.toMove || 'r', from: parts && parts.from, to, at: /** @type {string[]} */ (at), active: true }],
    dim: ARMIES.filter((a) => after.control[a] === null && present.has(a)),
  };
}

/**
 * The figure `name` of the rules page.
 * @param {string} name  its key in the data, and in the `rules.fig_…` and `rules.ex_…` texts
 * @param {Figure} f
 * @returns {HTMLElement}
 */
export function rulesFigure(name, f) {
  const view = new BoardView({ describe: describeSquare, label: t(`rules.fig_${name}`) });
  view.setOrientation(BOTTOM);
  const caption = h('figcaption', { 'aria-live': 'polite' });
  const controls = h('div', { class: 'example-controls' });
  let step = 0;
  const last = f.steps.length;

  /** @param {number} k @param {string} [focus]  the control to focus afterwards */
  function show(k, focus) {
    const forward = k > step;
    step = k;
    if (k === 0) view.draw(parseDpn(f.position).board, figureMarks(f));
    else {
      const parts = parseTurn(f.steps[k - 1].turn);
      const animate = forward && parts && parts.from ? [{ from: parts.from, to: parts.exit || parts.to || parts.from }] : [];
      view.draw(parseDpn(f.steps[k - 1].position).board, stepMarks(f, k), animate);
    }
    replace(caption, k === 0
      ? t(`rules.fig_${name}`)
      : [h('strong', { text: t('rules.example_step', { k, n: last }) }), ' ', t(`rules.ex_${name}_${k}`)]);
    renderControls();
    if (focus) /** @type {HTMLElement | null} */ (controls.querySelector(`.${focus}`))?.focus();
  }

  function renderControls() {
    if (step === 0) {
      replace(controls, h('button', { type: 'button', class: 'btn btn-small play-example', text: t('rules.example_play'), onclick: () => show(1, 'example-next') }));
      return;
    }
    replace(controls,
      h('button', { type: 'button', class: 'btn btn-small example-back', text: t('rules.example_back'), onclick: () => show(step - 1, step === 1 ? 'play-example' : 'example-back') }),
      step < last
        ? h('button', { type: 'button', class: 'btn btn-small btn-primary example-next', text: t('rules.example_next'), onclick: () => show(step + 1, step + 1 < last ? 'example-next' : 'example-again') })
        : h('button', { type: 'button', class: 'btn btn-small example-again', text: t('rules.example_again'), onclick: () => show(0, 'play-example') }));
  }

  show(0);
  return h('figure', { class: 'rules-figure', dataset: { figure: name } },
    h('div', { class: 'figure-board' }, view.el),
    caption,
    controls);
}
