// What the lesson and puzzle tests share: the two screen sizes, entering a turn by clicking the
// board's squares, reading the feedback beside the board, and the checks every page passes
// (axe-core, no sideways scroll) with its screenshot.

import assert from 'node:assert/strict';
import { seriousViolations, shotPath } from './harness.mjs';

/** A desktop and a phone (360 px wide, touch). */
export const SIZES = /** @type {const} */ ([
  ['desktop', { viewport: { width: 1280, height: 900 } }],
  ['phone', { viewport: { width: 360, height: 800 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
]);

/** Clicks squares of the board in order. @param {import('playwright-core').Page} page @param {string[]} squares */
export async function clickSquares(page, squares) {
  for (const sq of squares) await page.click(`.board .hit[data-square="${sq}"]`);
}

/**
 * The feedback beside the board, once it is of this kind (right, wrong, refused, hint).
 * @param {import('playwright-core').Page} page @param {string} kind
 */
export async function feedback(page, kind) {
  const box = page.locator(`.learn-feedback .feedback-${kind}`);
  await box.waitFor();
  return box.innerText();
}

/**
 * No serious accessibility violation, no sideways scroll; a screenshot `{prefix}-{name}.png`.
 * @param {import('playwright-core').Page} page @param {string} name
 */
export async function checkPage(page, name) {
  assert.deepEqual(await seriousViolations(page), [], `${name}: accessibility`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth), false, `${name}: no sideways scroll`);
  await page.screenshot({ path: shotPath(`${name}.png`), fullPage: true });
}
