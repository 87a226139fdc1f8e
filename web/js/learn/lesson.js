// One lesson, step by step: each step a small position with a task; the learner plays the turn
// on the board, the server's rules judge it (an illegal turn comes back with the core's reason,
// which cites the rule), and the step's goal says whether it was the point (goal.js). Progress
// is remembered in the browser (progress.js).

import { h, replace, toast } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from '../errors.js';
import { narrate } from '../board/narrate.js';
import { parseDpn } from '../board/dpn.js';
import { armySwatch } from '../board/pieces.js';
import { Trainer } from './trainer.js';
import { hintFor, playOn, positionInfo, tryOn } from './positions.js';
import { feedbackKey, meetsGoal, wantsRefusal } from './goal.js';
import { lessonProgress, saveLesson } from './progress.js';

/**
 * @typedef {object} Feedback
 * @property {'right'|'wrong'|'refused'|'hint'} kind
 * @property {() => string} say   the lesson's words (in the language of the moment)
 * @property {string} [reason]    the core's reason for refusing the turn
 * @property {any} [event]        the turn played (or suggested), told as a sentence
 * @property {string} [after]     the position after it (DPN): armies with no piece left on the
 *   board are not named in the sentence
 */

/** @param {import('./positions.js').Played} p */
const turnEvent = (p) => ({ kind: 'turn', player: p.player, turn: p.turn, effects: p.effects });

/**
 * Mounts the lesson player.
 * @param {HTMLElement} root
 * @param {object} o
 * @param {import('./content.js').Lesson[]} o.lessons   every lesson (for "next lesson")
 * @param {import('./content.js').Lesson} o.lesson
 * @param {import('../i18n.js').Translate} o.words      the lessons' words
 */
