// The Content Security Policy (docs/SECURITY.md): every page of the client works under the
// server's policy — no inline script but the offline page's own (allowed by its hash), nothing
// loaded from elsewhere — and the browser reports no violation on any of them; every page is
// served with the policy, nosniff, no framing and no referrer.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedServerAndBrowser, api, ROOT } from './harness.mjs';

const env = sharedServerAndBrowser();

const START = 'CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1';

/** Records every policy violation the page reports, from its first script on. */
function listen() {
  /** @type {any} */ (window).__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    /** @type {any} */ (window).__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
  });
}

test('no page of the client violates the Content Security Policy', { timeout: 180_000 }, async () => {
  const base = env.server.base;
  const bots = await api(base, '/api/games', { players: 4, bots: { b: 'easy', y: 'easy', g: 'easy' }, bot_movetime_ms: 200 });
  const finished = await api(base, '/api/games/import', {
    format: 'djambi-game/1', rules: {}, start: START, events: [{ resign: 'y' }, { resign: 'b' }, { resign: 'g' }],
  });
  const lessons = JSON.parse(readFileSync(join(ROOT, 'web', 'lessons', 'lessons.json'), 'utf8'));
  const lesson = (lessons.lessons || lessons)[0].id;
  const pages = ['/', '/rules', '/learn', `/learn/${lesson}`, '/puzzles', '/puzzles/p001', '/transfer',
    bots.seats[0].invite_url.replace(base, ''), `/game/${bots.id}`, '/offline.html'];
  pages.push(`/game/${finished.id}/replay`);
  const ctx = await env.browser.newContext();
  await ctx.addInitScript(listen);
  const page = await ctx.newPage();
  /** @type {string[]} */
  const reported = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) reported.push(`${page.url()}: ${m.text()}`); });
  for (const path of pages) {
    const response = await page.goto(base + path);
    assert.ok(response, path);
    const headers = response.headers();
    assert.match(headers['content-security-policy'] || '', /default-src 'self'/, path);
    assert.match(headers['content-security-policy'] || '', /frame-ancestors 'none'/, path);
    assert.equal(headers['x-content-type-options'], 'nosniff', path);
    assert.equal(headers['referrer-policy'], 'no-referrer', path);
    await page.waitForLoadState('networkidle').catch(() => {});
    await page.waitForTimeout(300);
    const violations = await page.evaluate(() => /** @type {any} */ (window).__violations || []);
    assert.deepEqual(violations, [], `${path}: ${violations.join('; ')}`);
  }
  assert.deepEqual(reported, []);
  // The client's own scripts did run under the policy: the lobby is drawn.
  await page.goto(base + '/');
  await page.locator('.create button[type=submit]').waitFor();
  await ctx.close();
});
