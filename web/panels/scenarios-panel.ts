// "My scenarios": save the scenario form under a name, open a saved one, delete, and move them
// between browsers as a file (export / import). Backed by web/storage/store.ts, so they survive
// reloads and new versions of the app.
import './scenarios.css';
import { parseHash } from '../scenario/url';
import { el } from '../ui/dom';
import { checkLimit } from '../scenario/limits';
import { Store, scenarioHash } from '../storage/store';
import { download } from '../ui/download';
import type { Panel } from './panel';

export function createScenariosPanel(store: Store): Panel {
  const sec = el('section', { class: 'my-scenarios', id: 'my-scenarios', 'aria-labelledby': 'my-scenarios-title' });
  const name = el('input', { type: 'text', id: 'save-name', maxlength: 80, placeholder: 'e.g. 8 CPUs, v4.17' });
  const save = el('button', { type: 'button', id: 'save-scenario', text: 'Save current scenario' });
  const list = el('ul', { class: 'saved-list', id: 'saved-list' });
  const exportBtn = el('button', { type: 'button', id: 'export-scenarios', text: 'Export to a file' });
  const importInput = el('input', { type: 'file', id: 'import-scenarios', accept: '.json,application/json' });
  const msg = el('p', { class: 'import-status', id: 'scenarios-msg', role: 'status' });
  sec.append(
    el('h2', { id: 'my-scenarios-title', text: 'My scenarios' }),
    el('label', { for: 'save-name', text: 'Name' }),
    name,
    save,
    list,
    exportBtn,
    el('label', { for: 'import-scenarios', text: 'Import scenarios (a file exported here)' }),
    importInput,
    msg,
  );
  if (store.problem) msg.textContent = store.problem;

  const draw = () => {
    list.replaceChildren(
      ...store.scenarios.map((s) => {
        const open = el('a', { href: scenarioHash(s.scenario), text: s.name, title: `${s.scenario.pages} pages, ${s.scenario.cpus} CPUs, ${s.scenario.preset}, ${s.scenario.workload}, seed ${s.scenario.seed}` });
        const del = el('button', { type: 'button', class: 'small', text: 'Delete', 'aria-label': `Delete ${s.name}` });
        del.addEventListener('click', () => {
          store.deleteScenario(s.name);
          msg.textContent = `Deleted ${s.name}.`;
          draw();
        });
        return el('li', {}, open, ' ', del);
      }),
    );
  };
  const attempt = (f: () => string) => {
    try {
      msg.textContent = f();
    } catch (e) {
      msg.textContent = e instanceof Error ? e.message : String(e);
    }
    draw();
  };

  save.addEventListener('click', () =>
    attempt(() => {
      // the form writes the scenario to the URL: the URL is the source of truth
      const { scenario } = parseHash(window.location.hash);
      store.saveScenario(name.value, scenario);
      return `Saved ${name.value.trim()}.`;
    }),
  );
  exportBtn.addEventListener('click', () => download(store.exportText(), 'buddylab-scenarios.json', 'application/json'));
  importInput.addEventListener('change', async () => {
    const f = importInput.files?.[0];
    importInput.value = '';
    if (!f) return;
    try {
      checkLimit('scenario file (bytes)', f.size, f.name);
    } catch (e) {
      msg.textContent = `${(e as Error).message}.`;
      return;
    }
    const text = await f.text();
    attempt(() => `Imported ${store.importText(text)} scenario(s) from ${f.name}.`);
  });
  draw();
  return { root: sec };
}
