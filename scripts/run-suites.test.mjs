// The suite runner (scripts/run-suites.sh) on a stand-in Makefile: one line per suite with its
// wall and CPU seconds, the first failure ends the run unless KEEP_GOING=1, and a group A+B runs
// its suites side by side, B in the idle scheduling class (SCHED_IDLE, nice 19) with its output
// printed when A ends, each suite passing or failing on its own.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const RUNNER = resolve('scripts/run-suites.sh');

const MAKEFILE = `
ok:
\t@echo ok-out
slow:
\t@echo slow-start; sleep 1; echo slow-end
beside:
\t@echo "beside at nice $$(nice), $$(chrt -p $$$$ | sed -n 's/.*policy: //p')"; timeout 1 sh -c 'while :; do :; done' || true
bad:
\t@echo bad-out; exit 3
meet-a meet-b: meet-%:
\t@touch $*.here; for i in $$(seq 100); do [ -f $(if $(filter a,$*),b,a).here ] && echo "$* met the other" && exit 0; sleep 0.1; done; echo "$* ran alone"; exit 1
`;

function runSuites(args, env = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'run-suites-'));
  writeFileSync(join(dir, 'Makefile'), MAKEFILE);
  const r = spawnSync(RUNNER, ['test', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, KEEP_GOING: '', ...env } });
  return { dir, status: r.status, out: r.stdout };
}

/** the "=== test: NAME passed|FAILED" lines, without their times */
const verdicts = (out) => out.split('\n').filter((l) => / (passed|FAILED) \(/.test(l)).map((l) => l.replace(/ \(.*$/, ''));

describe('run-suites.sh', () => {
  it('gives each suite a line with its wall and CPU seconds, and a summary', () => {
    const r = runSuites(['ok', 'slow']);
    expect(r.status).toBe(0);
    expect(r.out).toMatch(/^=== test: slow passed \(\d+ s, \d+ CPU s\)$/m);
    expect(r.out).toMatch(/^suites: 2 passed, 0 failed \(\d+ s, \d+ CPU s\)$/m);
  });

  it('stops at the first failure, naming what it did not run, unless KEEP_GOING=1', () => {
    const r = runSuites(['bad', 'ok']);
    expect(r.status).not.toBe(0);
    expect(verdicts(r.out)).toEqual(['=== test: bad FAILED']);
    expect(r.out).toContain('not run (KEEP_GOING=1 runs them): ok');
    const k = runSuites(['bad', 'ok'], { KEEP_GOING: '1' });
    expect(k.status).not.toBe(0);
    expect(verdicts(k.out)).toEqual(['=== test: bad FAILED', '=== test: ok passed']);
    expect(k.out).toContain('failed suites: bad');
  });

  it('runs a group side by side: the rest in the idle class, each with its own log, line and verdict', () => {
    const r = runSuites(['slow+beside+bad', 'ok'], { KEEP_GOING: '1' });
    expect(r.status).not.toBe(0);
    expect(verdicts(r.out)).toEqual(['=== test: slow passed', '=== test: beside passed', '=== test: bad FAILED', '=== test: ok passed']);
    expect(r.out).toMatch(/^suites: 3 passed, 1 failed/m);
    // the first prints as it runs; the others after it, from their logs
    expect(r.out.indexOf('slow-end')).toBeLessThan(r.out.indexOf('beside at nice'));
    expect(readFileSync(join(r.dir, 'build/suites/beside.log'), 'utf8')).toMatch(/^beside at nice 19, SCHED_IDLE$/m);
    expect(readFileSync(join(r.dir, 'build/suites/bad.log'), 'utf8')).toContain('bad-out');
    // a group that fails ends the run like a suite
    expect(runSuites(['slow+bad', 'ok']).out).toContain('not run (KEEP_GOING=1 runs them): ok');
  });

  it('runs a group A,B as equals: the usual priority, both at once, each printed whole when both end', () => {
    const r = runSuites(['slow,beside,bad', 'ok'], { KEEP_GOING: '1' });
    expect(r.status).not.toBe(0);
    expect(verdicts(r.out)).toEqual(['=== test: slow passed', '=== test: beside passed', '=== test: bad FAILED', '=== test: ok passed']);
    expect(readFileSync(join(r.dir, 'build/suites/beside.log'), 'utf8')).toMatch(/^beside at nice 0, SCHED_OTHER$/m);
    // printed in the group's order, each suite's output together under its name
    const at = (t) => r.out.indexOf(t);
    expect(at('=== test: slow (log:')).toBeLessThan(at('slow-start'));
    expect(at('slow-end')).toBeLessThan(at('=== test: beside (log:'));
    expect(at('=== test: beside (log:')).toBeLessThan(at('beside at nice 0'));
    // at once: each of these waits (up to 10 s) for the other to start, and fails alone
    const m = runSuites(['meet-a,meet-b']);
    expect(m.status).toBe(0);
    expect(m.out).toContain('a met the other');
    expect(m.out).toContain('b met the other');
    expect(runSuites(['slow,bad', 'ok']).out).toContain('not run (KEEP_GOING=1 runs them): ok');
  });
});
