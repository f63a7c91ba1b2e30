// "How was this made": the exact native commands that produce a table or a chart again
// (blab sim with every parameter spelled out: web/scenario/request.ts blabCommand()), as a
// line under every table and chart, with a button that copies them.
import { el } from './dom';

export function howMadeLine(commands: readonly string[], what = 'these numbers'): HTMLElement {
  const box = el('div', { class: 'howmade' });
  const code = el('code', { class: 'howmade-cmd' });
  // each option with its value unbroken ("--clear-lines 8" never splits at its hyphens)
  commands.forEach((c, i) => {
    if (i) code.append('\n');
    c.split(/ (?=--)/).forEach((part, j) => {
      if (j) code.append(' ');
      code.append(el('span', { class: 'howmade-arg', text: part }));
    });
  });
  const copy = el('button', { type: 'button', class: 'small', text: 'Copy', 'aria-label': `Copy the command that makes ${what}` });
  const said = el('span', { class: 'howmade-status', role: 'status' });
  copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(commands.join('\n'));
      said.textContent = 'copied';
    } catch {
      // no clipboard (an insecure origin, a denied permission): select it for Ctrl+C instead
      const r = document.createRange();
      r.selectNodeContents(code);
      const sel = window.getSelection();
      sel?.removeAllRanges();
      sel?.addRange(r);
      said.textContent = 'selected: press Ctrl+C';
    }
  });
  box.append(el('span', { class: 'howmade-label', text: `How was this made? The same ${what} from the command line:` }), code, copy, said);
  return box;
}
