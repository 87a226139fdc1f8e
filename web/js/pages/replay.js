// The replay (`/game/{id}/replay`): any game, live or finished, step by step from its start, with
// the record to download (JSON, or text to read). A finished game can be analysed by the engine
// (review/panel.js): its chart, its turns marked ?! ? ??, and a marked turn shown from the position
// before it with the better turn framed on the board and the turn played numbered.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { gameExists, getGame, loadHistory, recordTextUrl, recordUrl } from '../api.js';
import { GameSocket } from '../shared/socket.js';
import { BoardView } from '../board/board.js';
import { parseDpn, ARMIES } from '../board/dpn.js';
import { addHistory, applyEvent, gameAt, normalizeGame, positions, syncSeats, touchedSquares, travels } from '../board/model.js';
import { narrate } from '../board/narrate.js';
import { historyList, scrollToCurrent } from '../board/turns.js';
import { describeSquare, orphanedArmies, hostageArmy, playersPanel, gameOverCard } from '../board/panels.js';
import { armySwatch } from '../board/pieces.js';

import { errorText } from '../errors.js';
import { icon } from '../board/icons.js';
import { AnalysisPanel } from '../review/panel.js';
import { isMarked, keptChance, playedMark, turnSquares, verdictsByEvent } from '../board/verdicts.js';
import { percent } from '../review/chart.js';

/**
 * @param {HTMLElement} main
 * @param {{id: string}} params
 */
