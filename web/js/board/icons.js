// Small interface icons as inline SVG (no icon font: every glyph renders the same everywhere).

const NS = 'http://www.w3.org/2000/svg';

/** Path data in a 24×24 box. */
const PATHS = {
  // Distinct at a glance: play is the lone triangle; a step is a triangle against a bar (⏮ ⏭);
  // the ends are two triangles against a bar.
  first: 'M3 5h2v14H3zM13 5v14L6 12zM21 5v14l-7-7z',
  prev: 'M6 5h2.5v14H6zM18 5v14L9.5 12z',
  play: 'M7 4.5v15L19.5 12z',
  pause: 'M6.5 5h4v14h-4zM13.5 5h4v14h-4z',
  next: 'M6 5v14l8.5-7zM15.5 5H18v14h-2.5z',
  last: 'M3 5v14l7-7zM11 5v14l7-7zM19 5h2v14h-2z',
  rotate: 'M12 4a8 8 0 1 1-7.4 5H2l3.5-4.5L9 9H6.8A6 6 0 1 0 12 6z',
  bot: 'M11 1.5h2V5h4.5A2.5 2.5 0 0 1 20 7.5v9a2.5 2.5 0 0 1-2.5 2.5h-11A2.5 2.5 0 0 1 4 16.5v-9A2.5 2.5 0 0 1 6.5 5H11zM9 9.5a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zM8 20.5h8V23H8zM1 9h2v6H1zm20 0h2v6h-2z',
};

/**
 * @param {keyof typeof PATHS} name
 * @param {number} [size]
 */
export function icon(name, size = 18) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'icon');
  const path = document.createElementNS(NS, 'path');
  path.setAttribute('d', PATHS[name]);
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('fill-rule', 'evenodd');
  svg.append(path);
  return svg;
}
