import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskMediaFiles } from '../../src/media/files.js';
import type { MediaFiles } from '../../src/core/media/storage.js';
import { createMediaHarness, makeImage, type MediaHarness } from './support.js';

/**
 * Retries of one idempotent write (a public write with an Idempotency-Key): once the first request has finished, every
 * retry replays its answer, however many arrive at once; only while it still runs is a retry
 * refused with 409 IDEMPOTENCY_KEY_IN_USE.
 */
describe('parallel retries of an idempotent write', () => {
  let h: MediaHarness;
  // A media store the test can hold: the write under way waits inside its transaction.
  let gate: { entered: () => void; release: Promise<void> } | null = null;
  const root = mkdtempSync(join(tmpdir(), 'cms-media-retries-'));
  const disk = createDiskMediaFiles(root);
  const files: MediaFiles = {
    async put(location, bytes) {
      const held = gate;
      if (held) {
        gate = null;
        held.entered();
        await held.release;
      }
      await disk.put(location, bytes);
    },
    open: (location, range) => disk.open(location, range),
    stat: (location) => disk.stat(location),
    remove: (location) => disk.remove(location),
    probeImage: (bytes) => disk.probeImage(bytes),
  };

  beforeAll(async () => {
    h = await createMediaHarness({ services: { mediaFiles: files } });
  });
  afterAll(async () => {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('replays the stored answer to 20 retries sent at once after the first finished: no 409', async () => {
    const png = await makeImage('png', 4, 3);
    const first = await h.upload(png, 'a.png', { idempotencyKey: 'retry-20' });
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const retries = await Promise.all(Array.from({ length: 20 }, () => h.upload(png, 'a.png', { idempotencyKey: 'retry-20' })));
    const bodies = await Promise.all(retries.map((r) => r.json()));
    expect(retries.map((r) => r.status), JSON.stringify(bodies.find((b) => b.error))).toEqual(Array(20).fill(201));
    expect(retries.map((r) => r.headers.get('idempotent-replayed'))).toEqual(Array(20).fill('true'));
    for (const body of bodies) expect(body).toEqual(firstBody);
    const list = await h.t.run('media.list', {});
    expect(list.data.filter((m: any) => m.id === firstBody.data.id)).toHaveLength(1);
    expect(list.data).toHaveLength(1);
  });

  it('refuses a retry with 409 while the first request still runs, and replays once it has finished', async () => {
    const png = await makeImage('png', 5, 5, '#cc3366');
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => { entered = resolve; });
    let release!: () => void;
    gate = { entered, release: new Promise<void>((resolve) => { release = resolve; }) };

    const firstPending = h.upload(png, 'b.png', { idempotencyKey: 'slow-1' });
    await inside; // the first request is now inside its write, held by the media store
    const during = await h.upload(png, 'b.png', { idempotencyKey: 'slow-1' });
    expect(during.status).toBe(409);
    expect((await during.json()).error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(during.headers.get('idempotent-replayed')).toBeNull();

    release();
    const first = await firstPending;
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const after = await h.upload(png, 'b.png', { idempotencyKey: 'slow-1' });
    expect(after.status).toBe(201);
    expect(after.headers.get('idempotent-replayed')).toBe('true');
    expect(await after.json()).toEqual(firstBody);
  });
});
