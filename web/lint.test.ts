import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

describe('lint rule: no HTML strings into the DOM', () => {
  it('flags innerHTML, outerHTML, insertAdjacentHTML, selection.html() and document.write', async () => {
    const eslint = new ESLint();
    const code = [
      'export function bad(el: HTMLElement, s: string, sel: { html(x: string): void }) {',
      '  el.innerHTML = s;',
      '  el.outerHTML = s;',
      "  el.insertAdjacentHTML('beforeend', s);",
      '  sel.html(s);',
      '  document.write(s);',
      '}',
    ].join('\n');
    const [res] = await eslint.lintText(code, { filePath: 'web/canary.ts' });
    const lines = res!.messages.filter((m) => /restricted/.test(m.ruleId ?? '')).map((m) => m.line);
    expect(lines).toEqual([2, 3, 4, 5, 6]);
  }, 30_000);
});

/** A function of exactly `lines` lines, blank lines and comments among them, and a nested one. */
function fn(name: string, lines: number): string {
  const body = Array.from({ length: lines - 5 }, (_, i) => (i % 3 === 0 ? '' : i % 3 === 1 ? `  // step ${i}` : `  n += ${i};`));
  return [`export function ${name}(): number {`, '  let n = 0;', ...body, '  const inner = () => n;', '  return inner();', '}', ''].join('\n');
}

describe('lint rule: no function in web/ over 150 lines', () => {
  const longest = async (code: string, filePath: string) => {
    const [res] = await new ESLint().lintText(code, { filePath });
    return res!.messages.filter((m) => m.ruleId === 'max-lines-per-function').map((m) => [m.line, m.message]);
  };

  it('counts every line, blank and comment lines included, and lets 150 pass', async () => {
    const code = fn('ok', 150) + fn('tooLong', 151);
    expect(code.split('\n').length - 1).toBe(150 + 151);
    expect(await longest(code, 'web/canary.ts')).toEqual([[151, "Function 'tooLong' has too many lines (151). Maximum allowed is 150."]]);
  }, 30_000);

  it('leaves tests alone, but not the app code beside them', async () => {
    const code = fn('aLongTest', 200);
    expect(await longest(code, 'web/views/canary.test.ts')).toEqual([]);
    expect(await longest(code, 'web/e2e/canary.spec.ts')).toEqual([]);
    expect((await longest(code, 'web/e2e/fixtures.ts')).length).toBe(1);
    expect((await longest(code, 'web/shell/canary.ts')).length).toBe(1);
  }, 30_000);
});
