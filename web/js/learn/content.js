// The lessons as data: their steps (positions, goals, the squares to look at) in
// /lessons/lessons.json, their words in /lessons/{en,fr,it}.json — read once each, and looked up
// with the same translator as the rest of the site (English when a text is missing).

import { language, makeTranslator } from '../i18n.js';

/**
 * @typedef {object} Step
 * @property {string} position      DPN, the learner to move
 * @property {Record<string, any>[]} goal  what the turn must do (goal.js)
 * @property {string} example       a turn that meets the goal (the lessons' test plays it)
 * @property {string[]} [focus]     squares to point at
 * @property {{if: Record<string, any>, say: string}[]} [misses]  wrong answers it knows, each
 *   with the key of its own words (goal.js `feedbackKey`)
 */

/**
 * @typedef {object} Lesson
 * @property {string} id
 * @property {Step[]} steps
 */

/** @type {Promise<Lesson[]> | null} */
let lessons = null;
/** @type {Record<string, Promise<object>>} */
const texts = {};

/** @param {string} path */
async function getJson(path) {
  const res = await fetch(path);
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

/**
 * Every lesson, in order.
 * @returns {Promise<Lesson[]>}
 */
export function loadLessons() {
  if (!lessons) {
    lessons = getJson('/lessons/lessons.json').then((d) => d.lessons).catch((e) => {
      lessons = null;
      throw e;
    });
  }
  return lessons;
}

/** @param {string} lang */
function textsOf(lang) {
  if (!texts[lang]) {
    texts[lang] = getJson(`/lessons/${lang}.json`).catch((e) => {
      delete texts[lang];
      throw e;
    });
  }
  return texts[lang];
}

/**
 * A translator over the lessons' words in the current language (keys `militant.title`,
 * `militant.steps.0.task`, …), English where a text is missing.
 * @returns {Promise<import('../i18n.js').Translate>}
 */
export async function lessonTexts() {
  const en = await textsOf('en');
  const lang = language();
  const dict = lang === 'en' ? en : await textsOf(lang).catch(() => en);
  return makeTranslator(dict, en);
}
