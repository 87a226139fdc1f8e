// The Learn pages: `/learn`, the list of lessons, and `/learn/{lesson}`, one lesson played step
// by step on the real board (lesson.js). The lessons are data (content.js).

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { loadLessons, lessonTexts } from '../learn/content.js';
import { lessonList } from '../learn/list.js';
import { lessonPlayer } from '../learn/lesson.js';

/**
 * @param {HTMLElement} main
 * @param {{lesson?: string}} params
 */
export function mount(main, params) {
  const root = h('article', { class: ['learn-page', params.lesson ? 'lesson-page' : 'lessons-page'] });
  main.append(root);
  let gone = false;
  /** @type {{relabel: (words: import('../i18n.js').Translate) => void} | null} */
  let player = null;
  /** @type {import('../learn/content.js').Lesson[]} */
  let lessons = [];

  async function show() {
    replace(root, h('p', { class: 'muted', text: t('learn.loading') }));
    try {
      lessons = await loadLessons();
      const words = await lessonTexts();
      if (gone) return;
      title(words);
      if (!params.lesson) {
        lessonList(root, lessons, words);
        return;
      }
      const lesson = lessons.find((l) => l.id === params.lesson);
      replace(root);
      if (!lesson) {
        root.append(h('section', { class: 'card narrow' },
          h('h1', { text: t('learn.no_lesson') }), h('p', {}, h('a', { href: '/learn', text: t('learn.all_lessons') }))));
        return;
      }
      player = lessonPlayer(root, { lessons, lesson, words });
    } catch {
      if (!gone) replace(root, h('p', { class: 'error-text', role: 'alert', text: t('learn.load_error') }));
    }
  }

  /** @param {import('../i18n.js').Translate} words */
  function title(words) {
    const lesson = params.lesson && lessons.find((l) => l.id === params.lesson);
    document.title = `${lesson ? words(`${lesson.id}.title`) : t('learn.title')} — Djambi Online`;
  }

  show();
  return {
    unmount() { gone = true; },
    async relabel() {
      const words = await lessonTexts();
      if (gone) return;
      title(words);
      if (player) player.relabel(words);
      else if (!params.lesson && lessons.length) lessonList(root, lessons, words);
      else show();
    },
  };
}
