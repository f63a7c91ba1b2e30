// Mounts the pages that are not the workbench: the front page (the course), the lesson index,
// a lesson (and lecture mode), and compare.
import lessonSources from 'virtual:lessons';
import type { Route } from './routes';
import { mountHome } from './home';
import { mountLessonById, mountLessonIndex } from '../lessons/page';
import { mountCompare } from '../compare/page';
import { mountTimeMachine } from '../compare/timemachine';

export function mountCourse(root: HTMLElement, r: Exclude<Route, { page: 'workbench' }>, search: string): void {
  root.classList.add('course');
  if (new URLSearchParams(search).get('embed') === '1') document.documentElement.classList.add('embed');
  if (r.page === 'home') mountHome(root);
  else if (r.page === 'lessons') mountLessonIndex(root, lessonSources);
  else if (r.page === 'lesson') mountLessonById(root, lessonSources, r.lesson);
  else if (r.page === 'timemachine') mountTimeMachine(root, r.search);
  else mountCompare(root, r.search);
}
