// Mounts the pages that are not the workbench: the front page (the course), the lesson index,
// a lesson (and lecture mode), and compare. Each page's code is its own chunk, fetched when that
// page is opened, so the front page's first load carries neither the lesson parser (YAML,
// marked, DOMPurify) nor the compare view.
import type { Route } from './routes';

export async function mountCourse(root: HTMLElement, r: Exclude<Route, { page: 'workbench' }>, search: string): Promise<void> {
  root.classList.add('course');
  if (new URLSearchParams(search).get('embed') === '1') document.documentElement.classList.add('embed');
  if (r.page === 'home') (await import('./home')).mountHome(root);
  else if (r.page === 'embed') {
    const [{ default: lessonSources }, page] = await Promise.all([import('virtual:lessons'), import('../lessons/embed-page')]);
    page.mountEmbed(root, lessonSources, r.search);
  } else if (r.page === 'lessons' || r.page === 'lesson') {
    const [{ default: lessonSources }, page] = await Promise.all([import('virtual:lessons'), import('../lessons/lessons-page')]);
    if (r.page === 'lessons') page.mountLessonIndex(root, lessonSources);
    else await page.mountLessonById(root, lessonSources, r.lesson);
  } else if (r.page === 'timemachine') (await import('../compare/timemachine-page')).mountTimeMachine(root, r.search);
  else if (r.page === 'exercise') (await import('../exercise/page')).mountExercise(root, r.search);
  else if (r.page === 'exercises') (await import('../exercise/instructor')).mountExercises(root, r.search);
  else if (r.page === 'fidelity') (await import('../compare/fidelity-page')).mountFidelity(root, search);
  else (await import('../compare/compare-page')).mountCompare(root, r.search);
}
