// The rules page's diagrams (issue 22 item 5), in Chromium against the real server: at 360 and
// 1280 px every diagram has its coordinates beside it, in type of at least 13 px with strong
// contrast, each label level with its rank or file, seen from Red's seat as the lessons are
// (issue 46: one convention, the board turned so that its viewer's army is at the bottom); "Play the example" steps through every
// diagram's turns, the board showing exactly the pieces of each stored position, Back and
// "From the start" returning; axe finds nothing serious; 360 px does not scroll sideways.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedServerAndBrowser, shotPath, seriousViolations, ROOT } from './harness.mjs';
import { parseBoard } from '../../web/js/board/dpn.js';

const env = sharedServerAndBrowser();

const EXAMPLES = JSON.parse(readFileSync(join(ROOT, 'web', 'data', 'rules-examples.json'), 'utf8'));
const NAMES = Object.keys(EXAMPLES.figures);

const SCREENS = /** @type {const} */ ([
  ['phone', { viewport: { width: 360, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
  ['desktop', { viewport: { width: 1280, height: 900 } }],
]);

/** WCAG's contrast ratio of two `rgb(…)` colours. @param {string} a @param {string} b */
function contrast(a, b) {
  const lum = (/** @type {string} */ c) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) || []).slice(0, 3).map(Number).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The squares with a piece or corpse on a figure's board. @param {import('playwright-core').Locator} fig */
const drawnSquares = (fig) => fig.locator('svg.board [data-piece]').evaluateAll((els) => els.map((e) => e.getAttribute('data-piece') || '').sort());

for (const [name, options] of SCREENS) {
  test(`${name}: every diagram has legible coordinates level with its squares`, { timeout: 60_000 }, async () => {
    const ctx = await env.browser.newContext(options);
    const page = await ctx.newPage();
    await page.goto(env.server.base + '/rules');
    await page.locator('.rules-figure').nth(NAMES.length - 1).waitFor();
    assert.equal(await page.locator('.rules-figure').count(), NAMES.length);
    const figures = await page.$$eval('.rules-figure', (figs) => figs.map((fig) => {
      const svg = /** @type {SVGSVGElement} */ (fig.querySelector('svg.board'));
      const box = svg.getBoundingClientRect();
      const border = parseFloat(getComputedStyle(svg).borderTopWidth);
      const label = (/** @type {Element} */ s) => {
        const r = s.getBoundingClientRect();
        const style = getComputedStyle(s);
        return { text: s.textContent, x: r.left + r.width / 2, y: r.top + r.height / 2, size: parseFloat(style.fontSize), color: style.color };
      };
      let bg = 'rgb(255, 255, 255)';
      for (let e = /** @type {Element | null} */ (fig); e; e = e.parentElement) {
        const c = getComputedStyle(e).backgroundColor;
        if (c !== 'rgba(0, 0, 0, 0)') { bg = c; break; }
      }
      return {
        name: /** @type {HTMLElement} */ (fig).dataset.figure,
        inner: { left: box.left + border, top: box.top + border, size: box.width - 2 * border },
        ranks: [...fig.querySelectorAll('.board-ranks span')].map(label),
        files: [...fig.querySelectorAll('.board-files span')].map(label),
        inBoard: [...fig.querySelectorAll('svg .coord')].filter((c) => getComputedStyle(c).display !== 'none').length,
        bg,
      };
    }));
    for (const f of figures) {
      // Red's seat: the files a to i going up the left side, the ranks 9 to 1 along the bottom.
      assert.deepEqual(f.ranks.map((l) => l.text), ['i', 'h', 'g', 'f', 'e', 'd', 'c', 'b', 'a'], `${f.name}: left edge`);
      assert.deepEqual(f.files.map((l) => l.text), ['9', '8', '7', '6', '5', '4', '3', '2', '1'], `${f.name}: bottom edge`);
      assert.equal(f.inBoard, 0, `${f.name}: no tiny labels inside the board`);
      const square = f.inner.size / 9;
      assert.ok(square >= 24, `${f.name}: squares of ${square.toFixed(1)} px`);
      for (const [i, l] of f.ranks.entries()) {
        assert.ok(l.size >= 13, `${f.name} ${l.text}: ${l.size} px`);
        assert.ok(contrast(l.color, f.bg) >= 7, `${f.name} ${l.text}: contrast ${contrast(l.color, f.bg).toFixed(1)}`);
        assert.ok(Math.abs(l.y - (f.inner.top + (i + 0.5) * square)) < 2, `${f.name}: rank ${l.text} level with its row`);
      }
      for (const [i, l] of f.files.entries()) {
        assert.ok(l.size >= 13, `${f.name} ${l.text}: ${l.size} px`);
        assert.ok(Math.abs(l.x - (f.inner.left + (i + 0.5) * square)) < 2, `${f.name}: file ${l.text} under its column`);
      }
    }
    const reporter = page.locator('.rules-figure[data-figure="Reporter"]');
    await reporter.scrollIntoViewIfNeeded();
    await reporter.screenshot({ path: shotPath(`rules-figure-reporter-${name}.png`) });
    await page.locator('.rules-figure[data-figure="start"]').screenshot({ path: shotPath(`rules-figure-start-${name}.png`) });
    assert.deepEqual(await seriousViolations(page), []);
    if (name === 'phone') {
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= 360, `${width} px wide`);
    }
    await ctx.close();
  });

  test(`${name}: every diagram's example plays step by step, showing the stored positions`, { timeout: 90_000 }, async () => {
    const ctx = await env.browser.newContext({ ...options, reducedMotion: 'reduce' });
    const page = await ctx.newPage();
    /** @type {string[]} */
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(env.server.base + '/rules');
    for (const figName of NAMES) {
      const data = EXAMPLES.figures[figName];
      const fig = page.locator(`.rules-figure[data-figure="${figName}"]`);
      await fig.scrollIntoViewIfNeeded();
      const first = await fig.locator('figcaption').innerText();
      assert.deepEqual(await drawnSquares(fig), Object.keys(parseBoard(data.position.split(' ')[0])).sort(), `${figName}: the start`);
      await fig.getByRole('button', { name: 'Play the example' }).click();
      for (const [i, step] of data.steps.entries()) {
        const k = i + 1;
        await fig.locator('figcaption', { hasText: `Step ${k} of ${data.steps.length}.` }).waitFor();
        assert.deepEqual(await drawnSquares(fig), Object.keys(parseBoard(step.position.split(' ')[0])).sort(), `${figName}, step ${k}`);
        // The turn is marked on the board, numbered.
        assert.equal(await fig.locator(`.turn-badge[data-n="${k}"]`).count(), 1, `${figName}, step ${k}: its mark`);
        if (k < data.steps.length) {
          assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('example-next')), true, 'the focus stays on Next');
          await fig.getByRole('button', { name: 'Next' }).click();
        }
      }
      if (figName === 'Chief' || figName === 'corpses') {
        assert.deepEqual(await seriousViolations(page), []);
        await fig.screenshot({ path: shotPath(`rules-example-${figName}-${name}.png`) });
      }
      if (data.steps.length > 1) {
        // Back, one turn at a time, to the figure itself.
        for (let k = data.steps.length - 1; k >= 1; k--) {
          await fig.getByRole('button', { name: 'Back' }).click();
          await fig.locator('figcaption', { hasText: `Step ${k} of ${data.steps.length}.` }).waitFor();
          assert.deepEqual(await drawnSquares(fig), Object.keys(parseBoard(data.steps[k - 1].position.split(' ')[0])).sort(), `${figName}, back to step ${k}`);
        }
        await fig.getByRole('button', { name: 'Back' }).click();
      } else {
        await fig.getByRole('button', { name: 'From the start' }).click();
      }
      // At the start again: the figure's own caption, pieces and marks.
      await fig.getByRole('button', { name: 'Play the example' }).waitFor();
      assert.deepEqual(await drawnSquares(fig), Object.keys(parseBoard(data.position.split(' ')[0])).sort(), `${figName}: the start again`);
      assert.equal(await fig.locator('figcaption').innerText(), first);
      assert.equal(await fig.locator('.turn-badge').count(), 0);
    }
    assert.deepEqual(errors, []);
    await ctx.close();
  });
}

test('the examples\' captions in French and Italian', { timeout: 60_000 }, async () => {
  const ctx = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  await page.goto(env.server.base + '/rules');
  await page.selectOption('#lang', 'fr');
  const fig = page.locator('.rules-figure[data-figure="Reporter"]');
  await fig.getByRole('button', { name: "Jouer l'exemple" }).click();
  await fig.locator('figcaption', { hasText: 'Étape 1 sur 1. Le Reporter s\'arrête en b4' }).waitFor();
  await page.selectOption('#lang', 'it');
  await fig.getByRole('button', { name: "Gioca l'esempio" }).click();
  await fig.locator('figcaption', { hasText: 'Passo 1 di 1. Il Giornalista si ferma in b4' }).waitFor();
  await ctx.close();
});
