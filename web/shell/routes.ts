// Which page the query string asks for. The player app owns the hash (#pages=...&step=...);
// the course pages own the query: ?lessons, ?lesson=ID&step=N[&lecture=1][&embed=1][&views=a,b],
// ?compare=..., ?timemachine. No query: the player app.
import { LESSON_VIEW_IDS, type LessonViewId } from '../lessons/lesson';
import type { LessonRoute } from '../lessons/page';

export type Route =
  | { page: 'app' }
  | { page: 'lessons' }
  | { page: 'lesson'; lesson: LessonRoute }
  | { page: 'compare'; search: string }
  | { page: 'timemachine'; search: string };

export function routeFrom(search: string): Route {
  const q = new URLSearchParams(search);
  if (q.has('compare')) return { page: 'compare', search };
  if (q.has('timemachine')) return { page: 'timemachine', search };
  if (q.has('lessons')) return { page: 'lessons' };
  const id = q.get('lesson');
  if (id !== null) {
    const step = Number(q.get('step') ?? '1');
    const views = (q.get('views') ?? '')
      .split(',')
      .filter((v): v is LessonViewId => (LESSON_VIEW_IDS as readonly string[]).includes(v))
      .slice(0, 2);
    return {
      page: 'lesson',
      lesson: {
        id: id.slice(0, 32),
        // steps are 1-based in the URL, as a lecturer would say them
        step: Number.isInteger(step) && step >= 1 && step <= 1000 ? step - 1 : 0,
        lecture: q.get('lecture') === '1',
        embed: q.get('embed') === '1',
        ...(views.length ? { views } : {}),
      },
    };
  }
  return { page: 'app' };
}
