// The TypeScript tables against the C header, read as text: type numbers, names and classes,
// code paths, access outcomes.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_OUTCOMES, EVENT_TYPES, PATHS, TRACE_EVENT_TYPES } from './events';

const HEADER = 'wasm-core/include/blab_events.h';
const have = existsSync(HEADER);
const text = have ? readFileSync(HEADER, 'utf8') : '';

// The tree always has the core, and make builds it first: a missing file is a failure, not a skip.
if (!have) throw new Error('missing wasm-core/include/blab_events.h')
describe('events.ts follows blab_events.h', () => {
  it('has the same event types (X(name, number, class))', () => {
    const at = text.indexOf('#define BLAB_EVENT_TYPES');
    const block = text.slice(at, text.indexOf('enum blab_event_type {', at));
    const fromC = [...block.matchAll(/X\((\w+),\s*(\d+),\s*(\w+)\)/g)].map((m) => ({
      id: Number(m[2]),
      name: m[1],
      cls: m[3]!.toLowerCase(),
    }));
    expect(fromC.length).toBeGreaterThan(0);
    expect(EVENT_TYPES.map((t) => ({ id: t.id, name: t.name, cls: t.cls }))).toEqual(fromC);
  });

  it('has the same imported-trace types (BLAB_TRACE_EVENT_TYPES)', () => {
    const at = text.indexOf('#define BLAB_TRACE_EVENT_TYPES');
    const block = text.slice(at, text.indexOf('enum blab_trace_event_type {', at));
    const fromC = [...block.matchAll(/X\((\w+),\s*(\d+),\s*(\w+)\)/g)].map((m) => ({
      id: Number(m[2]),
      name: m[1],
      cls: m[3]!.toLowerCase(),
    }));
    expect(fromC.length).toBeGreaterThan(0);
    expect(TRACE_EVENT_TYPES.map((t) => ({ id: t.id, name: t.name, cls: t.cls }))).toEqual(fromC);
  });

  it('has the same code paths (BLAB_PATHS)', () => {
    const at = text.indexOf('#define BLAB_PATHS');
    const block = text.slice(at, text.indexOf('enum blab_path {', at));
    const fromC = [...block.matchAll(/X\((\w+),\s*(\d+),\s*"([^"]*)"\)/g)].map((m) => ({
      id: Number(m[2]),
      name: m[1],
      where: m[3],
    }));
    expect(fromC.length).toBeGreaterThan(0);
    expect(PATHS).toEqual(fromC);
  });

  it('has one access outcome per BLAB_ACC_* value', () => {
    const n = [...text.matchAll(/BLAB_ACC_\w+\s*=\s*(\d+)/g)].length;
    expect(n).toBeGreaterThan(0);
    expect(ACCESS_OUTCOMES.length).toBe(n);
  });
});
