// The lesson list (`/learn`): every lesson with what it teaches and how far this browser got,
// the next lesson to take, and the way on to the puzzles.

import { h, replace } from '../dom.js';
import { t } from '../i18n.js';
import { lessonProgress } from './progress.js';

/**
 * Draws the list into `root`.
 * @param {HTMLElement} root
 * @param {import('./content.js').Lesson[]} lessons
 * @param {import('../i18n.js').Translate} words  the lessons' words
 */
export function lessonList(root, lessons, words) {
  const progress = lessons.map((l) => lessonProgress(l.id));
  const done = progress.filter((p) => p.done).length;
  const next = lessons.find((_, i) => !progress[i].done);
  replace(root,
    h('header', { class: 'learn-head' },
      h('h1', { text: t('learn.title') }),
      h('p', { class: 'tagline', text: t('learn.intro') }),
      h('div', { class: 'learn-summary' },
        h('p', { class: 'learn-count', text: t('learn.count', { done, total: lessons.length }) }),
        next
          ? h('a', { class: 'btn btn-primary continue', href: `/learn/${next.id}`, text: t(done ? 'learn.continue' : 'learn.start_first', { title: words(`${next.id}.title`) }) })
          : h('a', { class: 'btn btn-primary', href: '/puzzles', text: t('learn.to_puzzles') }),
        h('a', { class: 'btn', href: '/rules', text: t('learn.read_rules') }))),
    h('ol', { class: 'lesson-list' }, ...lessons.map((l, i) => {
      const p = progress[i];
      const state = p.done ? 'done' : p.step > 0 ? 'started' : 'new';
      const label = p.done ? t('learn.status_done')
        : p.step > 0 ? t('learn.status_step', { n: p.step + 1, total: l.steps.length }) : t('learn.status_new', { total: l.steps.length });
      return h('li', { class: ['lesson-item', `lesson-${state}`], dataset: { lesson: l.id } },
        h('a', { href: `/learn/${l.id}`, class: 'lesson-link' },
          h('span', { class: 'lesson-num', 'aria-hidden': 'true', text: p.done ? '✓' : String(i + 1) }),
          h('span', { class: 'lesson-words' },
            h('span', { class: 'lesson-title', text: words(`${l.id}.title`) }),
            h('span', { class: 'lesson-summary', text: words(`${l.id}.summary`) })),
          h('span', { class: 'lesson-status', text: label })));
    })));
}