export function lessonPlayer(root, o) {
  const { lessons, lesson } = o;
  let words = o.words;
  const saved = lessonProgress(lesson.id);
  let index = saved.done ? 0 : Math.min(saved.step, lesson.steps.length - 1);
  /** @type {Feedback | null} */
  let feedback = null;
  let solved = false;
  let busy = false;
  let seq = 0;

  const trainer = new Trainer({ label: t('learn.board_label'), onTurn: (turn) => tryTurn(turn) });
  const text = h('section', { class: 'lesson-text' });
  const status = h('div', { class: 'learn-feedback', role: 'status', 'aria-live': 'polite' });
  const actions = h('div', { class: 'learn-actions' });
  const head = h('header', { class: 'learn-head' });
  root.append(head, h('div', { class: 'learn-layout' },
    h('div', { class: 'learn-text-slot' }, text), trainer.el, h('div', { class: 'learn-side' }, status, actions)));

  const step = () => lesson.steps[index];
  const key = (/** @type {string} */ field) => `${lesson.id}.steps.${index}.${field}`;

  async function loadStep() {
    const mine = ++seq;
    feedback = null;
    solved = false;
    busy = true;
    saveLesson(lesson.id, index);
    render();
    try {
      const info = await positionInfo(step().position);
      if (mine !== seq) return;
      trainer.load(info, { free: wantsRefusal(step().goal), focus: step().focus || [] });
    } catch (e) {
      toast(errorText(e), 'error');
    }
    busy = false;
    render();
  }

  /** @param {string} turn */
  async function tryTurn(turn) {
    const s = step();
    const position = s.position;
    busy = true;
    renderActions();
    try {
      const tried = await tryOn(position, turn);
      if (position !== step().position) {
        busy = false;
        return;
      }
      if ('refused' in tried) {
        // Refused by the rules: the point of a step that asks to see it, else a try again.
        const reason = tried.refused;
        solved = meetsGoal(s.goal, { refused: reason });
        const k = key('done');
        feedback = solved
          ? { kind: 'right', say: () => words(k), reason }
          : { kind: 'refused', say: () => t('learn.refused_try_again'), reason };
        if (solved) trainer.lock();
        else trainer.reset();
      } else {
        const played = /** @type {import('./positions.js').Played} */ (tried);
        const field = feedbackKey(s, { turn: played.turn, effects: played.wireEffects });
        solved = field === 'done';
        trainer.showPlayed(played);
        const k = key(field);
        feedback = { kind: solved ? 'right' : 'wrong', say: () => words(k), event: turnEvent(played), after: played.position };
      }
    } catch (e) {
      toast(errorText(e), 'error');
      trainer.reset();
    }
    if (solved) saveLesson(lesson.id, Math.min(index + 1, lesson.steps.length - 1), index === lesson.steps.length - 1);
    busy = false;
    render();
  }

  async function hint() {
    const position = step().position;
    busy = true;
    renderActions();
    try {
      const { turn } = await hintFor(position);
      const played = await playOn(position, turn);
      if (position !== step().position) {
        busy = false;
        return;
      }
      trainer.showHint(turn);
      // The engine plays for the position, not for the lesson: say so when its turn is not the
      // step's point.
      const fits = meetsGoal(step().goal, { turn: played.turn, effects: played.wireEffects });
      feedback = { kind: 'hint', say: () => t(fits ? 'learn.hint_help' : 'learn.hint_other'), event: turnEvent(played), after: played.position };
    } catch (e) {
      toast(errorText(e), 'error');
    }
    busy = false;
    render();
  }

  function retry() {
    feedback = null;
    solved = false;
    trainer.reset();
    render();
  }

  function render() {
    const n = lesson.steps.length;
    replace(head,
      h('nav', { class: 'crumbs', 'aria-label': t('learn.crumbs') },
        h('a', { href: '/learn', text: t('learn.title') }), ' › ', h('span', { text: words(`${lesson.id}.title`) })),
      h('h1', { text: words(`${lesson.id}.title`) }),
      h('p', { class: 'step-count', text: t('learn.step_of', { n: index + 1, total: n }) },
        h('span', { class: 'step-dots', 'aria-hidden': 'true' },
          ...lesson.steps.map((_, i) => h('span', { class: ['dot', i < index || (i === index && solved) ? 'done' : '', i === index ? 'current' : ''] })))));
    replace(text,
      h('p', { class: 'lesson-intro', text: words(key('intro')) }),
      h('p', { class: 'lesson-task' }, h('strong', { text: t('learn.your_task') }), ' ', words(key('task'))));
    renderFeedback();
    renderActions();
  }

  function renderFeedback() {
    if (!feedback) {
      replace(status);
      return;
    }
    const lead = { right: 'learn.right', wrong: 'learn.wrong', refused: 'learn.refused', hint: 'learn.hint' }[feedback.kind];
    replace(status, h('div', { class: ['feedback', `feedback-${feedback.kind}`] },
      h('p', { class: 'feedback-lead', text: t(lead) }),
      feedback.reason ? h('p', { class: 'core-reason' }, h('span', { class: 'visually-hidden', text: t('learn.reason_label') }), h('code', { text: feedback.reason })) : null,
      feedback.event ? h('p', { class: 'happened' }, armySwatch(feedback.event.player, 12), ' ', h('code', { class: 'notation', text: feedback.event.turn }), ' ',
        narrate(t, feedback.event, { board: feedback.after ? parseDpn(feedback.after).board : undefined })) : null,
      h('p', { class: 'feedback-text', text: feedback.say() })));
  }

  function renderActions() {
    const last = index === lesson.steps.length - 1;
    const at = lessons.findIndex((l) => l.id === lesson.id);
    const nextLesson = lessons[at + 1];
    /** @type {(HTMLElement | null)[]} */
    const buttons = [];
    if (solved && !last) {
      buttons.push(h('button', { type: 'button', class: 'btn btn-primary next-step', text: t('learn.next_step'), onclick: () => { index += 1; loadStep(); } }));
    }
    if (solved && last) {
      buttons.push(h('p', { class: 'lesson-done', text: t('learn.lesson_done') }));
      if (nextLesson) buttons.push(h('a', { class: 'btn btn-primary next-lesson', href: `/learn/${nextLesson.id}`, text: t('learn.next_lesson', { title: words(`${nextLesson.id}.title`) }) }));
      buttons.push(h('a', { class: 'btn', href: '/learn', text: t('learn.all_lessons') }));
      if (!nextLesson) buttons.push(h('a', { class: 'btn', href: '/puzzles', text: t('learn.to_puzzles') }));
    }
    if (!solved && feedback && feedback.kind === 'wrong') {
      buttons.push(h('button', { type: 'button', class: 'btn btn-primary try-again', text: t('learn.try_again'), onclick: retry }));
    }
    if (!solved && !wantsRefusal(step().goal)) {
      buttons.push(h('button', { type: 'button', class: 'btn show-hint', disabled: busy, text: t('learn.show_hint'), onclick: hint }));
    }
    if (index > 0) {
      buttons.push(h('button', { type: 'button', class: 'btn btn-ghost prev-step', disabled: busy, text: t('learn.prev_step'), onclick: () => { index -= 1; loadStep(); } }));
    }
    replace(actions, ...buttons);
  }

  loadStep();
  return {
    /** @param {import('../i18n.js').Translate} next */
    relabel(next) {
      words = next;
      trainer.setLabel(t('learn.board_label'));
      trainer.render();
      render();
    },
  };
}
