// The 9×9 SVG board: squares, the maze, pieces, highlights, a keyboard cursor and animations.
// It draws what it is told and reports clicks; it knows nothing of the rules.

import { MAZE, squareCoords, squareName, FILES } from './dpn.js';
import { armyShape, corpsePiece, livingPiece } from './pieces.js';
import { animationMs } from '../shared/settings.js';

const NS = 'http://www.w3.org/2000/svg';
const SIZE = 100;

/** @param {string} name @param {Record<string, string | number>} [attrs] */
function el(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * Where a square is drawn, for a board seen with `bottom`'s army in the bottom-left corner:
 * col 0–8 left to right, row 0–8 bottom to top.
 * @param {string} sq
 * @param {string} bottom  army letter: r (a9), b (i9), y (i1), g (a1)
 */
export function displayCoords(sq, bottom) {
  const { file: f, rank: r } = squareCoords(sq);
  switch (bottom) {
    case 'r': return { col: 8 - r, row: f };
    case 'b': return { col: 8 - f, row: 8 - r };
    case 'y': return { col: r, row: 8 - f };
    default: return { col: f, row: r };
  }
}

/**
 * The square drawn at a display place (inverse of displayCoords).
 * @param {number} col @param {number} row @param {string} bottom
 */
export function squareAt(col, row, bottom) {
  switch (bottom) {
    case 'r': return squareName(row, 8 - col);
    case 'b': return squareName(8 - col, 8 - row);
    case 'y': return squareName(8 - row, col);
    default: return squareName(col, row);
  }
}

/**
 * The coordinates beside a board seen from `bottom`: the labels along the left edge, top to
 * bottom, and along the bottom edge, left to right. A square's name never changes; the board
 * turns so that the viewer's army is at the bottom, and these labels turn with it.
 * @param {string} bottom
 */
export function edgeLabels(bottom) {
  const name = (/** @type {string} */ sq, /** @type {boolean} */ file) => {
    const c = squareCoords(sq);
    return file ? FILES[c.file] : String(c.rank + 1);
  };
  const filesAlongBottom = squareCoords(squareAt(0, 0, bottom)).file !== squareCoords(squareAt(1, 0, bottom)).file;
  const left = [8, 7, 6, 5, 4, 3, 2, 1, 0].map((row) => name(squareAt(0, row, bottom), !filesAlongBottom));
  const below = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((col) => name(squareAt(col, 0, bottom), filesAlongBottom));
  return { left, below };
}

/**
 * @typedef {object} Marks
 * @property {string[]} [movable]   pieces that can move now
 * @property {string | null} [selected]
 * @property {string[]} [chosen]    squares already chosen for the turn being entered
 * @property {string[]} [options]   squares that may be chosen now
 * @property {'to'|'victim'|'exit'|'place'|'from'|null} [optionKind]
 * @property {string[]} [last]      squares of the last turn
 * @property {string[]} [changed]   squares a previewed turn changes
 * @property {string[]} [victims]   extra victim marks (the rules page's figures)
 * @property {string[]} [dim]       armies drawn faded: orphaned, nobody may move or touch them
 * @property {string | null} [hostage] the hostage army of a 3-player game, drawn with a dashed ring
 * @property {TurnMark[]} [turns]   turns played since the viewer's last one, numbered, in the
 *   colour of who played them (play/recap.js)
 * @property {string[]} [hint]      the squares of a suggested turn, its start and destination
 *   first: framed, with an arrow from the one to the other (lessons and puzzles)
 */

/**
 * @typedef {object} TurnMark
 * @property {number} n
 * @property {string} player
 * @property {string | null} from
 * @property {string | null} to
 * @property {string[]} at      other squares the turn touched
 * @property {boolean} [active] the turn being shown now
 */

/**
 * @typedef {object} BoardOptions
 * @property {(sq: string, how: {keyboard: boolean}) => void} [onSquare]   a square was clicked,
 *   tapped or chosen by keyboard
 * @property {() => void} [onBack]                Escape/Backspace on the board
 * @property {(sq: string) => void} [onCursor]   the keyboard cursor moved
 * @property {(sq: string, cell: any) => string} [describe]  the tooltip of a square
 * @property {string} [label]                     accessible name of the board
 */

export class BoardView {
  /** @param {BoardOptions} opts */
  constructor(opts = {}) {
    this.opts = opts;
    this.bottom = 'r';
    /** @type {Record<string, any>} */
    this.board = {};
    /** @type {Marks} */
    this.marks = {};
    this.cursor = MAZE;
    this.cursorShown = false;
    this.svg = /** @type {SVGSVGElement} */ (el('svg', {
      viewBox: `0 0 ${9 * SIZE} ${9 * SIZE}`, class: 'board', role: 'application',
      'aria-label': opts.label || 'Board',
    }));
    if (opts.onSquare) this.svg.setAttribute('tabindex', '0');
    // The coordinates stand beside the board in the page's type (legible at 360 px: they were
    // ~7 px tall drawn inside the squares), and turn with it.
    this.ranks = document.createElement('div');
    this.ranks.className = 'board-ranks';
    this.files = document.createElement('div');
    this.files.className = 'board-files';
    for (const edge of [this.ranks, this.files]) edge.setAttribute('aria-hidden', 'true');
    /** The board with its coordinates: what a page puts in its frame. */
    this.el = document.createElement('div');
    this.el.className = 'board-wrap';
    this.el.append(this.ranks, this.svg, this.files);
    /** @type {Record<string, SVGElement>} */
    this.layers = {};
    for (const name of ['squares', 'under', 'pieces', 'over', 'hits', 'cursor']) {
      const g = el('g', { class: `layer-${name}` });
      this.layers[name] = g;
      this.svg.append(g);
    }
    this.svg.addEventListener('click', (e) => {
      const target = /** @type {Element} */ (e.target);
      const sq = target.closest('[data-square]')?.getAttribute('data-square');
      if (sq && this.opts.onSquare) {
        this.cursorShown = false;
        this.cursor = sq;
        this.drawCursor();
        this.opts.onSquare(sq, { keyboard: false });
      }
    });
    this.svg.addEventListener('keydown', (e) => this.key(e));
    this.svg.addEventListener('focus', () => {
      this.cursorShown = true;
      this.drawCursor();
    });
    this.svg.addEventListener('blur', () => {
      this.cursorShown = false;
      this.drawCursor();
    });
    this.drawSquares();
  }

  /** @param {string} army the army drawn in the bottom-left corner */
  setOrientation(army) {
    if (army === this.bottom) return;
    this.bottom = army;
    this.drawSquares();
    this.draw(this.board, this.marks);
  }

  /** @param {string} sq */
  xy(sq) {
    const { col, row } = displayCoords(sq, this.bottom);
    return { x: col * SIZE, y: (8 - row) * SIZE };
  }

  drawSquares() {
    const layer = this.layers.squares;
    layer.replaceChildren();
    const hits = this.layers.hits;
    hits.replaceChildren();
    for (let col = 0; col < 9; col++) {
      for (let row = 0; row < 9; row++) {
        const sq = squareAt(col, row, this.bottom);
        const x = col * SIZE;
        const y = (8 - row) * SIZE;
        const dark = (col + row) % 2 === 0;
        layer.append(el('rect', { x, y, width: SIZE, height: SIZE, class: dark ? 'sq dark' : 'sq light' }));
        if (sq === MAZE) layer.append(mazeDrawing(x, y));
        const hit = el('rect', { x, y, width: SIZE, height: SIZE, class: 'hit', 'data-square': sq });
        hit.append(el('title'));
        hits.append(hit);
      }
    }
    // Coordinates along the left and bottom edges, beside the board.
    const { left, below } = edgeLabels(this.bottom);
    const spans = (/** @type {string[]} */ texts) => texts.map((text) => {
      const span = document.createElement('span');
      span.textContent = text;
      return span;
    });
    this.ranks.replaceChildren(...spans(left));
    this.files.replaceChildren(...spans(below));
    this.drawCursor();
  }

  /**
   * Draws a position with its highlights.
   * @param {Record<string, any>} board   square → cell (dpn.js Board)
   * @param {Marks} [marks]
   * @param {{from: string, to: string, flash?: boolean}[]} [animate]  pieces to slide in
   */
  draw(board, marks = {}, animate = []) {
    this.board = board;
    this.marks = marks;
    const { under, pieces, over } = this.layers;
    under.replaceChildren();
    pieces.replaceChildren();
    over.replaceChildren();
    const sqRect = (/** @type {string} */ sq, /** @type {string} */ cls) => {
      const { x, y } = this.xy(sq);
      return el('rect', { x, y, width: SIZE, height: SIZE, class: cls });
    };
    for (const sq of marks.last || []) under.append(sqRect(sq, 'mark-last'));
    this.drawTurns(marks.turns || []);
    for (const sq of marks.changed || []) under.append(sqRect(sq, 'mark-changed'));
    for (const sq of marks.chosen || []) under.append(sqRect(sq, 'mark-chosen'));
    if (marks.selected) under.append(sqRect(marks.selected, 'mark-selected'));
    for (const sq of marks.movable || []) {
      const { x, y } = this.xy(sq);
      under.append(el('circle', { cx: x + 50, cy: y + 50, r: 46, class: 'mark-movable' }));
    }
    /** @type {Record<string, Element>} */
    const drawn = {};
    for (const [sq, cell] of Object.entries(board)) {
      const { x, y } = this.xy(sq);
      const outer = el('g', { transform: `translate(${x} ${y})`, 'data-piece': sq });
      const inner = 'corpse' in cell ? corpsePiece() : livingPiece(cell.role, cell.army);
      if (sq === MAZE) inner.classList.add('on-maze');
      if (!('corpse' in cell) && (marks.dim || []).includes(cell.army)) inner.classList.add('dimmed');
      if (!('corpse' in cell) && marks.hostage && marks.hostage === cell.army) {
        inner.classList.add('hostage');
        inner.append(el('circle', { cx: 50, cy: 50, r: 47, class: 'hostage-ring' }));
      }
      outer.append(inner);
      pieces.append(outer);
      drawn[sq] = inner;
    }
    const kind = marks.optionKind || 'to';
    const opts = [...(marks.options || []).map((sq) => ({ sq, kind })), ...(marks.victims || []).map((sq) => ({ sq, kind: 'victim' }))];
    for (const { sq, kind } of opts) {
      const { x, y } = this.xy(sq);
      const occupied = Boolean(board[sq]);
      if (kind === 'victim') {
        const g = el('g', { class: 'opt opt-victim' });
        g.append(el('circle', { cx: x + 50, cy: y + 50, r: 43 }));
        g.append(el('path', { d: `M${x + 50} ${y + 2} v18 M${x + 50} ${y + 80} v18 M${x + 2} ${y + 50} h18 M${x + 80} ${y + 50} h18` }));
        over.append(g);
      } else if (occupied && kind !== 'from') {
        const g = el('g', { class: `opt opt-${kind} opt-occupied` });
        const c = 26;
        g.append(el('path', {
          d: `M${x} ${y} h${c} L${x} ${y + c} Z M${x + SIZE} ${y} v${c} L${x + SIZE - c} ${y} Z `
            + `M${x} ${y + SIZE} v${-c} L${x + c} ${y + SIZE} Z M${x + SIZE} ${y + SIZE} h${-c} L${x + SIZE} ${y + SIZE - c} Z`,
        }));
        over.append(g);
      } else if (kind !== 'from') {
        over.append(el('circle', { cx: x + 50, cy: y + 50, r: kind === 'to' ? 14 : 16, class: `opt opt-${kind}` }));
      }
    }
    this.drawHint(marks.hint || []);
    // Tooltips: each square's hit target names what stands there.
    for (const hit of this.layers.hits.children) {
      const sq = hit.getAttribute('data-square') || '';
      const title = hit.firstElementChild;
      if (title) title.textContent = this.opts.describe ? this.opts.describe(sq, board[sq]) : sq;
      hit.classList.toggle('clickable', Boolean(
        (marks.options || []).includes(sq) || (marks.movable || []).includes(sq) || marks.selected === sq,
      ));
    }
    // The speed chosen in the settings (none when off, or when the system asks for reduced motion).
    const slide = animationMs(380);
    const flash = animationMs(450);
    if (slide > 0) {
      for (const a of animate) {
        const piece = drawn[a.to];
        if (!piece || typeof piece.animate !== 'function') continue;
        if (a.flash || a.from === a.to) {
          piece.animate([{ opacity: 0.2 }, { opacity: 1 }], { duration: flash, easing: 'ease-out' });
          continue;
        }
        const p0 = this.xy(a.from);
        const p1 = this.xy(a.to);
        piece.animate(
          [{ transform: `translate(${p0.x - p1.x}px, ${p0.y - p1.y}px)` }, { transform: 'translate(0px, 0px)' }],
          { duration: slide, easing: 'cubic-bezier(.3,.7,.3,1)' },
        );
      }
    }
    this.drawCursor();
  }

  /**
   * The marks of recent turns: where each piece came from (dashed) and went (solid), in the
   * colour of who played it, with the turn's number in the corner of its destination; the other
   * squares it touched get a thin outline. Numbers on one square sit side by side.
   * @param {TurnMark[]} turns
   */
  drawTurns(turns) {
    const { under, over } = this.layers;
    /** @type {Record<string, number>} */
    const badges = {};
    const frame = (/** @type {string} */ sq, /** @type {string} */ cls, /** @type {TurnMark} */ m) => {
      const { x, y } = this.xy(sq);
      under.append(el('rect', {
        x: x + 4, y: y + 4, width: SIZE - 8, height: SIZE - 8, rx: 6,
        class: `turn-mark ${cls} army-${m.player}${m.active ? ' active' : ''}`, 'data-at': sq, 'data-n': m.n,
      }));
    };
    for (const m of turns) {
      if (m.from) frame(m.from, 'turn-from', m);
      if (m.to) frame(m.to, 'turn-to', m);
      for (const sq of m.at) frame(sq, 'turn-at', m);
      const spot = m.to || m.at[0] || m.from;
      if (!spot) continue;
      const k = badges[spot] || 0;
      badges[spot] = k + 1;
      const { x, y } = this.xy(spot);
      const cx = x + 17 + k * 26;
      const g = el('g', {
        class: `turn-badge army-${m.player}${m.active ? ' active' : ''}`, 'data-n': m.n, 'data-player': m.player,
        'data-at': spot, 'aria-hidden': 'true',
      });
      // In the shape of the army that played it (colour is not the only cue).
      g.append(armyShape(m.player, cx, y + 17, 14, { class: 'turn-badge-shape' }));
      const label = el('text', { x: cx, y: y + 23, 'text-anchor': 'middle' });
      label.textContent = String(m.n);
      g.append(label);
      over.append(g);
    }
  }

  /**
   * A suggested turn: each of its squares framed, and an arrow from its start to its
   * destination.
   * @param {string[]} squares
   */
  drawHint(squares) {
    if (!squares.length) return;
    const { over } = this.layers;
    const g = el('g', { class: 'hint-mark', 'aria-hidden': 'true' });
    for (const sq of new Set(squares)) {
      const { x, y } = this.xy(sq);
      g.append(el('rect', { x: x + 5, y: y + 5, width: SIZE - 10, height: SIZE - 10, rx: 8, class: 'hint-frame', 'data-at': sq }));
    }
    if (squares.length > 1 && squares[0] !== squares[1]) {
      const a = this.xy(squares[0]);
      const b = this.xy(squares[1]);
      const [x1, y1, x2, y2] = [a.x + 50, a.y + 50, b.x + 50, b.y + 50];
      const len = Math.hypot(x2 - x1, y2 - y1);
      const ux = (x2 - x1) / len;
      const uy = (y2 - y1) / len;
      // The arrow stops short of the destination's centre so the piece there stays visible.
      const ex = x2 - ux * 30;
      const ey = y2 - uy * 30;
      g.append(el('line', { x1: x1 + ux * 24, y1: y1 + uy * 24, x2: ex, y2: ey, class: 'hint-arrow' }));
      g.append(el('path', {
        d: `M${ex + ux * 14} ${ey + uy * 14} L${ex - uy * 12} ${ey + ux * 12} L${ex + uy * 12} ${ey - ux * 12} Z`,
        class: 'hint-head',
      }));
    }
    over.append(g);
  }

  drawCursor() {
    const layer = this.layers.cursor;
    layer.replaceChildren();
    if (!this.cursorShown || !this.opts.onSquare) return;
    const { x, y } = this.xy(this.cursor);
    layer.append(el('rect', { x: x + 4, y: y + 4, width: SIZE - 8, height: SIZE - 8, rx: 6, class: 'cursor' }));
  }

  /** @param {string} sq */
  setCursor(sq) {
    this.cursor = sq;
    this.drawCursor();
    if (this.opts.onCursor) this.opts.onCursor(sq);
  }

  /** @param {KeyboardEvent} e */
  key(e) {
    const moves = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };
    if (e.key in moves) {
      const [dc, dr] = moves[/** @type {keyof typeof moves} */ (e.key)];
      const { col, row } = displayCoords(this.cursor, this.bottom);
      const c = Math.min(8, Math.max(0, col + dc));
      const r = Math.min(8, Math.max(0, row + dr));
      this.cursorShown = true;
      this.setCursor(squareAt(c, r, this.bottom));
      e.preventDefault();
    } else if (e.key === 'Enter' || e.key === ' ') {
      this.cursorShown = true;
      this.drawCursor();
      if (this.opts.onSquare) this.opts.onSquare(this.cursor, { keyboard: true });
      e.preventDefault();
    } else if (e.key === 'Escape' || e.key === 'Backspace') {
      if (this.opts.onBack) this.opts.onBack();
      e.preventDefault();
    }
  }
}

/**
 * The maze on e5: a dark square with a gold labyrinth.
 * @param {number} x @param {number} y
 */
function mazeDrawing(x, y) {
  const g = el('g', { class: 'maze' });
  g.append(el('rect', { x, y, width: SIZE, height: SIZE, class: 'maze-bg' }));
  g.append(el('path', {
    class: 'maze-lines',
    d: `M${x + 10} ${y + 10} h80 v80 h-36 M${x + 46} ${y + 90} h-36 v-80 `
      + `M${x + 22} ${y + 22} h56 v56 h-56 v-22 M${x + 22} ${y + 44} v-22 `
      + `M${x + 34} ${y + 34} h32 v32 h-32 z M${x + 50} ${y + 34} v10 M${x + 46} ${y + 78} v12`,
  }));
  return g;
}
