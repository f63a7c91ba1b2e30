// A deliberately broken lesson must fail `vite build` with file:line and the reason: the real
// Vite build API with the real lessons plugin, on a small page that imports virtual:lessons.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { lessonsPlugin } from './vite-plugin';

const repo = join(import.meta.dirname, '..', '..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(lessons: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'blab-lessons-'));
  dirs.push(root);
  mkdirSync(join(root, 'lessons'));
  for (const [f, text] of Object.entries(lessons)) writeFileSync(join(root, 'lessons', f), text);
  writeFileSync(join(root, 'index.html'), '<!doctype html><script type="module" src="./main.js"></script>');
  writeFileSync(join(root, 'main.js'), "import l from 'virtual:lessons'; console.log(l.length);");
  return root;
}

const run = (root: string) =>
  build({ root, configFile: false, logLevel: 'silent', plugins: [lessonsPlugin()], build: { write: false, outDir: join(root, 'dist') } });

const good = readFileSync(join(repo, 'lessons', '01-buddy.md'), 'utf8');

describe('lessons in the build', () => {
  it('builds with good lessons', async () => {
    await expect(run(project({ '01-buddy.md': good }))).resolves.toBeDefined();
  }, 60_000);

  it('fails the build on a broken lesson, naming file, line and reason', async () => {
    // break one view name on a known line
    const lines = good.split('\n');
    const at = lines.findIndex((l) => l.startsWith('views: [free-areas, buddy-tree, buddyinfo]'));
    lines[at] = 'views: [free-areas, no-such-view]';
    const root = project({ '01-buddy.md': good.replace(/id: buddy/, 'id: buddy2').replace('number: 1', 'number: 2'), '02-broken.md': lines.join('\n') });
    await expect(run(root)).rejects.toThrow(new RegExp(`lessons/02-broken\\.md:${at + 1}: step\\.views: "no-such-view" is not one of`));
  }, 60_000);

  it('fails the build when two lessons share an id', async () => {
    await expect(run(project({ 'a.md': good, 'b.md': good.replace('number: 1', 'number: 3') }))).rejects.toThrow(/lessons\/b\.md:1: lesson id "buddy" is used by lessons\/a\.md too/);
  }, 60_000);
});
