import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResponseCache, responseOf, type CachedResponse } from '../../src/http/cache.js';
import { createBodyArena } from '../../src/kept.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';

/**
 * The bodies of answers asked for once wait in one buffer written round and round (src/kept.ts
 * `createBodyArena`); the first hit copies a body out. What a reader must never see: another
 * answer's bytes, or bytes written over.
 */
describe('the arena of waiting bodies', () => {
  const body = (fill: string, length: number) => Buffer.alloc(length, fill);

  it('gives back a copy of what was put, until later bodies write over it', () => {
    const arena = createBodyArena(8000);
    const a = arena.put(body('a', 1000))!;
    const copy = arena.take(a, 1000)!;
    expect(copy.equals(body('a', 1000))).toBe(true);
    // Seven more bodies of 1,000 bytes fill the arena: `a` is still whole.
    for (let i = 0; i < 7; i++) arena.put(body(String(i), 1000));
    expect(arena.take(a, 1000)!.equals(body('a', 1000))).toBe(true);
    // The copy taken earlier is the reader's own: writing over the arena does not change it.
    arena.put(body('z', 1000));
    expect(arena.take(a, 1000)).toBeNull();
    expect(copy.equals(body('a', 1000))).toBe(true);
  });

  it('starts a body that does not fit before the end again at the beginning', () => {
    const arena = createBodyArena(8000);
    for (let i = 0; i < 7; i++) arena.put(body(String(i), 1000));
    const half = arena.put(body('h', 500))!;
    // 7,500 written: 1,000 bytes do not fit before the end, so the body goes to 0, over the first one.
    const w = arena.put(body('w', 1000))!;
    expect(w).toBe(8000);
    expect(arena.take(w, 1000)!.equals(body('w', 1000))).toBe(true);
    // The bodies before the end are untouched; the first, written over, is gone.
    expect(arena.take(6000, 1000)!.equals(body('6', 1000))).toBe(true);
    expect(arena.take(half, 500)!.equals(body('h', 500))).toBe(true);
    expect(arena.take(0, 1000)).toBeNull();
  });

  it('does not take a body larger than an eighth of it, or an empty one', () => {
    const arena = createBodyArena(8000);
    expect(arena.put(body('x', 1001))).toBeNull();
    expect(arena.put(Buffer.alloc(0))).toBeNull();
    expect(arena.put(body('x', 1000))).toBe(0);
  });
});

describe('the response cache with waiting answers', () => {
  let t: TestCms;
  // 64 KB: an arena of 8 KB (bodies up to 1 KB wait there), 24 KB of LRU for the rest.
  beforeAll(async () => { t = await createTestCms({ config: { cacheMaxBytes: 64 * 1024 } }); });
  afterAll(async () => { await t.close(); });

  const project = 'p';
  const answer = (fill: string, length: number): CachedResponse => responseOf({ data: fill.repeat(length) }, false);

  it('answers the second ask with the first answer, byte for byte, from then on from a buffer of its own', async () => {
    const cache = createResponseCache(t.cms, { enabled: true });
    const made = await cache.compute(project, 'a', async () => answer('a', 900));
    const hit = cache.get(project, 'a')!;
    expect(hit.body.equals(made.body)).toBe(true);
    expect(hit.body).not.toBe(made.body);
    expect({ status: hit.status, etag: hit.etag, headers: hit.headers }).toEqual({ status: made.status, etag: made.etag, headers: made.headers });
    // Copied out once: the third ask is the second's entry, however much is written after.
    for (let i = 0; i < 9; i++) await cache.compute(project, `filler-${i}`, async () => answer('f', 900));
    expect(cache.get(project, 'a')).toBe(hit);
  });

  it('computes an answer again once later answers wrote over its waiting body', async () => {
    const cache = createResponseCache(t.cms, { enabled: true });
    await cache.compute(project, 'b', async () => answer('b', 900));
    for (let i = 0; i < 9; i++) await cache.compute(project, `more-${i}`, async () => answer(String(i), 900));
    expect(cache.get(project, 'b')).toBeUndefined();
    // The latest ones still wait, whole.
    expect(cache.get(project, 'more-8')!.body.equals(answer('8', 900).body)).toBe(true);
  });

  it('keeps an answer too large for the arena as it is', async () => {
    const cache = createResponseCache(t.cms, { enabled: true });
    const made = await cache.compute(project, 'large', async () => answer('l', 3000));
    expect(cache.get(project, 'large')).toBe(made);
  });
});
