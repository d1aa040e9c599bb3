import { describe, expect, it } from 'vitest';
import { jsonOfResult, responseOf } from '../../src/http/cache.js';

/**
 * A public read's answer is serialised by `jsonOfResult`, which takes the JSON of frozen list
 * entries (the ones the engine keeps for later reads) from what it made before: the bytes must be
 * JSON.stringify's, whatever the answer holds.
 */
describe('the JSON of a public answer', () => {
  const entry = (n: number) => Object.freeze({
    id: `id-${n}`, name: `Entry “${n}” \u2028`, slug: `entry-${n}`, skipped: undefined,
    fields: { when: new Date(Date.UTC(2026, 10, n)), list: [1, undefined, 'x'], nested: { a: null } },
  });

  const answers: Array<[string, unknown]> = [
    ['a list of frozen entries, read twice', { data: [entry(1), entry(2)], pagination: { page: 1, limit: 20, total: 2, totalPages: 1 } }],
    ['the same frozen entries in another list', { data: [entry(2), entry(1), entry(2)], pagination: { page: 2, limit: 3, total: 9, totalPages: 3 }, locale: 'de' }],
    ['entries not frozen, and values JSON leaves out', { data: [{ a: 1, b: undefined }, null, 'text', 3], missing: undefined, pagination: { page: 1 } }],
    ['an empty list', { data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } }],
    ['a single entry', { data: entry(3) }],
    ['an answer without data', { posts: [entry(4)] }],
  ];

  for (const [name, answer] of answers) {
    it(`is JSON.stringify's, byte for byte: ${name}`, () => {
      expect(jsonOfResult(answer)).toBe(JSON.stringify(answer));
      // Asked again, from what the first call kept.
      expect(jsonOfResult(answer)).toBe(JSON.stringify(answer));
      expect(responseOf(answer, false).body.equals(Buffer.from(JSON.stringify(answer)))).toBe(true);
    });
  }

  it('makes an answer with many kept entries as JSON.stringify does (the entries shared with other answers)', () => {
    const kept = Array.from({ length: 50 }, (_, i) => entry(i));
    for (let start = 0; start < 40; start += 7) {
      const answer = { data: kept.slice(start, start + 10), pagination: { page: start, limit: 10, total: 50, totalPages: 5 } };
      expect(JSON.parse(jsonOfResult(answer))).toEqual(JSON.parse(JSON.stringify(answer)));
      expect(jsonOfResult(answer)).toBe(JSON.stringify(answer));
    }
  });
});
