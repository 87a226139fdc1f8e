// Which notifications this browser wants, kept in IndexedDB, where the service worker (sw.js)
// reads them when a push message comes (a worker cannot read localStorage). One record,
// `notify` in the `settings` store of the `djambi` database: kind → false when turned off.
// A kind never set is on. sw.js opens the same database, store and key: keep them in step.

/** The kinds of notification, in the order the settings list them (the push payload's `kind`). */
export const NOTIFY_KINDS = /** @type {const} */ (['your_turn', 'draw_offer', 'vote', 'takeback', 'deadline', 'game_over']);

const DB = 'djambi';
const STORE = 'settings';
const KEY = 'notify';

/** @returns {Promise<IDBDatabase>} */
function openDb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/**
 * Runs one request on the settings store and closes the database.
 * @template T
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest<T>} ask
 * @returns {Promise<T>}
 */
async function withStore(mode, ask) {
  const db = await openDb();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = ask(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}

/**
 * This browser's notification settings: every kind, on or off (on unless turned off; all on
 * when IndexedDB cannot be read).
 * @returns {Promise<Record<typeof NOTIFY_KINDS[number], boolean>>}
 */
export async function loadNotifySettings() {
  /** @type {any} */
  let saved = {};
  try {
    saved = (await withStore('readonly', (s) => s.get(KEY))) || {};
  } catch { /* no IndexedDB: the defaults */ }
  return /** @type {any} */ (Object.fromEntries(NOTIFY_KINDS.map((k) => [k, saved[k] !== false])));
}

/**
 * Turns one kind of notification on or off for this browser. Returns whether it was saved.
 * @param {typeof NOTIFY_KINDS[number]} kind
 * @param {boolean} on
 */
export async function saveNotifySetting(kind, on) {
  if (!NOTIFY_KINDS.includes(kind)) return false;
  try {
    const now = await loadNotifySettings();
    await withStore('readwrite', (s) => s.put({ ...now, [kind]: on }, KEY));
    return true;
  } catch {
    return false;
  }
}
