// The fidelity scripts' runs of the model machine: `blab sim --json` jobs, several at once
// (one per CPU of this computer, os.availableParallelism()), each result kept on disk under
// build/fidelity-cache/ keyed by the blab binary's SHA-256 and the job's arguments. A rebuilt
// core has another hash, so its numbers are never mixed with an older core's; rerunning a
// report after a change of its text costs nothing.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

/**
 * A runner for one blab binary. `jobs` (default: the CPUs of this computer) bounds how many
 * blab processes run at once; `log` gets one line per finished run.
 */
export function makeRunner({ blab = 'build/native/blab', cacheDir = 'build/fidelity-cache', jobs, log = () => {} } = {}) {
  if (!existsSync(blab)) throw new Error(`${blab}: not found (make native builds it)`);
  const binHash = createHash('sha256').update(readFileSync(blab)).digest('hex').slice(0, 16);
  const dir = `${cacheDir}/${binHash}`;
  mkdirSync(dir, { recursive: true });
  const limit = Math.max(1, jobs ?? availableParallelism());
  const started = Date.now();
  let running = 0;
  let fresh = 0;
  let cached = 0;
  let runSeconds = 0; // every run's own wall time, cached ones as they were measured
  const seconds = new Map(); // JSON.stringify(args) -> that run's wall time
  const inFlight = new Map(); // cache key -> the promise of a run not yet on disk
  const waiting = [];

  async function slot(fn) {
    if (running >= limit) await new Promise((resolve) => waiting.push(resolve));
    running++;
    try {
      return await fn();
    } finally {
      running--;
      waiting.shift()?.();
    }
  }

  /** `blab sim ARGS --json`, parsed; from the cache when this binary ran these ARGS before,
   *  or the run already under way when another caller asked for the same ARGS. */
  function sim(args) {
    const key = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 24);
    if (!inFlight.has(key)) inFlight.set(key, simOnce(args, key));
    return inFlight.get(key);
  }

  async function simOnce(args, key) {
    const file = `${dir}/${key}.json`;
    const note = (s) => {
      if (!seconds.has(JSON.stringify(args))) runSeconds += s;
      seconds.set(JSON.stringify(args), s);
    };
    if (existsSync(file)) {
      cached++;
      note(existsSync(`${file}.seconds`) ? Number(readFileSync(`${file}.seconds`, 'utf8')) : 0);
      return JSON.parse(readFileSync(file, 'utf8'));
    }
    return slot(async () => {
      const t0 = Date.now();
      const { stdout } = await execFileP(blab, ['sim', ...args, '--json'], { maxBuffer: 1 << 26 });
      const doc = JSON.parse(stdout);
      const took = (Date.now() - t0) / 1000;
      writeFileSync(`${file}.tmp`, stdout);
      renameSync(`${file}.tmp`, file);
      writeFileSync(`${file}.seconds`, String(took));
      note(took);
      fresh++;
      log(`blab sim ${args.join(' ')}: ${((Date.now() - t0) / 1000).toFixed(1)} s ` +
        `(${Math.round((Date.now() - started) / 1000)} s in)`);
      return doc;
    });
  }

  return {
    sim,
    binHash,
    jobs: limit,
    /** seconds the run of these args took (when it was made), or undefined */
    secondsOf: (args) => seconds.get(JSON.stringify(args)),
    stats: () => ({ fresh, cached, runSeconds, seconds: Math.round((Date.now() - started) / 1000) }),
  };
}
