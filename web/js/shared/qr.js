// A QR code of a link, drawn as SVG from the vendored encoder (vendor/qrcode-generator.js), so a
// friend can open their invite link by pointing a phone at the screen.

import qrcode from '../vendor/qrcode-generator.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Light modules around the code, as the QR standard asks (4). */
const QUIET = 4;

/**
 * The dark modules of the QR code of `text`, medium error correction, the smallest version
 * that holds it.
 * @param {string} text
 * @returns {{size: number, dark: [number, number][]}}  size in modules; dark as [column, row]
 */
export function qrModules(text) {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount();
  /** @type {[number, number][]} */
  const dark = [];
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) if (qr.isDark(row, col)) dark.push([col, row]);
  }
  return { size, dark };
}

/**
 * An SVG image of the QR code of `text`, `px` pixels wide, black on white (scanners need the
 * contrast whatever the page's colours).
 * @param {string} text
 * @param {{px?: number, label?: string}} [o]  `label` is the image's accessible name
 * @returns {SVGSVGElement}
 */
export function qrSvg(text, o = {}) {
  const { size, dark } = qrModules(text);
  const full = size + 2 * QUIET;
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVG, 'svg'));
  svg.setAttribute('viewBox', `0 0 ${full} ${full}`);
  svg.setAttribute('width', String(o.px || 176));
  svg.setAttribute('height', String(o.px || 176));
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.setAttribute('class', 'qr-code');
  svg.setAttribute('role', 'img');
  svg.dataset.modules = String(size);
  if (o.label) svg.setAttribute('aria-label', o.label);
  const bg = document.createElementNS(SVG, 'rect');
  bg.setAttribute('width', String(full));
  bg.setAttribute('height', String(full));
  bg.setAttribute('fill', '#fff');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', dark.map(([x, y]) => `M${x + QUIET} ${y + QUIET}h1v1h-1z`).join(''));
  path.setAttribute('fill', '#000');
  svg.append(bg, path);
  return svg;
}
