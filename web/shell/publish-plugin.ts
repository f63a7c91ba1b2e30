// Build step for publishing the course on any static host: stamps the build's version into the
// page (<meta name="buddylab-version">), and after the build writes, next to index.html,
//   build.json        the version, the commit and date it was built from, and each lesson with
//                     a hash of its text: what a lecturer pins a course to (docs/lessons.md)
//   sw-manifest.json  every file of the build, which the service worker (public/sw.js) caches
//                     so the course works offline after one visit
// The version is BUDDYLAB_VERSION if set, else package.json's version and the commit. The
// offline copy is keyed by the version and a hash of the files' contents
// (<meta name="buddylab-content">), so a rebuild from the same commit with other files (a
// working tree with changes) is still a new offline copy, never a stale one.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Plugin } from 'vite';
import { readLessons } from '../lessons/vite-plugin.ts';

/** the content hash's place in the page until the files are written */
const CONTENT_PENDING = 'pending';

/** Files the offline copy leaves out: source maps (large, for developers), and the worker itself. */
const NOT_CACHED = /(\.map|^sw\.js|^sw-manifest\.json)$/;

function commit(root: string): string {
  try {
    const c = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return dirty ? `${c}-modified` : c;
  } catch {
    return 'no-git';
  }
}

function files(dir: string, top = dir): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p, top) : [relative(top, p).split(sep).join('/')];
  });
}

/** A version is used in file and cache names and in links: letters, digits, . _ - only. */
export function cleanVersion(v: string): string {
  const c = v.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 64);
  if (!c) throw new Error(`BUDDYLAB_VERSION "${v}" has no letters or digits`);
  return c;
}

export function publishPlugin(): Plugin {
  let root = process.cwd();
  let outDir = 'dist';
  let version = 'dev';
  let sha = '';
  return {
    name: 'buddylab-publish',
    configResolved(c) {
      root = c.root;
      outDir = join(c.root, c.build.outDir);
      if (c.command === 'build') {
        const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
        sha = commit(root);
        version = cleanVersion(process.env['BUDDYLAB_VERSION'] ?? `${pkg.version}-${sha}`);
      }
    },
    transformIndexHtml() {
      return [
        { tag: 'meta', attrs: { name: 'buddylab-version', content: version }, injectTo: 'head-prepend' },
        { tag: 'meta', attrs: { name: 'buddylab-content', content: CONTENT_PENDING }, injectTo: 'head-prepend' },
      ];
    },
    closeBundle() {
      if (version === 'dev') return;
      const lessons = readLessons(root).map(({ src, lesson: l }) => ({
        id: l.id,
        number: l.number,
        title: l.title,
        sha256: createHash('sha256').update(src.text).digest('hex'),
      }));
      // the files' contents (the page itself aside: it will carry the hash)
      const all = files(outDir).sort();
      const h = createHash('sha256');
      for (const f of all) if (!NOT_CACHED.test(f) && f !== 'index.html' && f !== 'build.json') h.update(f).update(readFileSync(join(outDir, f)));
      const content = h.digest('hex').slice(0, 12);
      const page = join(outDir, 'index.html');
      writeFileSync(page, readFileSync(page, 'utf8').replace(`content="${CONTENT_PENDING}"`, `content="${content}"`));
      const build = { version, commit: sha, content, built: new Date().toISOString(), lessons };
      writeFileSync(join(outDir, 'build.json'), `${JSON.stringify(build, null, 2)}\n`);
      const cached = [...all, 'build.json'].filter((f, i, a) => !NOT_CACHED.test(f) && a.indexOf(f) === i).sort();
      writeFileSync(join(outDir, 'sw-manifest.json'), `${JSON.stringify({ version, content, cache: `${version}.${content}`, files: cached }, null, 2)}\n`);
    },
  };
}
