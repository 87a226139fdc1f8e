// The pieces as SVG: the army's shape (round, square, hexagonal or diamond-shaped) in its colour
// with the role's symbol, and corpses as grey discs with a skull and crossbones. Every symbol is
// drawn in a 100×100 box centred on (50, 50).

const NS = 'http://www.w3.org/2000/svg';

/** Army colours: fill, the ink drawn on it, and the outline. Yellow takes dark ink. */
export const ARMY_STYLE = {
  r: { fill: '#d23b2f', ink: '#fff8ef', edge: '#5a0f0a' },
  b: { fill: '#2f63c8', ink: '#f4f8ff', edge: '#0d2358' },
  y: { fill: '#f4c430', ink: '#2a2000', edge: '#3d2e00' },
  g: { fill: '#2c9a4d', ink: '#f2fff5', edge: '#0b3d1a' },
};

/**
 * Each army's shape, so that colour is never the only cue (issue 46): its pieces, its swatch in
 * the player list, the turn list, the narration and the chart, and its turn marks on the board
 * have it. Red round, Blue square, Yellow hexagonal, Green diamond-shaped: four outlines told
 * apart at a glance, whatever colours a person sees.
 */
export const ARMY_SHAPE = /** @type {const} */ ({ r: 'circle', b: 'square', y: 'hexagon', g: 'diamond' });

/**
 * An army's shape as an SVG element, centred on (cx, cy), about as big as a circle of radius r.
 * @param {string} army @param {number} cx @param {number} cy @param {number} r
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
export function armyShape(army, cx, cy, r, attrs = {}) {
  const shape = ARMY_SHAPE[/** @type {keyof typeof ARMY_SHAPE} */ (army)] || 'circle';
  const pts = (/** @type {[number, number][]} */ list) => list.map(([x, y]) => `${(cx + x * r).toFixed(2)},${(cy + y * r).toFixed(2)}`).join(' ');
  switch (shape) {
    case 'square': {
      const half = r * 0.88;
      return el('rect', { x: cx - half, y: cy - half, width: 2 * half, height: 2 * half, rx: r * 0.22, ...attrs });
    }
    case 'hexagon':
      return el('polygon', { points: pts([[0, -1.08], [0.935, -0.54], [0.935, 0.54], [0, 1.08], [-0.935, 0.54], [-0.935, -0.54]]), 'stroke-linejoin': 'round', ...attrs });
    case 'diamond':
      return el('polygon', { points: pts([[0, -1.14], [1.14, 0], [0, 1.14], [-1.14, 0]]), 'stroke-linejoin': 'round', ...attrs });
    default:
      return el('circle', { cx, cy, r, ...attrs });
  }
}

/** Role symbols: each a list of [element, attributes, paint] where paint is 'ink' or 'fill'. */
/** @type {Record<string, [string, Record<string, string | number>, 'ink' | 'fill'][]>} */
const SYMBOLS = {
  // Chief: a crown.
  C: [
    ['path', { d: 'M27 66 L24 36 L38 49 L50 29 L62 49 L76 36 L73 66 Z' }, 'ink'],
    ['rect', { x: 27, y: 69, width: 46, height: 7, rx: 2 }, 'ink'],
    ['circle', { cx: 50, cy: 55, r: 4.5 }, 'fill'],
  ],
  // Assassin: a dagger, point up.
  A: [
    ['path', { d: 'M50 21 L57 32 L56 58 L44 58 L43 32 Z' }, 'ink'],
    ['rect', { x: 34, y: 58, width: 32, height: 6, rx: 2 }, 'ink'],
    ['rect', { x: 46.5, y: 64, width: 7, height: 10 }, 'ink'],
    ['circle', { cx: 50, cy: 77, r: 4.5 }, 'ink'],
    ['path', { d: 'M50 30 L50 54', 'stroke-width': 2.5 }, 'fill'],
  ],
  // Reporter: a megaphone.
  R: [
    ['path', { d: 'M24 42 L38 42 L66 24 L66 76 L38 58 L24 58 Z', 'stroke-linejoin': 'round' }, 'ink'],
    ['path', { d: 'M36 60 L40 74 L49 74 L46 62 Z' }, 'ink'],
    ['path', { d: 'M73 38 C78 44 78 56 73 62', 'stroke-width': 4.5, 'stroke-linecap': 'round' }, 'ink'],
    ['path', { d: 'M38 44 L38 56', 'stroke-width': 3 }, 'fill'],
  ],
  // Diplomat (the Provocateur): a top hat.
  D: [
    ['rect', { x: 36, y: 26, width: 28, height: 38, rx: 3 }, 'ink'],
    ['rect', { x: 24, y: 63, width: 52, height: 9, rx: 4.5 }, 'ink'],
    ['rect', { x: 36, y: 53, width: 28, height: 5 }, 'fill'],
  ],
  // Necromobile: a coffin with a cross.
  N: [
    ['path', { d: 'M42 21 L58 21 L67 38 L60 80 L40 80 L33 38 Z' }, 'ink'],
    ['path', { d: 'M50 33 L50 64 M42 43 L58 43', 'stroke-width': 5, 'stroke-linecap': 'round' }, 'fill'],
  ],
  // Militant: a shield with a star.
  M: [
    ['path', { d: 'M29 27 L71 27 L71 49 C71 64 61 74 50 80 C39 74 29 64 29 49 Z' }, 'ink'],
    ['path', { d: 'M50.0 36.0 L53.2 44.6 L62.4 45.0 L55.2 50.7 L57.6 59.5 L50.0 54.5 L42.4 59.5 L44.8 50.7 L37.6 45.0 L46.8 44.6 Z' }, 'fill'],
  ],
};

