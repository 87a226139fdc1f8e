// Draws the app's PNG icons (web/icons/) from the favicon's design (web/favicon.svg): the gold
// maze on its plum tile. Chromium renders them, through the browser tests' playwright-core, so
// the PNGs are exactly the SVG drawn at each size (no image library, no hand editing).
//
//   cd tests/browser && npm ci --no-audit --no-fund && cd ../.. && node scripts/icons.mjs
//
// Writes icon-192.png and icon-512.png (the favicon: a rounded tile, transparent corners; the
// manifest's purpose "any") and icon-maskable-512.png (the tile fills the whole square and the
// maze is drawn smaller, inside the centre circle of 80% that every launcher's mask keeps).
// Chromium is /usr/bin/chromium unless CHROMIUM_PATH says otherwise. Commit the PNGs it writes.

import { createRequire } from 'node:module';
import { readFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'tests', 'browser', 'package.json'));
const { chromium } = require('playwright-core');

const favicon = readFileSync(join(root, 'web', 'favicon.svg'), 'utf8');
const maze = /<path [^>]*\/>/.exec(favicon)?.[0];
const tile = /fill="(#[0-9a-f]{6})"/i.exec(favicon)?.[1];
if (!maze || !tile) throw new Error('web/favicon.svg: no tile colour or maze path found');

/** The maskable icon: a full-bleed tile; the maze scaled by 0.8 about the centre. */
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" fill="${tile}"/><g transform="translate(10 10) scale(0.8)">${maze}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable },
];

const out = join(root, 'web', 'icons');
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
try {
  for (const { file, size, svg } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const sized = svg.replace('<svg ', `<svg width="${size}" height="${size}" `);
    await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`);
    await page.screenshot({ path: join(out, file), omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    await page.close();
    console.log(`web/icons/${file}: ${size}x${size}`);
  }
} finally {
  await browser.close();
}
