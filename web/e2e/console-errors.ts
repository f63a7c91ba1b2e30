// The browser specs' shared check that a page stayed quiet: every console error and
// uncaught exception, collected from the moment of the call, for the spec to expect empty.
import type { Page } from './fixtures';

export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}
