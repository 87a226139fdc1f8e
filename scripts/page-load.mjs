// Measures a cold and a warm load of a game page in headless Chromium: requests, bytes over
// the wire (compressed, as sent) and what came from the browser's cache.
//
//   node scripts/page-load.mjs http://127.0.0.1:8080
//
// It creates a game on that server (loopback only), opens its page in a fresh browser
// (cold: empty cache), then opens it again in the same browser (warm), and prints both.
// Needs playwright-core (npm ci --prefix tests/browser) and Chromium (/usr/bin/chromium).
import { createRequire } from 'node:module';

const require = createRequire(new URL('../tests/browser/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = (process.argv[2] || 'http://127.0.0.1:8080').replace(/\/$/, '');
const host = new URL(base).hostname;
if (host !== '127.0.0.1' && host !== 'localhost') throw new Error('loopback servers only');

const res = await fetch(`${base}/api/games`, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify({ players: 4 }),
});
const game = await res.json();
const url = `${base}/game/${game.id}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
const context = await browser.newContext();

/** One load's figures, in a new tab of the same browser (the cache is the browser's). */
async function load(label) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const seen = new Map();
  const onResponse = (e) => {
    const before = seen.get(e.requestId);
    const cached = Boolean(e.response.fromDiskCache || e.response.fromMemoryCache || (before && before.cached));
    seen.set(e.requestId, { url: e.response.url, cached, status: e.response.status, bytes: 0 });
  };
  const onFinished = (e) => {
    const r = seen.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
  };
  const onCache = (e) => {
    seen.set(e.requestId, { url: e.request?.url || '(cache)', cached: true, status: 200, bytes: 0 });
  };
  cdp.on('Network.responseReceived', onResponse);
  cdp.on('Network.loadingFinished', onFinished);
  cdp.on('Network.requestServedFromCache', onCache);
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator('.board, svg').first().waitFor();
  cdp.off('Network.responseReceived', onResponse);
  cdp.off('Network.loadingFinished', onFinished);
  cdp.off('Network.requestServedFromCache', onCache);
  await page.close();
  const all = [...seen.values()].filter((r) => !r.url.startsWith("ws"));
  if (process.env.DEBUG) for (const r of all) console.log(label, r.status, r.cached, r.bytes, r.url);
  const network = all.filter((r) => !r.cached);
  const bytes = network.reduce((n, r) => n + r.bytes, 0);
  const revalidated = network.filter((r) => r.status === 304).length;
  console.log(`${label}: ${all.length} resources, ${network.length} requests over the network (${revalidated} answered 304), ${(bytes / 1024).toFixed(1)} KiB transferred, ${all.length - network.length} from the cache`);
}

await load('cold');
await load('warm');
await browser.close();
