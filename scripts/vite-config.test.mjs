// `vite build` (so `make start`) prints no warning a newcomer cannot act on. Loading the config
// is where one came from: Vite checks that the config and the modules it imports would load
// natively in Node (configLoader 'native', its planned default) and lists every import without
// a file extension. The modules the build runs in Node import with the extension.
import { createLogger, loadConfigFromFile } from 'vite';
import { describe, expect, it } from 'vitest';

describe('vite.config.ts', () => {
  it('loads without a warning', async () => {
    const warnings = [];
    const logger = createLogger('warn');
    logger.warn = (msg) => warnings.push(msg);
    logger.warnOnce = (msg) => warnings.push(msg);
    const loaded = await loadConfigFromFile({ command: 'build', mode: 'production' }, 'vite.config.ts', process.cwd(), 'warn', logger);
    expect(loaded?.config.plugins?.length).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  }, 60_000);
});
