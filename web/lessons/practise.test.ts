import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { practiseLink } from './practise';
import { parseExercise } from '../exercise/url';

describe('Practise this', () => {
  it('every lesson ends with a link to an exercise the exercise page takes', () => {
    const ids = readdirSync('lessons')
      .filter((f) => f.endsWith('.md'))
      .map((f) => /^id: *(\S+)/m.exec(readFileSync(`lessons/${f}`, 'utf8'))![1]!);
    expect(ids.length).toBeGreaterThanOrEqual(8);
    for (const id of ids) {
      const link = practiseLink(id);
      expect(link, id).toBeDefined();
      expect(() => parseExercise(link!.href), id).not.toThrow();
    }
    expect(practiseLink('no-such-lesson')).toBeUndefined();
  });
});
