// The C generator and the app agree: a result problem's rows are the compare view's diff-table
// rows by the very names that table gives them (web/compare/diff.ts), its link is a compare
// state the compare page accepts, and the browser's WebAssembly core prints the same bytes as
// the native CLI for the same `blab exercise` arguments.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { exerciseRun, type BlabFactory, type BlabModule } from '../engine/blab-module';
import { measures } from '../compare/diff';
import { parseCompare } from '../compare/compare-url';
import { parseProblem } from './problem';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const blab = join(root, 'build', 'native', 'blab');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const native = (...args: string[]) => execFileSync(blab, ['exercise', ...args], { encoding: 'utf8', stdio: 'pipe' });

let m: BlabModule;
beforeAll(async () => {
  for (const f of [blab, modulePath]) if (!existsSync(f)) throw new Error(`${f} is missing: run "make native wasm" first`);
  m = await (createRequire(import.meta.url)(modulePath) as BlabFactory)({ noInitialRun: true });
});

describe('exercises between the C core and the app', () => {
  it("names the diff table's rows as the compare view does, and links to a compare it accepts", () => {
    const sheet = JSON.parse(native('--sheet', '--kind', 'result', '--level', '2', '--count', '24', '--seed', '4', '--json')) as { problems: unknown[] };
    const seen = new Set<string>();
    for (const raw of sheet.problems) {
      const p = parseProblem(JSON.stringify(raw));
      const state = parseCompare(p.compare!.slice(1));
      const rows = new Set(measures(state.workload).map((r) => r.name));
      const explain = p.questions[1]!;
      expect(explain.form).toBe('choice');
      for (const c of explain.choices!) expect(rows.has(c), `${c} is a row of the ${state.workload} diff table`).toBe(true);
      expect(explain.choices!.length).toBeGreaterThanOrEqual(3);
      seen.add(state.workload);
    }
    expect([...seen].sort()).toEqual(['hackbench', 'page_fault1']);
  }, 120_000);

  it('prints the same bytes natively and as WebAssembly, checks included', () => {
    const cases = [
      ['buddy', '--seed', '9', '--level', '3', '--json', '-c'],
      ['pcp', '--seed', '9', '--level', '2', '--check', '1=3', '--check', '2=x'],
      ['watermarks', '--seed', '9', '--level', '3', '-c'],
      ['slab', '--seed', '9', '--level', '1', '--student', 'Ada Lovelace', '--json'],
      ['--student-seed', 'Ada Lovelace', '--seed', '7'],
      ['buddy', '--level', '7'],
    ];
    for (const args of cases) {
      const w = exerciseRun(m, args);
      let out = '';
      let status = 0;
      try {
        out = native(...args);
      } catch (e) {
        status = (e as { status: number }).status;
      }
      expect(w.status, args.join(' ')).toBe(status);
      if (status === 0) expect(w.stdout, args.join(' ')).toBe(out);
      else expect(w.stderr).toMatch(/^blab exercise: --level wants 1, 2 or 3/);
    }
  });

  it('refuses arguments the core could not take, before calling it', () => {
    expect(exerciseRun(m, Array.from({ length: 65 }, () => 'x')).stderr).toMatch(/at most 64 arguments/);
    expect(exerciseRun(m, ['a\0b']).status).toBe(2);
  });
});
