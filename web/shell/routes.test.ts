import { describe, expect, it } from 'vitest';
import { routeFrom } from './routes';

describe('routes', () => {
  it('the front page is the course; the workbench has its own route', () => {
    expect(routeFrom('')).toEqual({ page: 'home' });
    expect(routeFrom('?workbench')).toEqual({ page: 'workbench' });
    expect(routeFrom('?workbench=import')).toEqual({ page: 'workbench', focus: 'import' });
    expect(routeFrom('?workbench', '#pages=4096&cpus=4&preset=v5.18&workload=page_fault1&seed=1&step=12')).toEqual({ page: 'workbench' });
  });

  it('keeps the old deep links working', () => {
    // a workbench link from before ?workbench: only the hash
    expect(routeFrom('', '#pages=4096&cpus=4&preset=v5.18&workload=page_fault1&seed=1&step=12')).toEqual({ page: 'workbench' });
    expect(routeFrom('?lessons')).toEqual({ page: 'lessons' });
    expect(routeFrom('?compare=v4.16,v4.17&cpus=56')).toEqual({ page: 'compare', search: '?compare=v4.16,v4.17&cpus=56' });
    expect(routeFrom('?lesson=buddy&step=3&lecture=1')).toMatchObject({ page: 'lesson', lesson: { id: 'buddy', step: 2, lecture: true } });
    // the handout: only `handout=1` asks for it, and a plain lesson link carries no handout key
    expect(routeFrom('?lesson=buddy&handout=1')).toMatchObject({ page: 'lesson', lesson: { id: 'buddy', handout: true } });
    expect(routeFrom('?lesson=buddy&handout=yes')).not.toHaveProperty('lesson.handout');
    expect(routeFrom('?lesson=buddy')).not.toHaveProperty('lesson.handout');
    expect(routeFrom('', '#')).toEqual({ page: 'home' });
  });

  it('embed=1 is the whole step; any other embed value is one figure, checked by its own page', () => {
    expect(routeFrom('?lesson=buddy&step=1&embed=1')).toMatchObject({ page: 'lesson', lesson: { id: 'buddy', embed: true } });
    expect(routeFrom('?embed=pcp&lesson=autotune&step=2')).toEqual({ page: 'embed', search: '?embed=pcp&lesson=autotune&step=2' });
    // a bad figure or a stray parameter is the figure page's to refuse, not another page's to open
    expect(routeFrom('?embed=nope&compare=v4.16')).toMatchObject({ page: 'embed' });
  });
});
