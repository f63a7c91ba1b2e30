import { defineConfig } from '@playwright/test';

// Playwright drives Debian's Chromium (never a downloaded browser). Each launch gets a fresh
// temporary --user-data-dir from Playwright itself. The server is started and stopped by
// web/e2e/run.mjs (make test-e2e), which passes its URL in BUDDYLAB_URL.
const baseURL = process.env['BUDDYLAB_URL'] ?? 'http://127.0.0.1:4173';

// Two projects. `parallel` runs its spec files on two workers (two Chromiums: most of a spec's
// time is the page waiting on the core's worker, the network or a timer, so one worker left
// half the 2-core machine idle). `timed` holds the tests tagged @timed, whose verdict rests on
// wall-clock time in the page (a heartbeat gap, a transition that must have moved and settled
// by a deadline, frames played in a window): one worker, and run.mjs runs it alone, before the
// other project, so no second browser takes the CPU their page must have.
const TIMED = /@timed/;

export default defineConfig({
  testDir: 'web/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 2, // a shared 2-core machine; `timed` takes one
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  // the baselines' names without the project's (steps.spec.ts-snapshots/NAME-linux.png)
  snapshotPathTemplate: '{testDir}/{testFileDir}/{testFileName}-snapshots/{arg}{-snapshotSuffix}{ext}',
  projects: [
    { name: 'timed', grep: TIMED, workers: 1 },
    { name: 'parallel', grepInvert: TIMED },
  ],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1600, height: 1000 },
    // the app follows prefers-color-scheme (web/ui/theme.ts): the specs see the dark theme, as
    // before it had a light one, unless they ask for light (theme.spec.ts)
    colorScheme: 'dark',
    // The service worker (public/sw.js) caches the whole build when a page first registers it,
    // about 0.5 CPU s in every fresh browser context, that is in every test, and then answers
    // each request: the tests block it (vite preview sends the isolation headers itself), and
    // publish.spec.ts, whose tests are about it, allows it (test.use).
    serviceWorkers: 'block',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env['CHROMIUM'] ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