/** @param {string} name @param {Record<string, string | number>} attrs */
function el(name, attrs = {}) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/**
 * A living piece, drawn in the 100×100 box.
 * @param {string} role  role letter
 * @param {string} army  army letter
 * @returns {SVGGElement}
 */
export function livingPiece(role, army) {
  const style = ARMY_STYLE[/** @type {keyof typeof ARMY_STYLE} */ (army)];
  const g = /** @type {SVGGElement} */ (el('g', { class: `piece army-${army} role-${role}`, 'data-shape': ARMY_SHAPE[/** @type {keyof typeof ARMY_SHAPE} */ (army)] }));
  g.append(armyShape(army, 50, 53, 40, { class: 'piece-shadow' }));
  g.append(armyShape(army, 50, 50, 40, { fill: style.fill, stroke: style.edge, 'stroke-width': 4, class: 'piece-body' }));
  g.append(armyShape(army, 50, 50, 33, { fill: 'none', stroke: style.ink, 'stroke-width': 1.5, opacity: 0.45 }));
  // A diamond's middle is narrower: its symbol is drawn a little smaller.
  const symbols = army === 'g' ? el('g', { transform: 'translate(50 50) scale(.84) translate(-50 -50)' }) : g;
  for (const [name, attrs, paint] of SYMBOLS[role]) {
    const colour = paint === 'ink' ? style.ink : style.fill;
    const stroked = 'stroke-width' in attrs;
    symbols.append(el(name, stroked ? { ...attrs, fill: 'none', stroke: colour } : { ...attrs, fill: colour }));
  }
  if (symbols !== g) g.append(symbols);
  return g;
}

/**
 * A corpse: grey, with a skull over crossed bones. Corpses have no colour (R2.6).
 * @returns {SVGGElement}
 */
export function corpsePiece() {
  const g = /** @type {SVGGElement} */ (el('g', { class: 'piece corpse' }));
  g.append(el('circle', { cx: 50, cy: 50, r: 38, fill: '#6d6a66', stroke: '#232120', 'stroke-width': 4, 'stroke-dasharray': '7 4' }));
  g.append(el('path', {
    d: 'M27 27 L73 73 M73 27 L27 73', stroke: '#d9d4cc', 'stroke-width': 7, 'stroke-linecap': 'round',
  }));
  g.append(el('path', {
    d: 'M50 24 C35 24 30 34 30 44 C30 52 34 56 38 58 L38 66 L62 66 L62 58 C66 56 70 52 70 44 C70 34 65 24 50 24 Z',
    fill: '#f1ede6', stroke: '#232120', 'stroke-width': 2.5,
  }));
  g.append(el('circle', { cx: 42, cy: 45, r: 6, fill: '#232120' }));
  g.append(el('circle', { cx: 58, cy: 45, r: 6, fill: '#232120' }));
  g.append(el('path', { d: 'M50 51 L46 58 L54 58 Z', fill: '#232120' }));
  g.append(el('path', { d: 'M44 61 L44 66 M50 61 L50 66 M56 61 L56 66', stroke: '#232120', 'stroke-width': 2 }));
  return g;
}

/**
 * A standalone icon (for legends, the rules page, the players panel).
 * @param {string | null} role  role letter, or null for a corpse
 * @param {string} [army]
 * @param {number} [size] pixels
 */
export function pieceIcon(role, army = 'r', size = 32) {
  const svg = el('svg', { viewBox: '0 0 100 100', width: size, height: size, class: 'piece-icon', 'aria-hidden': 'true' });
  svg.append(role ? livingPiece(role, army) : corpsePiece());
  return svg;
}

/**
 * An eye, for spectators.
 * @param {number} [size]
 */
export function eyeIcon(size = 14) {
  const svg = el('svg', { viewBox: '0 0 24 24', width: size, height: size, class: 'eye', 'aria-hidden': 'true' });
  svg.append(el('path', { d: 'M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12Z', fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }));
  svg.append(el('circle', { cx: 12, cy: 12, r: 3.5, fill: 'currentColor' }));
  return svg;
}

/**
 * A small mark of an army: its shape (ARMY_SHAPE) in its colour.
 * @param {string} army
 * @param {number} [size]
 */
export function armySwatch(army, size = 14) {
  const style = ARMY_STYLE[/** @type {keyof typeof ARMY_STYLE} */ (army)];
  const svg = el('svg', { viewBox: '0 0 20 20', width: size, height: size, class: `swatch swatch-${army}`, 'aria-hidden': 'true' });
  if (style) svg.append(armyShape(army, 10, 10, 7.6, { fill: style.fill, stroke: style.edge, 'stroke-width': 2 }));
  return svg;
}
