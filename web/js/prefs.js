// What this browser remembers about its person across games (in localStorage).

const NAME_KEY = 'djambi.name';

/**
 * The name this browser last played under ('' when none).
 * @returns {string}
 */
export function savedName() {
  try { return localStorage.getItem(NAME_KEY) || ''; } catch { return ''; }
}

/**
 * Remembers the name to offer next time.
 * @param {string} name
 */
export function rememberName(name) {
  try { localStorage.setItem(NAME_KEY, name); } catch { /* ignore */ }
}

const FINISHED_KEY = 'djambi.finished';
const BOT_LEVEL_KEY = 'djambi.botLevel';

/** Whether this browser has seen a game it had a seat in come to its end. */
export function hasFinishedGame() {
  try { return localStorage.getItem(FINISHED_KEY) === '1'; } catch { return false; }
}

/** Remembers that this browser saw a game it had a seat in end (the lobby's bots get their level choice back). */
export function rememberFinishedGame() {
  try { localStorage.setItem(FINISHED_KEY, '1'); } catch { /* ignore */ }
}

/**
 * The bot level last chosen for "Play against 3 bots" (null when none).
 * @returns {string | null}
 */
export function savedBotLevel() {
  try { return localStorage.getItem(BOT_LEVEL_KEY); } catch { return null; }
}

/**
 * Remembers the bot level chosen for "Play against 3 bots".
 * @param {string} level
 */
export function rememberBotLevel(level) {
  try { localStorage.setItem(BOT_LEVEL_KEY, level); } catch { /* ignore */ }
}
