// Mounts the course pages (lessons, lecture, compare) in place of the player app when the query
// string asks for one; returns false to let main.ts start the player app.
import lessonSources from 'virtual:lessons';
import { routeFrom } from './routes';
import { mountLessonById, mountLessonIndex } from '../lessons/page';
import { mountCompare } from '../compare/page';
import { mountTimeMachine } from '../compare/timemachine';

export function mountCourse(root: HTMLElement, search: string): boolean {
  const r = routeFrom(search);
  if (r.page === 'app') return false;
  root.classList.add('course');
  if (new URLSearchParams(search).get('embed') === '1') document.documentElement.classList.add('embed');
  if (r.page === 'lessons') mountLessonIndex(root, lessonSources);
  else if (r.page === 'lesson') mountLessonById(root, lessonSources, r.lesson);
  else if (r.page === 'timemachine') mountTimeMachine(root, r.search);
  else mountCompare(root, r.search);
  return true;
}
