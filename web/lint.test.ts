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
