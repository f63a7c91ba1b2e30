// axe-core as every spec runs it: the whole rule set, and only the violations collected. The
// specs read nothing else, and axe otherwise gathers every passing node of every rule as well
// and sends it over to the test (the compare page's analysis took 1.7 s that way, 1.3 s this).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** An AxeBuilder for the page that reports violations only; chain rules or scopes onto it. */
export function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
}
