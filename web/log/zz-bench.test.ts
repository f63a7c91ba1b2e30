import { it } from 'vitest';
import { JsonLogReader } from './eventlog-json';
import { EV } from './events';
it('speed', () => {
  const n = 1 << 21;
  const rows: string[] = [`[0,0,${EV.ZONE_INIT},4,65535,0,0,4,16,1]`];
  for (let i = 1; i < n; i++) rows.push(`[${i * 37},${(i * 7919) % 1048576},${EV.BUDDY_ADD},${i % 11},${i % 4},1,0,0,${i % 1000},0]`);
  const text = `{"format":"buddylab-event-log","version":1,"label":"x","fields":["time","pfn","type","order","cpu","mt","path","flags","arg0","arg1"],"records":[\n${rows.join(',\n')}\n]}\n`;
  for (let k = 0; k < 3; k++) {
    let t = performance.now();
    JSON.parse(text);
    const a = performance.now() - t;
    t = performance.now();
    const r = new JsonLogReader();
    for (let at = 0; at < text.length; at += 1 << 20) r.feed(text.slice(at, at + (1 << 20)));
    r.finish();
    console.log('JSON.parse', Math.round(a), 'reader', Math.round(performance.now() - t));
  }
}, 120000);