export function mount(main, { id }) {
  /** @type {any} */
  let game = null;
  let error = '';
  /** Position in `steps`: 0 is the start. */
  let cur = 0;
  /** @type {number[]} event indices with a position; -1 for the start */
  let steps = [-1];
  /** @type {any} */
  let timer = null;
  let bottom = 'r';
  /** @type {Map<number, import('../board/verdicts.js').Verdict>} the engine's verdicts by event index */
  let verdicts = new Map();
  /** The event index of the marked turn shown from the position before it, if one is. */
  let reviewing = /** @type {number | null} */ (null);

  const root = h('div', { class: 'replay-page' });
  const board = new BoardView({ describe: describeSquare, label: t('game.board') });
  const head = h('div', { class: 'game-head' });
  const controls = h('div', { class: 'replay-controls' });
  const caption = h('p', { class: 'replay-caption', 'aria-live': 'polite' });
  const side = h('div', { class: 'side-col' });
  /** Where the engine's analysis goes, under the board: a finished game's. */
  const reviewSlot = h('div', { class: 'review-slot' });
  root.append(head, h('div', { class: 'game-layout' },
    h('div', { class: 'board-col' }, h('div', { class: 'board-frame' }, board.el), caption, controls, reviewSlot),
    side));
  main.append(root);
  const analysis = new AnalysisPanel({
    id,
    name: (p) => {
      const seat = game && game.seats.find((/** @type {any} */ s) => s.player === p);
      return (seat && seat.name) || t(`player.${p}`);
    },
    onDone: (a) => {
      verdicts = verdictsByEvent(a, game ? game.events : []);
      renderSide();
    },
    current: () => chartPoint(),
    onSelect: (i) => {
      for (const [index, verdict] of verdicts) if (verdict.i === i) review(index);
    },
  });
  let looked = false;

  /** @type {GameSocket | null} */
  let socket = null;

  function restep() {
    const atEnd = cur >= steps.length - 1;
    steps = [-1, ...positions(game).map((p) => p.index)];
    // Following a live game: stay on the last position when it moves on.
    cur = atEnd && following ? steps.length - 1 : Math.min(cur, steps.length - 1);
  }
  let following = false;
  let renderQueued = false;
  function renderSoon() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(() => {
      renderQueued = false;
      render();
    });
  }

  async function load() {
    if (socket) socket.close();
    socket = null;
    try {
      // A missing game is an answer (said without a 404 for the browser to log).
      if (!game && !(await gameExists(id))) {
        error = t('game.not_found');
        render();
        return;
      }
      game = normalizeGame(await getGame(id));
      syncSeats(game);
      error = '';
    } catch (e) {
      error = errorText(e);
      render();
      return;
    }
    restep();
    render();
    // The snapshot has the turns; their positions come as events, fetched page by page.
    const g = game;
    try {
      await loadHistory(id, g.v, (v, ev) => addHistory(g, v, ev));
    } catch {
      /* reported below */
    }
    if (g !== game) return;
    if (!game.historyLoaded) error = t('replay.no_history');
    restep();
    render();
    if (game.status === 'finished' && !looked) {
      looked = true;
      // `#analysis` (a circle's "Analysis" link) asks for it, as "Analyse this game" does.
      if (location.hash === '#analysis') analysis.ask(true);
      else analysis.look();
    } else if (analysis.analysis) {
      verdicts = verdictsByEvent(analysis.analysis, game.events);
      renderSide();
    }
    if (game.status !== 'live' && game.status !== 'open') return;
    // A live game's replay stays up to date: the socket sends what comes next.
    socket = new GameSocket(id, null, {
      onSnapshot(msg) {
        if (!game || msg.v === game.v) return;
        game = normalizeGame(msg.game);
        syncSeats(game);
        error = t('replay.no_history');
        restep();
        render();
      },
      onEvent(msg) {
        if (!game || msg.v <= game.v) return;
        applyEvent(game, msg.v, msg.event);
        restep();
        renderSoon();
      },
      onStatus() { /* the replay works offline once loaded */ },
    }, { since: game.v });
  }

  /** @param {number} k @param {boolean} [animate] */
  function go(k, animate = false) {
    const next = Math.max(0, Math.min(steps.length - 1, k));
    // From a reviewed turn, "next" shows the position after it: the one it was reviewed before.
    const forward = next === cur + 1 && reviewing === null;
    reviewing = null;
    cur = next;
    following = cur === steps.length - 1;
    draw(animate && forward);
    renderControls();
    renderSide();
  }

  /**
   * Shows the turn of event `index`, which the engine marked, from the position before it: the
   * better turn framed, the turn played numbered.
   * @param {number} index
   */
  function review(index) {
    const step = steps.indexOf(index);
    if (step < 1 || !verdicts.has(index)) return;
    if (timer) play();
    cur = step - 1;
    following = false;
    reviewing = index;
    draw(false);
    renderControls();
    renderSide();
  }

  /** The chart's point of the position shown: 0 the start, i after the analysis's i-th turn. */
  function chartPoint() {
    let point = 0;
    for (const [index, verdict] of verdicts) if (index <= steps[cur]) point = Math.max(point, (verdict.i || 0) + 1);
    return point;
  }

  /** @param {boolean} animate */
  function draw(animate) {
    if (!game) return;
    const verdict = reviewing !== null ? verdicts.get(reviewing) : undefined;
    if (verdict) {
      const before = steps[cur] >= 0 ? game.events[steps[cur]] : null;
      const pos = parseDpn(before ? before.dpn : game.start);
      const played = playedMark(verdict);
      board.draw(pos.board, {
        hint: turnSquares(verdict.best), turns: played ? [played] : [], dim: orphanedArmies(pos), hostage: hostageArmy(pos),
      });
      caption.textContent = reviewText(verdict);
      return;
    }
    const idx = steps[cur];
    const ev = idx >= 0 ? game.events[idx] : null;
    const pos = parseDpn(ev ? ev.dpn : game.start);
    board.draw(pos.board, { last: touchedSquares(ev), dim: orphanedArmies(pos), hostage: hostageArmy(pos) }, animate && ev ? travels(ev) : []);
    // The narration with the mover's mark (its army's shape and colour).
    const who = ev && (ev.player || ev.by);
    replace(caption, who ? armySwatch(who, 14) : null, who ? ' ' : null, ev ? narrate(t, ev) : t('game.start_position'));
  }

  function play() {
    if (timer) {
      clearInterval(timer);
      timer = null;
    } else {
      if (cur >= steps.length - 1) go(0);
      timer = setInterval(() => {
        if (cur >= steps.length - 1) {
          clearInterval(timer);
          timer = null;
          renderControls();
          return;
        }
        go(cur + 1, true);
      }, 1100);
    }
    renderControls();
  }

  function renderControls() {
    const last = steps.length - 1;
    const btn = (/** @type {string} */ label, /** @type {Parameters<typeof icon>[0]} */ name, /** @type {() => void} */ f, /** @type {boolean} */ disabled, /** @type {string} */ cls = '') =>
      h('button', { type: 'button', class: `btn btn-icon ${cls}`, 'aria-label': label, title: label, disabled, onclick: f }, icon(name));
    const slider = h('input', {
      type: 'range', min: '0', max: String(last), value: String(cur), class: 'replay-slider',
      'aria-label': t('replay.position'),
      oninput: (/** @type {Event} */ e) => go(Number(/** @type {HTMLInputElement} */ (e.target).value)),
    });
    replace(controls,
      btn(t('replay.first'), 'first', () => go(0), cur === 0),
      btn(t('replay.prev'), 'prev', () => go(cur - 1), cur === 0, 'replay-prev'),
      btn(timer ? t('replay.pause') : t('replay.play'), timer ? 'pause' : 'play', play, last === 0, 'replay-play'),
      btn(t('replay.next'), 'next', () => go(cur + 1, true), cur === last, 'replay-next'),
      btn(t('replay.last'), 'last', () => go(last), cur === last),
      slider,
      h('span', { class: 'replay-count', text: t('replay.step', { n: cur, total: last }) }),
      btn(t('replay.rotate'), 'rotate', () => {
        bottom = ARMIES[(ARMIES.indexOf(bottom) + 1) % 4];
        board.setOrientation(bottom);
      }, false));
  }

  /**
   * What the board shows of a reviewed turn, in words.
   * @param {import('../board/verdicts.js').Verdict} v
   */
  function reviewText(v) {
    const said = t('analysis.review', {
      n: v.turn, player: t(`player.${v.player}`), played: v.played, label: t(`analysis.label.${v.label}`),
      kept: percent(keptChance(v)), after: percent(v.after),
    });
    const chief = v.chief ? ` ${t('analysis.chief', { player: t(`player.${v.player}`) })}` : '';
    return `${said}${chief} ${t('analysis.better', { best: v.best })}`;
  }

  function renderSide() {
    if (!game) {
      replace(side);
      return;
    }
    const list = historyList({
      events: game.events, selected: reviewing ?? steps[cur], live: false, verdicts,
      onSelect: (i) => (isMarked(verdicts.get(i)) ? review(i) : go(steps.indexOf(i))),
    });
    // The players as they stood at the position shown, not as the game ended.
    const idx = steps[cur];
    const ev = idx >= 0 ? game.events[idx] : null;
    const shown = gameAt(game, ev ? ev.dpn : game.start, cur === steps.length - 1);
    if (game.status === 'finished') {
      if (!reviewSlot.firstChild) reviewSlot.append(analysis.element);
      analysis.render();
    }
    replace(side,
      shown.result ? gameOverCard(shown, null, []) : null,
      playersPanel(shown, null),
      h('section', { class: 'panel history-panel', 'aria-labelledby': 'history-title' },
        h('div', { class: 'panel-head' }, h('h2', { id: 'history-title', class: 'panel-title', text: t('game.turns') })),
        h('div', { class: 'history-scroll' }, list)));
    requestAnimationFrame(() => scrollToCurrent(list));
  }

  function render() {
    document.title = `${t('replay.title')} — Djambi Online`;
    replace(head,
      h('h1', { class: 'game-title' }, h('span', { text: t('replay.title') }), h('small', { class: 'muted game-id', text: id.slice(0, 8) })),
      h('div', { class: 'head-actions' },
        game && !game.result ? h('a', { class: 'btn btn-small', href: `/game/${id}`, text: t('replay.to_game') }) : null,
        h('button', { type: 'button', class: 'btn btn-small btn-ghost', text: t('common.refresh'), onclick: load }),
        h('a', { class: 'btn btn-small btn-primary download', href: recordUrl(id), download: `djambi-${id}.json`, text: t('game.download') }),
        h('a', { class: 'btn btn-small download-text', href: recordTextUrl(id), download: `djambi-${id}.txt`, text: t('game.download_text') })));
    if (error) {
      replace(caption, h('span', { class: 'error-text', text: error }));
      replace(controls);
      return;
    }
    if (game && !game.historyLoaded) {
      replace(caption, h('span', { class: 'muted', text: t('common.loading') }));
      replace(controls);
      board.draw(parseDpn(game.dpn).board, {});
      return;
    }
    draw(false);
    renderControls();
    renderSide();
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    const tag = /** @type {HTMLElement} */ (e.target).tagName;
    if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowLeft') go(cur - 1);
    else if (e.key === 'ArrowRight') go(cur + 1, true);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(steps.length - 1);
    else return;
    e.preventDefault();
  }
  document.addEventListener('keydown', onKey);

  render();
  load();

  return {
    unmount() {
      analysis.stop();
      document.removeEventListener('keydown', onKey);
      if (timer) clearInterval(timer);
      if (socket) socket.close();
    },
    relabel() { render(); },
  };
}
