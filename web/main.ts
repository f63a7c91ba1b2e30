import './styles.css';
import { App } from './app';

declare global {
  interface Window {
    /** The running app: `buddylab.loadEventLog(arrayBuffer)` replays a log (also the test hook). */
    buddylab?: App;
  }
}

const isolation = document.getElementById('isolation');
if (isolation) {
  const ok = window.crossOriginIsolated === true;
  isolation.textContent = ok ? 'cross-origin isolated: threads available' : 'not cross-origin isolated: single-threaded only';
  isolation.classList.add(ok ? 'ok' : 'warn');
}

const root = document.getElementById('app');
if (root) window.buddylab = new App(root);
