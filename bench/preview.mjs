// The browser benchmarks' `vite preview` of dist/ (scripts/vite-preview.mjs, as the e2e
// runner's) and headless Debian Chromium (never a downloaded browser), with the project's
// flags, so that every benchmark measures the same browser.
import { chromium } from '@playwright/test';

export { startPreview } from '../scripts/vite-preview.mjs';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
