// Test harness: starts the real server binary on a free port with a temporary SQLite database
// and the repository's web/ folder, and launches Debian's headless Chromium through
// playwright-core (no browser downloads).

import { spawn } from 'node:child_process';
import { before, after } from 'node:test';
import { mkdtempSync, rmSync, mkdirSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const ROOT = resolve(here, '..', '..');
/** Where screenshots go (gitignored). */
export const SHOTS = join(ROOT, 'artifacts', 'screenshots');

/** The Chromium flags for a sandbox-less, quiet, offline-friendly headless run. */
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic',
  '--no-first-run', '--disable-component-update', '--disable-sync',
];

/** @returns {Promise<number>} a port nobody listens on right now */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

/**
 * Starts the server and waits for /readyz.
 * @param {{dir?: string, port?: number}} [o] reuse a database folder or port (restart tests)
 */
export async function startServer(o = {}) {
  const bin = resolve(ROOT, process.env.DJAMBI_SERVER_BIN || 'target/debug/djambi-server');
  if (!existsSync(bin)) throw new Error(`no server binary at ${bin} (build it: cargo build -p djambi-server)`);
  const dir = o.dir || mkdtempSync(join(tmpdir(), 'djambi-browser-'));
  const port = o.port || await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(bin, [], {
    cwd: ROOT,
    env: {
      ...process.env,
      DJAMBI_BIND: `127.0.0.1:${port}`,
      DATABASE_URL: `sqlite:${join(dir, 'djambi.db')}`,
      DJAMBI_WEB_DIR: join(ROOT, 'web'),
      DJAMBI_PUBLIC_URL: base,
      // Every test here plays from 127.0.0.1: lift the per-address cap on games with bots
      // (3 by default) unless a test sets it.
      DJAMBI_MAX_BOT_GAMES_PER_IP: process.env.DJAMBI_MAX_BOT_GAMES_PER_IP || '1000',
      // The same for reads that load a game and for imports (every test reads and imports from
      // this one address).
      DJAMBI_LOAD_BURST: process.env.DJAMBI_LOAD_BURST || '100000',
      DJAMBI_IMPORT_BURST_KIB: process.env.DJAMBI_IMPORT_BURST_KIB || '100000',
      RUST_LOG: process.env.RUST_LOG || 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d) => { log += d; });
  child.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((ok) => child.on('exit', (code) => ok(code)));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${log}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) break;
    } catch { /* not up yet */ }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not get ready:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base, port, dir,
    log: () => log,
    /** Stops the server (SIGTERM, then SIGKILL); removes its database unless `clean` is false. */
    async stop(clean = true) {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
      if (clean) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium from the system. */
export async function launchBrowser() {
  const { chromium } = await import('playwright-core');
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}`);
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
}

/** Makes sure the screenshot folder exists and returns a path in it. @param {string} name */
export function shotPath(name) {
  mkdirSync(SHOTS, { recursive: true });
  return join(SHOTS, name);
}

/** JSON over HTTP against the server. @param {string} base @param {string} path @param {any} [body] */
export async function api(base, path, body) {
  const res = await fetch(base + path, body === undefined ? {} : {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/**
 * Launches headless Chromium with more flags than `launchBrowser`, e.g.
 * `--host-resolver-rules=MAP djambi.test 127.0.0.1` to open the server under another name.
 * @param {string[]} extraArgs
 */
export async function launchBrowserWith(extraArgs) {
  const { chromium } = await import('playwright-core');
  const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}`);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...extraArgs], headless: true });
}

/**
 * A small seeded random number generator (mulberry32), so a test's random choices repeat.
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Waits until it is this page's turn (its legal turns shown on the board) or the game is over.
 * @param {import('playwright-core').Page} page @param {number} [timeout]
 * @returns {Promise<'turn' | 'over'>}
 */
