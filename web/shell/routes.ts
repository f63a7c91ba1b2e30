// Which page the address asks for. The front page (no query string) is the course; the
// workbench has its own route, ?workbench (?workbench=import opens it at the trace and
// snapshot import, ?workbench=zoneinfo at "Your own kernel: zoneinfo"), and owns the hash
// (#pages=...&step=...): an old deep link that is only a hash still opens the workbench. The
// course pages own the query: ?lessons, ?lesson=ID&step=N[&lecture=1][&embed=1][&views=a,b],
// ?lesson=ID&handout=1 (the lesson to print), ?compare=..., ?timemachine, ?fidelity (how
// close the model is to the seeds), ?exercise=KIND (one problem) and ?exercises (a class's
// sheets). ?embed=VIEW&lesson=ID&step=N is one figure of a lesson in another page's frame
// (web/lessons/embed-url.ts reads and checks it).
import { LECTURE_FIGURE_IDS, type LectureFigureId } from '../lessons/lesson';
import type { LessonRoute } from '../lessons/lessons-page';

export type Route =
  | { page: 'home' }
  | { page: 'workbench'; focus?: 'import' | 'zoneinfo' }
  | { page: 'lessons' }
  | { page: 'lesson'; lesson: LessonRoute }
  | { page: 'compare'; search: string }
  | { page: 'timemachine'; search: string }
  | { page: 'fidelity' }
  | { page: 'exercise'; search: string }
  | { page: 'exercises'; search: string }
  | { page: 'embed'; search: string };

export function routeFrom(search: string, hash = ''): Route {
  const q = new URLSearchParams(search);
  // embed=1 is the whole lesson step without the header; any other value names one figure, and
  // the figure's page refuses whatever else the address says
  if (q.has('embed') && q.get('embed') !== '1') return { page: 'embed', search };
  if (q.has('compare')) return { page: 'compare', search };
  if (q.has('timemachine')) return { page: 'timemachine', search };
  if (q.has('fidelity')) return { page: 'fidelity' };
  if (q.has('exercise')) return { page: 'exercise', search };
  if (q.has('exercises')) return { page: 'exercises', search };
  if (q.has('lessons')) return { page: 'lessons' };
  if (q.has('workbench')) {
    const focus = q.get('workbench');
    return focus === 'import' || focus === 'zoneinfo' ? { page: 'workbench', focus } : { page: 'workbench' };
  }
  const id = q.get('lesson');
  if (id !== null) {
    const step = Number(q.get('step') ?? '1');
    const views = (q.get('views') ?? '')
      .split(',')
      .filter((v): v is LectureFigureId => (LECTURE_FIGURE_IDS as readonly string[]).includes(v))
      .slice(0, 2);
    return {
      page: 'lesson',
      lesson: {
        id: id.slice(0, 32),
        // steps are 1-based in the URL, as a lecturer would say them
        step: Number.isInteger(step) && step >= 1 && step <= 1000 ? step - 1 : 0,
        lecture: q.get('lecture') === '1',
        embed: q.get('embed') === '1',
        ...(q.get('handout') === '1' ? { handout: true } : {}),
        ...(views.length ? { views } : {}),
      },
    };
  }
  // a link from before the workbench had its own route: #pages=..&step=.. and no query
  if (hash.length > 1) return { page: 'workbench' };
  return { page: 'home' };
}

/** The workbench's address: the query that picks it, keeping any hash state. */
export const WORKBENCH_HREF = '?workbench';
