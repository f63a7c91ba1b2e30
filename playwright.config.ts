import { defineConfig } from '@playwright/test';

// Playwright drives Debian's Chromium (never a downloaded browser). Each launch gets a fresh
// temporary --user-data-dir from Playwright itself. The server is started and stopped by
// web/e2e/run.mjs (make test-e2e), which passes its URL in BUDDYLAB_URL.
const baseURL = process.env['BUDDYLAB_URL'] ?? 'http://127.0.0.1:4173';

export default defineConfig({
  testDir: 'web/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1, // a shared 2-core machine
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1600, height: 1000 },
    // the app follows prefers-color-scheme (web/ui/theme.ts): the specs see the dark theme, as
    // before it had a light one, unless they ask for light (theme.spec.ts)
    colorScheme: 'dark',
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
