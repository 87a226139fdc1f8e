// The game page's text view of the board, for screen readers (as lichess's "blind mode"): a
// command line whose answers are said in a polite live region. `l` the last turns, `c` the
// clocks, `s e5` what is on a square, `p e5` where the piece on a square may go, `b` the whole
// board, `t` whose turn it is and what to choose, a turn's text (`c7-c5`) to play it, `h` the
// commands. Always in the page for screen readers; shown on the page too when the settings say
// so (shared/settings.js). It knows no rule: the moves it tells are the server's legal turns.

import { h, replace } from '../dom.js';
import { t, listOf, capitalize } from '../i18n.js';
import { parseDpn, ROLE_NAMES, ARMIES, MAZE, isSquare } from '../board/dpn.js';
import { describeSquare, who } from '../board/panels.js';
import { pieceName, narrate } from '../board/narrate.js';
import { parseTurn } from '../board/picker.js';
import { controllerOf } from '../board/model.js';
import { deadlineLeft, formatClock, liveTimes } from './table.js';
import { timeLeftText } from '../shared/duration.js';
import { SETTINGS_EVENT, textViewShown } from '../shared/settings.js';

/** How many answers the log keeps. */
const KEEP = 8;

/**
 * @typedef {object} TextViewContext
 * @property {() => any} game          the game (model.js's shape) or null
 * @property {() => string | null} me  our seat
 * @property {() => boolean} myTurn
 * @property {() => number} now        the server's time, ms
 * @property {(turn: string) => void} play  sends a turn (entry.js's send)
 * @property {() => string} prompt     what the turn entry asks now, in words
 */

/** @param {string} role  letter @returns {string} */
const roleName = (role) => ROLE_NAMES[/** @type {keyof typeof ROLE_NAMES} */ (role)];

/**
 * The answer to a command, as words (pure but for `t`; the page says it).
 * @param {string} line  what was typed
 * @param {TextViewContext} c
 * @returns {string}
 */
export function answer(line, c) {
  const g = c.game();
  const text = line.trim().toLowerCase().replace(/\s+/g, ' ');
  if (!g) return t('textview.no_game');
  const [cmd, arg] = text.split(' ');
  if (!cmd || cmd === 'h' || cmd === 'help' || cmd === '?') return t('textview.help');
  if (cmd === 'l' || cmd === 'last') return lastTurns(g, Number(arg) || 4);
  if (cmd === 'c' || cmd === 'clocks' || cmd === 'clock') return clocks(g, c.now());
  if (cmd === 't' || cmd === 'turn') return turnNow(g, c);
  if (cmd === 'b' || cmd === 'board') return wholeBoard(g);
  if ((cmd === 's' || cmd === 'square') && arg) {
    if (!isSquare(arg)) return t('textview.bad_square', { sq: arg });
    return describeSquare(arg, parseDpn(g.dpn).board[arg]);
  }
  if ((cmd === 'p' || cmd === 'piece' || cmd === 'moves') && arg) {
    if (!isSquare(arg)) return t('textview.bad_square', { sq: arg });
    return movesOf(g, arg, c);
  }
  if (parseTurn(text)) return playTurn(g, text, c);
  return t('textview.unknown', { text: line.trim().slice(0, 40) });
}

/** The last `n` turns, oldest first, as sentences (notation alone while the history loads). @param {any} g @param {number} n */
function lastTurns(g, n) {
  const count = Math.max(1, Math.min(20, n));
  const events = (g.events || []).filter((/** @type {any} */ e) => e.kind === 'turn');
  if (events.length) {
    return events.slice(-count).map((/** @type {any} */ e) => t('textview.turn_line', {
      n: e.number, player: t(`player.${e.player}`), turn: e.turn, says: narrate(t, e),
    })).join(' ');
  }
  const turns = g.turns || [];
  if (!turns.length) return t('textview.no_turns');
  return turns.slice(-count).map((/** @type {any} */ x) => t('textview.turn_short', { n: x.number, player: t(`player.${x.player}`), turn: x.turn })).join(' ');
}

/** Each living seat's clock, the running one said so. @param {any} g @param {number} now */
function clocks(g, now) {
  if (!g.clock) return t('textview.no_clock');
  if (g.clock.kind === 'correspondence') {
    const left = deadlineLeft(g.clock, now);
    if (left === null || !g.clock.running) return t('textview.no_deadline');
    return t('textview.deadline', { who: who(g, g.clock.running), time: timeLeftText(left, t) });
  }
  const times = liveTimes(g.clock, now);
  if (!times) return t('textview.no_clock');
  const parts = g.seats.filter((/** @type {any} */ s) => s.alive !== false && s.player in times).map((/** @type {any} */ s) => {
    const time = formatClock(times[s.player]);
    return g.clock.running === s.player
      ? t('textview.clock_running', { who: who(g, s.player), time })
      : t('textview.clock', { who: who(g, s.player), time });
  });
  return `${parts.join('; ')}.`;
}

/** Whose turn it is and, if ours, what the turn entry asks now. @param {any} g @param {TextViewContext} c */
function turnNow(g, c) {
  if (g.result) return t('textview.over');
  if (!g.to_move) return t('textview.waiting');
  if (c.myTurn()) return c.prompt() || t('textview.your_turn');
  return t('textview.to_move', { who: who(g, g.to_move) });
}

