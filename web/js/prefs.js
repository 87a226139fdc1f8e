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
