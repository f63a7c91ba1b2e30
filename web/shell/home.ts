// The front page: the course. The lessons in order with how far this browser got in each, and
// the three other ways in, each one link: compare two kernels, bring your own machine's data
// (a kernel trace, /proc/buddyinfo and /proc/zoneinfo), and the workbench for experts.
import lessonIndex from 'virtual:lesson-index';
import type { LessonSummary } from '../lessons/vite-plugin';
import { ProgressStore } from '../storage/lesson-progress';
import { el } from '../ui/dom';
import { WORKBENCH_HREF } from './routes';
import '../lessons/lessons.css';
import './home.css';

/** Where a lesson stands for this browser, in words. */
function standing(l: LessonSummary, store: ProgressStore): { text: string; state: 'done' | 'started' | 'new' } {
  const p = store.get(l.id);
  if (p.done) return { text: 'done', state: 'done' };
  if (p.reached > 0) return { text: `step ${p.reached + 1} of ${l.steps}`, state: 'started' };
  return { text: `${l.steps} steps`, state: 'new' };
}

/** lessons: the build's index of the course's lessons (every one passed its checks, or the
 * build stopped), so the front page needs no lesson parser. */
export function mountHome(root: HTMLElement, store = new ProgressStore(), lessons: readonly LessonSummary[] = lessonIndex): void {
  const page = el('div', { class: 'home-page' });
  const next = lessons.find((l) => !store.get(l.id).done) ?? lessons[0];
  const nextP = next ? store.get(next.id) : undefined;

  const intro = el('section', { class: 'home-intro', 'aria-labelledby': 'home-title' });
  intro.append(
    el('h2', { id: 'home-title', class: 'page-title', text: 'How Linux hands out physical pages' }),
    el('p', {
      text:
        'The buddy allocator first, then the kernel changes that shaped it, one lesson each: watch blocks split and merge, ' +
        'per-CPU page lists fill and drain, and CPUs wait for zone->lock, one event at a time, with the numbers from the patches beside the model’s.',
    }),
  );
  if (next && nextP) {
    const started = nextP.reached > 0 && !nextP.done;
    intro.append(
      el('a', {
        class: 'button primary home-start',
        href: `?lesson=${encodeURIComponent(next.id)}${started ? `&step=${nextP.reached + 1}` : ''}`,
        text: started ? `Continue lesson ${next.number}: ${next.title}` : `Start with lesson ${next.number}: ${next.title}`,
      }),
    );
  }
  if (store.loadProblem) intro.append(el('p', { class: 'alert', role: 'alert', text: store.loadProblem }));

  const course = el('section', { class: 'home-course', 'aria-labelledby': 'course-title' });
  const list = el('ol', { class: 'home-lessons' });
  for (const l of lessons) {
    const s = standing(l, store);
    list.append(
      el(
        'li',
        { class: `home-lesson is-${s.state}`, 'data-lesson': l.id },
        el('span', { class: 'home-lesson-head' }, el('span', { class: 'home-num', 'aria-hidden': 'true', text: `${l.number}` }), el('a', { href: `?lesson=${encodeURIComponent(l.id)}`, class: 'home-lesson-title' }, el('span', { class: 'sr-only', text: `Lesson ${l.number}: ` }), l.title)),
        el('span', { class: 'home-progress', text: s.text }),
        el('p', { class: 'home-summary', text: l.summary }),
      ),
    );
  }
  course.append(el('h2', { id: 'course-title', text: 'The lessons, in order' }), list);
  course.append(el('p', { class: 'hint' }, el('a', { href: '?lessons', text: 'Progress and lesson files' }), ': save your progress to a file, or open a lesson of your own.'));

  const more = el('section', { class: 'home-more', 'aria-labelledby': 'more-title' });
  const card = (href: string, title: string, text: string) =>
    el('li', { class: 'home-card' }, el('a', { href, class: 'home-card-title', text: title }), el('p', { text }));
  more.append(
    el('h2', { id: 'more-title', text: 'Other ways in' }),
    el(
      'ul',
      { class: 'home-cards' },
      card('?compare', 'Compare two kernels', 'Run two kernel versions side by side on the same workload and see which is faster, and why: lock contention, cache misses, prefetches.'),
      card('?timemachine', 'Every kernel on one chart', 'The time machine: page_fault1 on each kernel from 2002 to today, its score and zone->lock contention, in release order.'),
      card('?fidelity', 'How close is the model?', 'Every number from the kernel mails that the lessons set beside the model, the band it must fall in, the model’s figure and its verdict, with why where they part.'),
      card(
        `${WORKBENCH_HREF}=import`,
        'Load your own trace or zoneinfo',
        'Replay a perf or tracefs recording of your own machine’s page allocator, or start a zone from its /proc/buddyinfo and /proc/zoneinfo.',
      ),
      card(WORKBENCH_HREF, 'Workbench (for experts)', 'Every view and control at once: run any workload on up to 112 CPUs, step through every event, write your own operations.'),
    ),
  );
  page.append(intro, course, more);
  root.replaceChildren(page);
}
