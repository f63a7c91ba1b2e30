// Test fixtures only: a long, real-shaped kernel trace made from a committed short one
// (wasm-core/tests/traces/*.txt) by repetition, each copy's timestamps shifted by `shiftSec`
// seconds more than the last, so time keeps increasing as in a real recording. `#` header
// lines are kept once, at the top.

/** The `SECONDS.FRACTION:` timestamp after the `[CPU]` column (perf script and tracefs). */
const STAMP = /^(.*?\[\d+\]\s+(?:\S+\s+)?)(\d+)\.(\d+):/;

export function repeatTrace(text: string, minLines: number, shiftSec = 10): { text: string; lines: number; copies: number } {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  const header = all.filter((l) => l.startsWith('#'));
  const body = all.filter((l) => !l.startsWith('#'));
  if (body.length === 0) throw new Error('repeatTrace: the trace has no event lines');
  const copies = Math.ceil(Math.max(0, minLines - header.length) / body.length);
  const out: string[] = [...header];
  for (let c = 0; c < copies; c++) {
    const shift = c * shiftSec;
    for (const line of body) {
      const m = STAMP.exec(line);
      if (!m) {
        out.push(line);
        continue;
      }
      const sec = Number(m[2]) + shift;
      out.push(`${m[1]}${sec}.${m[3]}:${line.slice(m[0].length)}`);
    }
  }
  return { text: `${out.join('\n')}\n`, lines: out.length, copies };
}
