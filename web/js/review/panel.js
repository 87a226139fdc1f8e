// The replay's analysis panel (PROTOCOL §2.3), for a finished game: it looks whether the engine
// has judged the game (never starting it by itself), offers "Analyse this game", follows the
// engine's progress until it is done, then shows the chart of every player's chance, each
// player's accuracy and how many inaccuracies, mistakes and blunders it made, and how to see the
// better turns.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { getAnalysis } from '../api.js';
import { errorText } from '../errors.js';
import { armySwatch } from '../board/pieces.js';
import { chanceChart } from './chart.js';
import { MARKED, SIGNS, accuracyOf, playersOf, tally } from '../board/verdicts.js';

/** How often the page asks about an analysis on its way. */
const POLL_MS = 1500;

/**
 * @typedef {object} PanelOptions
 * @property {string} id                          the game
 * @property {(player: string) => string} name    a player's name at the table
 * @property {(analysis: any) => void} onDone     the analysis came (the page marks its turns)
 * @property {() => number} current               the chart's point shown on the board
 * @property {(i: number) => void} onSelect       review the analysis's i-th turn
 */

export class AnalysisPanel {
  /** @param {PanelOptions} o */
  constructor(o) {
    this.o = o;
    /** @type {'looking' | 'idle' | 'waiting' | 'done' | 'error'} */
    this.state = 'looking';
    /** @type {any} */
    this.analysis = null;
    this.progress = { done: 0, total: 0 };
    this.error = '';
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.element = h('section', { class: 'panel analysis-panel', 'aria-labelledby': 'analysis-title' });
  }

  /** Looks whether the game has an analysis, or one on its way (starts nothing). */
  look() {
    this.ask(false);
  }

  /** Stops following the engine (the page is left). */
  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** @param {boolean} start */
  async ask(start) {
    this.stop();
    try {
      this.take(await getAnalysis(this.o.id, start));
    } catch (e) {
      const err = /** @type {any} */ (e);
      this.state = start || this.state === 'waiting' ? 'error' : 'idle';
      this.error = err && err.code === 'unavailable' ? t('analysis.busy') : errorText(e);
    }
    this.render();
  }

  /** @param {any} answer */
  take(answer) {
    if (answer.status === 'done') {
      this.state = 'done';
      this.analysis = answer;
      this.o.onDone(answer);
      return;
    }
    if (answer.status === 'not_started') {
      this.state = 'idle';
      return;
    }
    this.state = 'waiting';
    this.progress = { done: answer.done || 0, total: answer.total || 0 };
    this.timer = setTimeout(() => this.ask(false), POLL_MS);
  }

  /** Draws the panel for its state. */
  render() {
    const title = h('div', { class: 'panel-head' }, h('h2', { id: 'analysis-title', class: 'panel-title', text: t('analysis.title') }));
    replace(this.element, title, ...this.body());
  }

  /** @returns {(Node | null)[]} */
  body() {
    const button = (/** @type {string} */ text) => h('button', {
      type: 'button', class: 'btn btn-primary analyse', text, onclick: () => this.ask(true),
    });
    switch (this.state) {
      case 'looking':
        return [h('p', { class: 'muted', text: t('common.loading') })];
      case 'idle':
        return [h('p', { class: 'muted small', text: t('analysis.explain') }), button(t('analysis.start'))];
      case 'waiting': {
        const { done, total } = this.progress;
        return [
          h('p', { class: 'analysis-progress', role: 'status', text: total ? t('analysis.running', { done, total }) : t('analysis.pending') }),
          h('progress', { max: String(total || 1), value: String(done), 'aria-label': t('analysis.progress_label') }),
        ];
      }
      case 'error':
        return [h('p', { class: 'error-text', role: 'alert', text: this.error }), button(t('analysis.retry'))];
      default:
        return this.done();
    }
  }

  /** The chart, the tally and how to read them. */
  done() {
    const a = this.analysis;
    const counts = tally(a);
    const players = playersOf(a);
    const marked = a.turns.some((/** @type {any} */ turn) => turn.label in SIGNS);
    return [
      chanceChart({
        analysis: a, name: this.o.name, current: this.o.current(), onSelect: this.o.onSelect,
        // Drawn at the panel's width, so its labels keep their size on a phone as on a desktop.
        width: this.element.clientWidth - 28,
      }),
      h('table', { class: 'tally' },
        h('caption', { class: 'visually-hidden', text: t('analysis.tally_caption') }),
        h('thead', {}, h('tr', {}, h('td'),
          h('th', { scope: 'col', class: 'tally-accuracy' }, h('span', { text: t('analysis.accuracy') }),
            h('span', { class: 'tally-label', text: t('analysis.accuracy_scale') })),
          MARKED.map((label) => h('th', { scope: 'col' },
            h('span', { class: `judge judge-${label}`, 'aria-hidden': 'true', text: SIGNS[label] }),
            h('span', { class: 'tally-label', text: t(`analysis.plural.${label}`) }))))),
        h('tbody', {}, players.map((p) => h('tr', {},
          h('th', { scope: 'row' }, armySwatch(p, 12), ' ', this.o.name(p)),
          h('td', { class: 'num tally-accuracy', text: accuracyText(a, p) }),
          MARKED.map((label) => h('td', { class: 'num', text: String((counts[p] || {})[label] || 0) })))))),
      h('p', { class: 'muted small', text: t('analysis.accuracy_explain') }),
      h('p', { class: 'muted small', text: t(marked ? 'analysis.how_to_review' : 'analysis.none') }),
    ];
  }
}

/**
 * A player's accuracy as the tally shows it ("87"), or a dash when the analysis has none (one
 * stored before accuracies were given, or a player who played no turn).
 * @param {any} analysis @param {string} player
 */
function accuracyText(analysis, player) {
  const a = accuracyOf(analysis, player);
  return a === null ? '–' : String(Math.round(a));
}
