// Web Push (issue 23): "your turn, wherever you are". Once this browser may show notifications,
// it subscribes to its push service (with the server's VAPID key, GET /api/push/key) and gives
// the server that subscription for each seat it holds (POST /api/games/{id}/push with the seat's
// token and the page's language); the server then pushes to it when the seat is needed and no
// tab of the seat is open, and the service worker (sw.js) shows the notification. Turning push
// off, or forgetting a game, takes the subscription back (DELETE). Where the browser has no
// push, nothing pretends: the card says notifications come only while a tab is open.
//
// What was given to the server is remembered in localStorage (`djambi.push.sent`: game →
// endpoint, seat and language; never the token), so a page load sends only what is new.

import { api } from '../api.js';
import { language } from '../i18n.js';
import { loadSeat, storedGameIds } from './tokens.js';

const SENT_KEY = 'djambi.push.sent';
const OFF_KEY = 'djambi.push.off';

/**
 * @typedef {'on' | 'off' | 'unsupported' | 'not_allowed' | 'failed'} PushState
 * @typedef {{endpoint: string, player: string, lang: string}} Sent
 */

/** Whether this browser can receive pushes at all (service worker, Push API, secure page). */
export function pushSupported() {
  return typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator
    && typeof PushManager !== 'undefined' && typeof Notification !== 'undefined';
}

/** Whether the person wants pushes in this browser (the default, once notifications are allowed). */
export function pushOn() {
  try { return localStorage.getItem(OFF_KEY) !== '1'; } catch { return true; }
}

/** @returns {Record<string, Sent>} */
function loadSent() {
  try {
    const v = JSON.parse(localStorage.getItem(SENT_KEY) || '{}');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** @param {Record<string, Sent>} sent */
function saveSent(sent) {
  try { localStorage.setItem(SENT_KEY, JSON.stringify(sent)); } catch { /* ignore */ }
}

/** @param {string} b64 base64url @returns {ArrayBuffer} */
function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(s.length));
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return bytes.buffer;
}

/** The page's service worker registration, once it is active (null after a few seconds without). */
async function registration() {
  try {
    const ready = navigator.serviceWorker.ready;
    const late = new Promise((resolve) => setTimeout(() => resolve(null), 5000));
    return /** @type {ServiceWorkerRegistration | null} */ (await Promise.race([ready, late]));
  } catch {
    return null;
  }
}

/**
 * This browser's push subscription; with `create`, made if there is none.
 * @param {boolean} create
 * @returns {Promise<PushSubscription | null>}
 */
async function browserSubscription(create) {
  const reg = await registration();
  if (!reg || !reg.pushManager) return null;
  const had = await reg.pushManager.getSubscription();
  if (had || !create) return had;
  const { key } = await api('GET', '/api/push/key');
  return reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
}

/** @param {string} id */
const pushPath = (id) => `/api/games/${encodeURIComponent(id)}/push`;

/**
 * Makes sure the server pushes to this browser for every seat it holds: subscribes it if needed
 * and gives the server the subscription for each seat not given yet (or given for another
 * endpoint, seat or language). Says where push stands for this browser.
 * @returns {Promise<PushState>}
 */
export async function syncPush() {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission !== 'granted') return 'not_allowed';
  if (!pushOn()) return 'off';
  const ids = storedGameIds();
  const sent = loadSent();
  // No seat held, nothing to subscribe for: the browser's push service is not asked yet.
  if (!ids.some((id) => loadSeat(id))) {
    saveSent({});
    return 'on';
  }
  let sub;
  try {
    sub = await browserSubscription(true);
  } catch {
    return 'failed';
  }
  if (!sub) return 'failed';
  const json = sub.toJSON();
  const endpoint = String(json.endpoint || sub.endpoint);
  const lang = language();
  let failed = false;
  for (const id of ids) {
    const seat = loadSeat(id);
    const was = sent[id];
    if (!seat) {
      delete sent[id];
      continue;
    }
    if (was && was.endpoint === endpoint && was.player === seat.player && was.lang === lang) continue;
    try {
      await api('POST', pushPath(id), { token: seat.token, subscription: json, lang });
      sent[id] = { endpoint, player: seat.player, lang };
    } catch (e) {
      const status = /** @type {any} */ (e).status;
      // A game gone, or a seat this browser no longer holds: nothing to push for.
      if (status === 404 || status === 403) delete sent[id];
      else failed = true;
    }
  }
  for (const id of Object.keys(sent)) if (!ids.includes(id)) delete sent[id];
  saveSent(sent);
  return failed ? 'failed' : 'on';
}

/**
 * The server stops pushing this game to this browser (call it before forgetting the game: the
 * seat's token is needed).
 * @param {string} id
 */
export async function forgetPush(id) {
  const sent = loadSent();
  const was = sent[id];
  if (!was) return;
  delete sent[id];
  saveSent(sent);
  const seat = loadSeat(id);
  if (!seat) return;
  try {
    await api('DELETE', pushPath(id), { token: seat.token, subscription: { endpoint: was.endpoint } });
  } catch { /* the server forgets it with the game, or when its push service says it is gone */ }
}

/**
 * Turns push on or off for this browser. Off: the server forgets this browser's subscription
 * for every game, and the browser's subscription ends.
 * @param {boolean} on
 * @returns {Promise<PushState>}
 */
export async function setPush(on) {
  try { localStorage.setItem(OFF_KEY, on ? '0' : '1'); } catch { /* ignore */ }
  if (on) return syncPush();
  for (const id of Object.keys(loadSent())) await forgetPush(id);
  saveSent({});
  try {
    const sub = pushSupported() ? await browserSubscription(false) : null;
    if (sub) await sub.unsubscribe();
  } catch { /* nothing more to undo */ }
  return 'off';
}

/** @param {string} id */
const circlePushKey = (id) => `djambi.push.circle.${id}`;

/** Whether this browser asked to be told of a circle's new games. @param {string} id */
export function circlePushOn(id) {
  try { return localStorage.getItem(circlePushKey(id)) === '1'; } catch { return false; }
}

/**
 * Tells the server whether this browser wants a push when a game of the circle is created
 * (POST or DELETE /api/circles/{id}/push with the member's key). Turning it on asks the
 * browser's permission to notify, if it was not given yet.
 * @param {string} id  the circle
 * @param {string} key  the member's key
 * @param {boolean} on
 * @returns {Promise<PushState>}
 */
export async function setCirclePush(id, key, on) {
  const path = `/api/circles/${encodeURIComponent(id)}/push`;
  const auth = { Authorization: `Bearer ${key}` };
  if (!on) {
    try { localStorage.removeItem(circlePushKey(id)); } catch { /* ignore */ }
    try {
      const sub = pushSupported() ? await browserSubscription(false) : null;
      if (sub) await api('DELETE', path, { subscription: { endpoint: sub.endpoint } }, auth);
    } catch { /* the server forgets it when its push service says it is gone */ }
    return 'off';
  }
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission !== 'granted' && (await Notification.requestPermission()) !== 'granted') return 'not_allowed';
  try {
    const sub = await browserSubscription(true);
    if (!sub) return 'failed';
    await api('POST', path, { subscription: sub.toJSON(), lang: language() }, auth);
    localStorage.setItem(circlePushKey(id), '1');
    return 'on';
  } catch {
    return 'failed';
  }
}