export async function waitForTurnOrEnd(page, timeout = 30_000) {
  const handle = await page.waitForFunction(() => {
    if (document.querySelector('.game-over')) return 'over';
    if (document.querySelector('.turn-banner.mine') && document.querySelector('.hit.clickable')) return 'turn';
    return null;
  }, null, { timeout, polling: 50 });
  return /** @type {'turn' | 'over'} */ (await handle.jsonValue());
}

/**
 * Enters some legal turn through the board as a person would: a random piece that can move, then
 * a random square among those offered at each step, until the turn is complete; then sends it.
 * Returns the turn text sent.
 * @param {import('playwright-core').Page} page @param {() => number} random
 */
export async function playAnyTurn(page, random) {
  /** @type {string[]} */
  const clicked = [];
  for (let step = 0; step < 8; step++) {
    if (await page.locator('.send-turn').count()) break;
    const squares = await page.$$eval('.hit.clickable', (els) => els.map((e) => e.getAttribute('data-square') || ''));
    // Clicking a square chosen already would take the choice back: only new squares.
    const offered = squares.filter((sq) => !clicked.includes(sq));
    if (!offered.length) throw new Error(`nothing to choose after ${clicked.join(' ')}`);
    const sq = offered[Math.floor(random() * offered.length)];
    clicked.push(sq);
    await page.click(`.hit[data-square="${sq}"]`);
  }
  const send = page.locator('.send-turn');
  const label = (await send.innerText()).replace(/^\S+\s+/, '');
  await send.click();
  return label;
}

/**
 * The serious and critical accessibility violations axe-core (from npm) finds in the page as it
 * is now, one line each: rule, impact, element and what to fix.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
export async function seriousViolations(page) {
  const { createRequire } = await import('node:module');
  const axe = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  await page.waitForTimeout(400); // animations and transitions settle
  // Evaluated rather than added as a <script>: the site's Content Security Policy allows no
  // inline script, and a test must not need it to.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(readFileSync(axe, 'utf8'));
  const result = await page.evaluate(() => /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((/** @type {any} */ v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((/** @type {any} */ v) => v.nodes.map((/** @type {any} */ n) =>
      `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary.split('\n').slice(1).join(' ')}`));
}

/**
 * One server and one browser for a whole test file: started before its first test, stopped
 * after its last. Read them as `env.server` and `env.browser` inside the tests.
 * @returns {{server: Awaited<ReturnType<typeof startServer>>, browser: import('playwright-core').Browser}}
 */
export function sharedServerAndBrowser() {
  const env = /** @type {{server: Awaited<ReturnType<typeof startServer>>, browser: import('playwright-core').Browser}} */ ({});
  before(async () => {
    env.server = await startServer();
    env.browser = await launchBrowser();
  });
  after(async () => {
    if (env.browser) await env.browser.close();
    if (env.server) await env.server.stop();
  });
  return env;
}

/**
 * Console errors that are the browser's, not the page's: a resource or a socket that failed (the
 * tests stop servers on purpose), and Chromium's notice that test contexts, being incognito, have
 * no Push API (the page catches the refusal and says push failed; it cannot detect incognito).
 */
export const BROWSER_NOISE = /Failed to load resource|WebSocket|Push API in incognito mode/;

/**
 * A page in a context of its own whose script errors are collected (console errors that are
 * the browser's noise aside, BROWSER_NOISE): a test asserts `errors` is empty at its end.
 * @param {import('playwright-core').Browser} browser @param {object} [options]  context options
 */
export async function pageWithErrors(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !BROWSER_NOISE.test(m.text())) errors.push(m.text());
  });
  return { context, page, errors };
}

/**
 * Takes an invited seat under a name, as a person would from the invite link.
 * @param {import('playwright-core').Page} page @param {string} url @param {string} name
 */
export async function claimInvite(page, url, name) {
  await page.goto(url);
  await page.locator('#claim-name').waitFor();
  await page.fill('#claim-name', name);
  await page.click('.claim button[type=submit]');
  await page.locator('.seat-badge', { hasText: 'You play' }).waitFor();
}
