// A zoneinfo read in the browser is read by the C core (the Node WASM build here): the same
// report as `blab zoneinfo --json`, byte for byte, on every committed fixture; the sizes of this
// machine's zones; and the core's refusals with their line numbers.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZoneinfoError, readZoneinfo, zonesWithPcp, type ZoneinfoModule } from './zoneinfo-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const modulePath = join(root, 'build', 'wasm', 'node', 'blab.js');
const fixtures = join(root, 'wasm-core', 'tests', 'zoneinfo');

let m: ZoneinfoModule;
beforeAll(async () => {
  if (!existsSync(modulePath)) throw new Error(`${modulePath} is missing: run "make wasm" first`);
  const factory = createRequire(import.meta.url)(modulePath) as (o: Record<string, unknown>) => Promise<ZoneinfoModule>;
  m = await factory({ noInitialRun: true });
});

describe('zoneinfo in the WASM core', () => {
  it('gives what blab zoneinfo --json prints, for every fixture and two CPU counts', () => {
    const files = readdirSync(fixtures).filter((f) => f.endsWith('.txt'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    for (const f of files) {
      for (const cpus of [0, 4]) {
        const args = ['zoneinfo', join(fixtures, f), '--json', ...(cpus ? ['--cpus', String(cpus)] : [])];
        const cli = JSON.parse(execFileSync(join(root, 'build', 'native', 'blab'), args, { encoding: 'utf8' }));
        expect(readZoneinfo(m, readFileSync(join(fixtures, f), 'utf8'), cpus)).toEqual(cli);
      }
    }
  });

  it("computes this machine's 6.7 sizes from managed pages, the low watermark and 2 CPUs", () => {
    const r = readZoneinfo(m, readFileSync(join(fixtures, 'this-machine-6.18.txt'), 'utf8'));
    expect(r.format).toBe('6.7+');
    expect(r.cpus).toBe(2);
    const byName = new Map(zonesWithPcp(r).map((z) => [z.zone, z]));
    expect([...byName.keys()]).toEqual(['DMA', 'DMA32', 'Normal']);
    for (const [zone, batch, hmin, hmax] of [
      ['DMA', 1, 10, 240],
      ['DMA32', 63, 2152, 48307],
      ['Normal', 63, 8396, 188416],
    ] as const) {
      const z = byName.get(zone)!;
      expect(z.presets['v6.19']).toEqual({ batch, high: hmin, high_min: hmin, high_max: hmax, differs: [] });
      expect(z.kernel).toMatchObject({ batch, high_min: hmin, high_max: hmax });
      expect(z.matches).toContain('v6.7');
    }
    // the web fixture is an earlier snapshot of the same VM
    const web = readZoneinfo(m, readFileSync(join(root, 'web', 'testing', 'procfs', 'zoneinfo.txt'), 'utf8'));
    expect(zonesWithPcp(web).find((z) => z.zone === 'Normal')!.presets['v6.7']).toMatchObject({ high_min: 6145, high_max: 67584 });
  });

  it('refuses a damaged file with the line and the reason', () => {
    const text = readFileSync(join(fixtures, 'this-machine-6.18.txt'), 'utf8');
    const cut = text.split('\n').slice(0, 131).join('\n'); // inside DMA32's cpu 0 pageset
    expect(() => readZoneinfo(m, cut)).toThrow(ZoneinfoError);
    expect(() => readZoneinfo(m, cut)).toThrow(/^line 129: the pageset of cpu 0 ends without its batch \(a truncated file\?\)/);
    expect(() => readZoneinfo(m, 'Node 0, zone DMA 1 2 3\n')).toThrow(/^line 1: expected "Node N, zone NAME"/);
    expect(() => readZoneinfo(m, '')).toThrow(/the file is empty/);
    expect(() => readZoneinfo(m, 'x'.repeat(5 << 20))).toThrow(/a zoneinfo is at most/);
  });
});
