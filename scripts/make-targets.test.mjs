// Every `make TARGET` the docs tell a reader to type has a rule all the way down: `make -n`
// (nothing is run) fails on a prerequisite no rule makes, as `make soak` once did on a stamp
// file nothing wrote.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', 'web/README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
// the targets `make help` prints, and those the docs name in backticks or code blocks
const help = execFileSync('make', ['--no-print-directory', 'help'], { encoding: 'utf8' });
const named = new Set([...help.matchAll(/^make ([\w-]+)/gm)].map((m) => m[1]));
for (const f of DOCS) {
  for (const m of readFileSync(f, 'utf8').matchAll(/(?:`|^)make ([a-z][a-z0-9./_-]*(?: [a-z][a-z0-9./_-]*)*)/gm)) {
    for (const t of m[1].split(' ')) named.add(t);
  }
}

describe('make targets', () => {
  it('the docs name the targets a reader types', () => {
    for (const t of ['start', 'test', 'check', 'bench', 'soak', 'fidelity', 'fuzz']) expect(named).toContain(t);
  });

  it('every one has a rule for every prerequisite (make -n -k, all at once)', () => {
    const r = spawnSync('make', ['-n', '-k', '--no-print-directory', ...[...named].sort()], { encoding: 'utf8', maxBuffer: 1 << 26 });
    expect(r.stderr.split('\n').filter((l) => /No rule to make target/.test(l))).toEqual([]);
    expect(r.status).toBe(0);
  }, 30_000);
});
