// What this browser remembers of the learner: the lessons finished (and the step reached in the
// others) and the puzzles solved. Kept in localStorage; a browser that keeps nothing simply
// starts afresh each time.

const LESSONS_KEY = 'djambi.lessons';
const PUZZLES_KEY = 'djambi.puzzles';

/** @param {string} key @returns {any} */
function read(key) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || 'null');
    return v && typeof v === 'object' ? v : {};
  } catch {
    return {};
  }
}

/** @param {string} key @param {any} value */
function write(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* storage may be off */ }
}

/**
 * Where the learner stands in a lesson.
 * @param {string} id
 * @returns {{done: boolean, step: number}}
 */
export function lessonProgress(id) {
  const v = read(LESSONS_KEY)[id];
  return {
    done: Boolean(v && v.done),
    step: v && Number.isInteger(v.step) && v.step >= 0 ? v.step : 0,
  };
}

/**
 * Remembers the step reached in a lesson (0-based), and whether the lesson is finished (once
 * finished, it stays finished).
 * @param {string} id @param {number} step @param {boolean} [done]
 */
export function saveLesson(id, step, done = false) {
  const all = read(LESSONS_KEY);
  const was = all[id] || {};
  all[id] = { step, done: Boolean(was.done || done) };
  write(LESSONS_KEY, all);
}

/** The ids of the puzzles solved here. @returns {Set<string>} */
export function solvedPuzzles() {
  const v = read(PUZZLES_KEY).solved;
  return new Set(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
}

/** Remembers a puzzle as solved. @param {string} id */
export function markSolved(id) {
  const all = read(PUZZLES_KEY);
  const solved = solvedPuzzles();
  solved.add(id);
  all.solved = [...solved].sort();
  write(PUZZLES_KEY, all);
}
