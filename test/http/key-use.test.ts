import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKeyUse, type KeyView } from '../../src/core/keys/operations.js';
import { createManualClock, createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket } from '../helpers/http.js';
import { testDriver } from '../helpers/db.js';

/**
 * A key's `lastUsedAt` (keys.list, GET /api/v1/admin/keys, the admin app's "Last used"): the time a
 * request last presented it, to the minute, recorded by the real server.
 */
describe(`a key's last use (${testDriver})`, () => {
  let t: TestCms;
  let server: Awaited<ReturnType<typeof serveOverSocket>>;
  const clock = createManualClock(new Date('2026-03-01T10:00:00.000Z'));
  let keys: Record<'read' | 'write' | 'idle', { id: string; key: string }>;
  const listed = async (includeRevoked = false): Promise<KeyView[]> => t.run('keys.list', { includeRevoked });
  const lastUsed = async (id: string) => (await listed()).find((k) => k.id === id)!.lastUsedAt;

  beforeAll(async () => {
    t = await createTestCms({ clock });
    await t.run('schema.push', {
      pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [{ name: 'title', type: 'text' }] } }],
      collections: [], components: [],
    });
    const made = async (input: object) => {
      const created = await t.run('keys.create', input);
      return { id: created.id as string, key: created.key as string };
    };
    keys = { read: await made({ type: 'public' }), write: await made({ type: 'secret', permissions: 'content:write' }), idle: await made({ type: 'public' }) };
    server = await serveOverSocket(t.cms);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it('is null until the key is used, then the time of the request, for each key on its own', async () => {
    expect(await lastUsed(keys.read.id)).toBeNull();
    const res = await server.fetch('/api/v1/pages', { headers: { 'x-api-key': keys.read.key } });
    expect(res.status).toBe(200);
    await expect.poll(() => lastUsed(keys.read.id)).toBe('2026-03-01T10:00:00.000Z');

    clock.advance(5 * 60_000);
    const write = await server.fetch('/api/v1/pages', {
      method: 'POST', headers: { 'x-api-key': keys.write.key, 'content-type': 'application/json', 'idempotency-key': 'key-use-1' },
      body: JSON.stringify({ pageTypeSlug: 'landing', name: 'Home', slug: 'home', fields: { title: 'Home' } }),
    });
    expect(write.status).toBe(201);
    await expect.poll(() => lastUsed(keys.write.id)).toBe('2026-03-01T10:05:00.000Z');
    // The read key was not used since; the idle key never was.
    expect(await lastUsed(keys.read.id)).toBe('2026-03-01T10:00:00.000Z');
    expect(await lastUsed(keys.idle.id)).toBeNull();
  });

  it('records nothing for a key that is refused', async () => {
    const before = (await listed(true)).map((k) => [k.id, k.lastUsedAt]);
    const res = await server.fetch('/api/v1/pages', { headers: { 'x-api-key': 'svc_pk_not-a-key' } });
    expect(res.status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    expect((await listed(true)).map((k) => [k.id, k.lastUsedAt])).toEqual(before);
  });

  it('keeps the minute: a use within a minute of the stored one writes nothing; a revoked key keeps its last use', async () => {
    const at = (iso: string) => new Date(iso);
    await recordKeyUse(t.cms.db, keys.idle.id, at('2026-03-01T11:00:00.000Z'));
    expect(await lastUsed(keys.idle.id)).toBe('2026-03-01T11:00:00.000Z');
    await recordKeyUse(t.cms.db, keys.idle.id, at('2026-03-01T11:00:59.000Z'));
    expect(await lastUsed(keys.idle.id)).toBe('2026-03-01T11:00:00.000Z');
    await recordKeyUse(t.cms.db, keys.idle.id, at('2026-03-01T11:01:00.001Z'));
    expect(await lastUsed(keys.idle.id)).toBe('2026-03-01T11:01:00.001Z');

    await t.run('keys.revoke', { id: keys.idle.id });
    await recordKeyUse(t.cms.db, keys.idle.id, at('2026-03-01T12:00:00.000Z'));
    const revoked = (await listed(true)).find((k) => k.id === keys.idle.id)!;
    expect(revoked.lastUsedAt).toBe('2026-03-01T11:01:00.001Z');
  });
});
