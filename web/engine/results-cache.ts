// Finished sweep points, kept across reloads in IndexedDB: a point's counters (a SimStats
// record) keyed by the core build hash and its point key (configuration and seed, point.ts),
// so a table or chart asked for again shows at once, and a new core never reads an old core's
// numbers (records of other builds are deleted when the cache opens). A record read back is
// checked like a shipped one (readSimStats()): one that is not whole is run again. Without
// IndexedDB (a private window that refuses it) the cache lives for the page only and says why.
import { CORE_HASH } from './core-hash';
import { readSimStats, type SimStats } from './simstats';

const DB = 'buddylab-results';
const STORE = 'points';

interface Row {
  hash: string;
  key: string;
  stats: SimStats;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open(DB, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: ['hash', 'key'] });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB would not open'));
    r.onblocked = () => reject(new Error('IndexedDB is blocked by another tab'));
  });
}

export class ResultsCache {
  private memory = new Map<string, SimStats>();
  private db: Promise<IDBDatabase | null>;
  /** why results last for this page only, or '' */
  problem = '';

  constructor(readonly hash: string = CORE_HASH) {
    this.db = this.connect();
  }

  private async connect(): Promise<IDBDatabase | null> {
    if (typeof indexedDB === 'undefined') {
      this.problem = 'this browser has no IndexedDB: results are kept for this page only';
      return null;
    }
    try {
      const db = await open();
      // records of other core builds can never be read again: [hash] < [hash, key] < [hash, []]
      const tx = db.transaction(STORE, 'readwrite');
      const store = tx.objectStore(STORE);
      store.delete(IDBKeyRange.upperBound([this.hash], true));
      store.delete(IDBKeyRange.lowerBound([this.hash, []], true));
      return db;
    } catch (e) {
      this.problem = `results are kept for this page only: ${e instanceof Error ? e.message : String(e)}`;
      return null;
    }
  }

  /** The counters the cache has for these keys (a key it lacks, or whose record is not whole,
   * is absent from the map). */
  async getMany(keys: readonly string[]): Promise<Map<string, SimStats>> {
    const out = new Map<string, SimStats>();
    const missing: string[] = [];
    for (const k of keys) {
      const v = this.memory.get(k);
      if (v !== undefined) out.set(k, v);
      else missing.push(k);
    }
    const db = await this.db;
    if (!db || missing.length === 0) return out;
    try {
      const store = db.transaction(STORE, 'readonly').objectStore(STORE);
      const rows = await Promise.all(missing.map((k) => request(store.get([this.hash, k]) as IDBRequest<Row | undefined>)));
      rows.forEach((row, i) => {
        if (!row) return;
        const key = missing[i]!;
        try {
          const stats = readSimStats(row.stats, `the cached run "${key}"`);
          out.set(key, stats);
          this.memory.set(key, stats);
        } catch (e) {
          // a row of an older shape, or damaged: the point runs again and replaces it
          this.problem = e instanceof Error ? e.message : String(e);
        }
      });
    } catch (e) {
      this.problem = `the results cache could not be read: ${e instanceof Error ? e.message : String(e)}`;
    }
    return out;
  }

  /** Keeps one finished point's counters. */
  async put(key: string, stats: SimStats): Promise<void> {
    this.memory.set(key, stats);
    const db = await this.db;
    if (!db) return;
    try {
      const row: Row = { hash: this.hash, key, stats };
      await request(db.transaction(STORE, 'readwrite').objectStore(STORE).put(row));
    } catch (e) {
      // a full disk or a revoked permission: the page goes on with its memory copy
      this.problem = `the results cache could not be written: ${e instanceof Error ? e.message : String(e)}`;
    }
  }
}
