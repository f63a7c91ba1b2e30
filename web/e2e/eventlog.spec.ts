// Loading large event logs: a 1.9-million-record log, binary and as JSON, is read and decoded in
// the import worker and replayed in slices, so the page keeps answering (a heartbeat every
// 20 ms, no long task) while the bar moves to the end; a broken JSON log says its line and
// record; Cancel leaves the player as it was.
import { expect, test } from './fixtures';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { decodeEvents } from '../log/events';
import { eventLogToJson } from '../log/eventlog-json';
import { watchConsole } from './console-errors';
import { MAX_GAP_MS, startProbe, stopProbe } from './responsiveness';

const BIN = 'test-results/big-log.bin';
const JSON_LOG = 'test-results/big-log.json';

let records = 0;

test.beforeAll(() => {
  mkdirSync('test-results', { recursive: true });
  // a real run's log, written by the native core (make test-e2e builds it first)
  execFileSync('build/native/blab', ['sim', '--workload', 'page_fault1', '--cpus', '8', '--preset', 'v4.16', '--pages', '2048', '--iterations', '4', '--seed', '1', '--events', BIN], { stdio: 'ignore' });
  const log = decodeEvents(readFileSync(BIN));
  records = log.length;
  writeFileSync(JSON_LOG, eventLogToJson(log, 'page_fault1, 8 CPUs, v4.16'));
});

for (const [what, input, file, label] of [
  ['binary', '#log-file', BIN, 'big-log.bin'],
  ['JSON', '#jsonlog-file', JSON_LOG, 'page_fault1, 8 CPUs, v4.16'],
] as const) {
  // @timed (run alone, playwright.config.ts): the heartbeat may not stall past MAX_GAP_MS
  test(`a ${what} log of 1.9 million records loads with a progress bar while the page keeps answering`, { tag: '@timed' }, async ({ page }) => {
    test.setTimeout(300_000);
    const errors = watchConsole(page);
    await page.goto('/?workbench');
    const section = page.locator(input).locator('xpath=..');
    await startProbe(page, `${input} ~ .log-loader progress`);
    await page.locator(input).setInputFiles(file);
    await expect(page.locator('.loglabel')).toContainText(`${records.toLocaleString('en')} events`, { timeout: 240_000 });
    await expect(page.locator('.loglabel')).toContainText(label);
    const probe = await stopProbe(page);
    // structure, not speed: the bar moved in many steps, in order, to the end; the page beat
    // all along, and no task held it for long
    const steps = probe.progress.filter((v) => v > 0);
    expect(steps.length).toBeGreaterThanOrEqual(10);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)).toBe(1);
    console.log(`${what}: ${records} records, ${steps.length} progress updates, max gap ${Math.max(...probe.gaps).toFixed(0)} ms, long tasks ${probe.longTasks.map((d) => d.toFixed(0)).join(' ')}`);
    expect(Math.max(...probe.gaps)).toBeLessThan(MAX_GAP_MS);
    expect(Math.max(0, ...probe.longTasks)).toBeLessThan(MAX_GAP_MS);
    await expect(section.locator('.log-loader progress')).toBeHidden();
    expect(errors).toEqual([]);
  });
}

// @timed as well: it reads the log files the other two do, so the three run in one worker
test('a broken JSON log says its line and record; Cancel leaves the player as it was', { tag: '@timed' }, async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchConsole(page);
  await page.goto('/?workbench');
  const status = page.locator('#jsonlog-file ~ .log-loader .run-msg');
  const head = '{"format":"buddylab-event-log","version":1,"fields":["time","pfn","type","order","cpu","mt","path","flags","arg0","arg1"],"records":[\n';
  await page.locator('#jsonlog-file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(`${head}[0,0,1,4,65535,0,0,4,16,1],\n[1,2,3,0,0,0,0,0,-4,0]\n]}`) });
  await expect(status).toHaveText('bad.json: line 3, record 1: arg0 must be a whole number 0..4294967295');
  await page.locator('#jsonlog-file').setInputFiles({ name: 'bin.json', mimeType: 'application/json', buffer: readFileSync(BIN).subarray(0, 4096) });
  await expect(status).toContainText('bin.json: ');

  // a run in the player, then a big log cancelled half way: the run is still there
  await page.getByRole('button', { name: 'Run scenario' }).click();
  await expect(page.locator('.loglabel')).toContainText('events', { timeout: 120_000 });
  const before = await page.locator('.loglabel').textContent();
  await page.locator('#log-file').setInputFiles(BIN);
  const bar = page.locator('#log-file ~ .log-loader progress');
  await expect.poll(() => bar.evaluate((b: HTMLProgressElement) => b.value), { timeout: 60_000 }).toBeGreaterThan(0);
  await page.locator('#log-file ~ .log-loader').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('#log-file ~ .log-loader .run-msg')).toHaveText('Loading big-log.bin was cancelled; nothing was changed.');
  await expect(page.locator('.loglabel')).toHaveText(before!);
  expect(errors).toEqual([]);
});