/** Every piece by army, then the corpses and the maze. @param {any} g */
function wholeBoard(g) {
  const board = parseDpn(g.dpn).board;
  const out = [];
  for (const army of ARMIES) {
    const pieces = Object.entries(board)
      .filter(([, cell]) => cell && !('corpse' in cell) && cell.army === army)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([sq, cell]) => t('textview.piece_on', { role: t(`role.${roleName(cell.role)}`), sq }));
    if (pieces.length) out.push(t('textview.army_pieces', { player: t(`player.${army}`), list: listOf(t, pieces) }));
  }
  const corpses = Object.entries(board).filter(([, cell]) => cell && 'corpse' in cell).map(([sq]) => sq).sort();
  out.push(corpses.length ? t('textview.corpses', { list: listOf(t, corpses) }) : t('textview.no_corpses'));
  out.push(board[MAZE] ? t('textview.maze_held', { what: describeSquare(MAZE, board[MAZE]) }) : `${t('pieces.maze_empty')}.`);
  return out.join(' ');
}

/**
 * Where the piece on `sq` may go now: the server's legal turns from that square (a kill named),
 * or why there are none.
 * @param {any} g @param {string} sq @param {TextViewContext} c
 */
function movesOf(g, sq, c) {
  const board = parseDpn(g.dpn).board;
  const cell = board[sq];
  if (!cell) return t('pieces.empty', { sq });
  if ('corpse' in cell) return t('textview.corpse_no_moves', { sq });
  const piece = pieceName(t, { army: cell.army, role: roleName(cell.role) });
  if (!c.myTurn()) {
    return g.to_move ? t('textview.moves_not_yours', { piece, sq, who: who(g, g.to_move) }) : t('textview.over');
  }
  /** @type {Set<string>} */
  const targets = new Set();
  for (const key of Object.keys(g.legal || {})) {
    const [from, to] = key.split('-');
    if (from === sq && to) targets.add(to);
  }
  if (!targets.size) {
    const mine = controllerOf(g, cell.army) === c.me();
    return t(mine ? 'textview.no_moves' : 'textview.not_yours', { piece, sq });
  }
  const list = [...targets].sort().map((to) => {
    const there = board[to];
    if (!there) return to === MAZE ? t('textview.to_maze', { sq: to }) : to;
    if ('corpse' in there) return t('textview.to_corpse', { sq: to });
    return t('textview.to_piece', { sq: to, piece: pieceName(t, { army: there.army, role: roleName(there.role) }) });
  });
  return t('textview.moves', { piece, sq, n: list.length, list: listOf(t, list) });
}

/**
 * Plays a turn typed as text, if it is one of ours now.
 * @param {any} g @param {string} text @param {TextViewContext} c
 */
function playTurn(g, text, c) {
  if (!c.myTurn()) return g.to_move ? t('textview.to_move', { who: who(g, g.to_move) }) : t('textview.over');
  const parts = parseTurn(text);
  const key = parts && parts.from && parts.to ? `${parts.from}-${parts.to}` : '';
  const suffix = key ? text.slice(key.length) : '';
  const legal = key && g.legal ? g.legal[key] : null;
  if (!legal || !legal.includes(suffix)) {
    // A move whose choices are missing: say which ones it needs.
    if (legal && legal.length) return t('textview.incomplete', { turn: text, example: key + legal.find((x) => x) });
    return t('textview.illegal', { turn: text });
  }
  c.play(text);
  return t('textview.sent', { turn: text });
}

export class TextView {
  /** @param {TextViewContext} c */
  constructor(c) {
    this.c = c;
    this.input = /** @type {HTMLInputElement} */ (h('input', {
      type: 'text', id: 'text-command', class: 'text-command', autocomplete: 'off', spellcheck: 'false', maxlength: '40',
    }));
    this.log = h('div', { class: 'text-answers', role: 'log', 'aria-live': 'polite', 'aria-relevant': 'additions' });
    this.el = h('section', { class: 'panel text-view', 'aria-labelledby': 'text-view-title' });
    this.render();
    window.addEventListener(SETTINGS_EVENT, () => this.show());
  }

  /** Shown on the page, or for screen readers only, as the settings say. */
  show() {
    this.el.classList.toggle('visually-hidden', !textViewShown());
  }

  render() {
    this.show();
    replace(this.el,
      h('h2', { id: 'text-view-title', class: 'panel-title', text: t('textview.title') }),
      h('p', { class: 'small muted text-help', id: 'text-view-help', text: t('textview.intro') }),
      h('form', {
        class: 'text-form', onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          this.ask(this.input.value);
          this.input.select();
        },
      },
      h('label', { for: 'text-command', text: t('textview.command') }),
      this.input,
      h('button', { type: 'submit', class: 'btn btn-small', text: t('textview.ask') })),
      this.log);
    this.input.setAttribute('aria-describedby', 'text-view-help');
  }

  /** Answers a command in the log (said by screen readers). @param {string} line */
  ask(line) {
    const said = answer(line, this.c);
    // A sentence begins with a capital; a square's name (e5: …) stays as it is written.
    const shown = /^[a-i][1-9]\b/.test(said) ? said : capitalize(said);
    this.log.append(h('p', { class: 'text-answer' }, h('span', { class: 'text-asked', text: `${line.trim() || 'h'}: ` }), shown));
    while (this.log.childElementCount > KEEP) this.log.firstElementChild?.remove();
    // The newest answer in sight when the view is shown.
    this.log.scrollTop = this.log.scrollHeight;
  }
}
