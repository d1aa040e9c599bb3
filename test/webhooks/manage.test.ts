import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhooks } from '../../src/db/schema/index.js';
import { createManualClock, createTestCms, type TestCms } from '../helpers/engine.js';
import { emitEvents } from './emit.js';

const developer = { kind: 'user', userId: 'u-dev', email: 'dev@x.test', role: 'developer' } as const;
const editor = { kind: 'user', userId: 'u-ed', email: 'ed@x.test', role: 'editor' } as const;

describe('webhook configuration', () => {
  let t: TestCms;
  const clock = createManualClock();
  beforeAll(async () => { t = await createTestCms({ clock }); });
  afterAll(async () => { await t.close(); });

  it('creates a webhook and shows its whole whsec_ secret only then', async () => {
    const w = await t.run('webhooks.create', { url: 'https://example.test/hook', events: ['page.published', 'page.deleted'], headers: { Authorization: 'Bearer abc' } });
    expect(w.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(w.secret.slice(6), 'base64')).toHaveLength(32);
    expect(w).toMatchObject({ url: 'https://example.test/hook', events: ['page.published', 'page.deleted'], headers: { Authorization: 'Bearer abc' }, active: true });

    const got = await t.run('webhooks.get', { id: w.id });
    expect(got.secret).toBe(`whsec_…${w.secret.slice(-8)}`);
    const list = await t.run('webhooks.list', {});
    expect(list.find((x: { id: string }) => x.id === w.id).secret).toBe(`whsec_…${w.secret.slice(-8)}`);
    expect(JSON.stringify(list)).not.toContain(w.secret);
  });

  it('refuses non-http URLs, unknown events and headers it sets itself, all at once', async () => {
    const err = await t.run('webhooks.create', {
      url: 'ftp://example.test/x', events: ['page.published', 'page.exploded'], headers: { 'X-Webhook-Signature': 'forged' },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED' });
    const paths = (err as { details: Array<{ path: string }> }).details.map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['url', 'events[1]', 'headers.X-Webhook-Signature']));
    await expect(t.run('webhooks.create', { url: 'not a url', events: ['page.created'] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(t.run('webhooks.create', { url: 'javascript:alert(1)', events: ['page.created'] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(t.run('webhooks.create', { url: 'https://x.test/', events: [] })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(t.run('webhooks.create', { url: 'https://x.test/', events: ['page.created'], headers: { 'Bad Name': 'v' } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses header values HTTP cannot carry (emoji, control characters) at their name, and takes Latin-1 and tabs', async () => {
    const err = await t.run('webhooks.create', {
      url: 'https://x.test/', events: ['page.created'], headers: { 'X-Emoji': 'ok 😀', 'X-Bell': 'a\u0007b', 'X-Fine': 'café\tau lait' },
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((err as { details: Array<{ path: string }> }).details.map((d) => d.path).sort()).toEqual(['headers.X-Bell', 'headers.X-Emoji']);
    const w = await t.run('webhooks.create', { url: 'https://x.test/', events: ['page.created'], headers: { 'X-Fine': 'café\tau lait' } });
    expect(w.headers).toEqual({ 'X-Fine': 'café\tau lait' });
    await expect(t.run('webhooks.update', { id: w.id, headers: { 'X-Fine': '→' } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'headers.X-Fine' }] });
  });

  it('updates only what is given and deletes', async () => {
    const w = await t.run('webhooks.create', { url: 'http://127.0.0.1:9/a', events: ['page.created'] });
    clock.advance(1000);
    const u = await t.run('webhooks.update', { id: w.id, events: ['media.uploaded', 'media.deleted'], active: false });
    expect(u).toMatchObject({ url: 'http://127.0.0.1:9/a', events: ['media.uploaded', 'media.deleted'], active: false });
    expect(u.updatedAt).not.toBe(w.updatedAt);
    const h = await t.run('webhooks.update', { id: w.id, headers: { 'X-Team': 'web' } });
    expect(h.headers).toEqual({ 'X-Team': 'web' });
    expect((await t.run('webhooks.update', { id: w.id, headers: null })).headers).toEqual({});
    expect(await t.run('webhooks.delete', { id: w.id })).toEqual({ id: w.id, deleted: true });
    await expect(t.run('webhooks.get', { id: w.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(t.run('webhooks.get', { id: 'not-a-uuid' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(t.run('webhooks.delete', { id: w.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('masks the values of credential headers in list and get, shows the others, and keeps a stored credential sent back masked', async () => {
    const token = 'Bearer tok_live_9f8e7d6c5b4a';
    const headers = { Authorization: token, 'X-Team': 'web', 'X-Api-Key': 'short', Cookie: 'sid=0123456789abcdef', 'X-Environment': 'staging' };
    const w = await t.run('webhooks.create', { url: 'https://example.test/h', events: ['page.created'], headers });
    // The caller has just sent them: shown whole.
    expect(w.headers).toEqual(headers);
    // Credentials: long values keep their last 4 characters, short ones (under 12) are masked whole.
    const shown = { Authorization: '…5b4a', 'X-Team': 'web', 'X-Api-Key': '…', Cookie: '…cdef', 'X-Environment': 'staging' };
    expect((await t.run('webhooks.get', { id: w.id })).headers).toEqual(shown);
    const listed = (await t.run('webhooks.list', {})).find((x: { id: string }) => x.id === w.id);
    expect(listed.headers).toEqual(shown);
    expect(JSON.stringify(await t.run('webhooks.list', {}))).not.toContain('tok_live');

    // An edit form sends what it was shown back with one header changed and one added: the masked credentials keep their values.
    const u = await t.run('webhooks.update', { id: w.id, headers: { authorization: '…5b4a', 'X-Api-Key': '…', 'X-Team': 'data', 'X-Env': 'production-eu-1' } });
    expect(u.headers).toEqual({ authorization: '…5b4a', 'X-Api-Key': '…', 'X-Team': 'data', 'X-Env': 'production-eu-1' });
    const [row] = await t.cms.db.select({ headers: webhooks.headers }).from(webhooks).where(eq(webhooks.id, w.id));
    expect(row!.headers).toEqual({ authorization: token, 'X-Api-Key': 'short', 'X-Team': 'data', 'X-Env': 'production-eu-1' });

    // A credential's mask with nothing stored to keep (a new name, or a mask of another value) is refused, not stored.
    const err = await t.run('webhooks.update', { id: w.id, headers: { 'X-Auth-Token': '…5b4a' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'headers.X-Auth-Token' }] });
    await expect(t.run('webhooks.update', { id: w.id, headers: { Authorization: '…zzzz' } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(t.run('webhooks.create', { url: 'https://example.test/h2', events: ['page.created'], headers: { Authorization: '…' } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await t.run('webhooks.get', { id: w.id })).headers).toEqual({ authorization: '…5b4a', 'X-Api-Key': '…', 'X-Team': 'data', 'X-Env': 'production-eu-1' });
  });

  it('regenerates the secret and keeps the old one for 24 hours', async () => {
    const w = await t.run('webhooks.create', { url: 'https://example.test/r', events: ['page.created'] });
    const r = await t.run('webhooks.regenerateSecret', { id: w.id });
    expect(r.secret).toMatch(/^whsec_/);
    expect(r.secret).not.toBe(w.secret);
    expect(r.previousSecretExpiresAt).toBe(new Date(clock.now().getTime() + 24 * 3600_000).toISOString());
    clock.advance(24 * 3600_000 + 1);
    expect((await t.run('webhooks.get', { id: w.id })).previousSecretExpiresAt).toBeNull();
  });

  it('lets developers in and keeps editors and API keys out', async () => {
    const w = await t.cms.run('webhooks.create', { url: 'https://example.test/d', events: ['page.created'] }, { actor: developer }) as { secret: string };
    expect(w.secret).toMatch(/^whsec_/);
    await expect(t.cms.run('webhooks.list', {}, { actor: editor })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const key = await t.run('keys.create', { type: 'secret', permissions: 'content:write,media:write' });
    const { findKeyActor } = await import('../../src/core/keys/operations.js');
    const keyActor = (await findKeyActor(t.cms.db, key.key))!;
    await expect(t.cms.run('webhooks.create', { url: 'https://example.test/k', events: ['page.created'] }, { actor: keyActor })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(t.cms.run('webhooks.list', {}, { actor: keyActor })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(t.cms.run('webhooks.process', {}, { actor: developer })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('the outbox', () => {
  let t: TestCms;
  beforeAll(async () => { t = await createTestCms(); });
  afterAll(async () => { await t.close(); });

  const deliveriesOf = (webhookId: string) => t.cms.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));

  it('writes one delivery per active subscribed webhook, the payload built once with a millisecond timestamp', async () => {
    const a = await t.run('webhooks.create', { url: 'https://a.test/', events: ['page.published'] });
    const b = await t.run('webhooks.create', { url: 'https://b.test/', events: ['page.published', 'page.deleted'] });
    const off = await t.run('webhooks.create', { url: 'https://c.test/', events: ['page.published'], active: false });
    const other = await t.run('webhooks.create', { url: 'https://d.test/', events: ['media.uploaded'] });
    await t.run(emitEvents as never, { kind: 'page.published', data: { id: 'p1', name: 'Home' } });
    const [da] = await deliveriesOf(a.id);
    const [db] = await deliveriesOf(b.id);
    expect(await deliveriesOf(off.id)).toHaveLength(0);
    expect(await deliveriesOf(other.id)).toHaveLength(0);
    expect(da!.payload).toBe(db!.payload);
    const payload = JSON.parse(da!.payload);
    expect(Object.keys(payload)).toEqual(['event', 'timestamp', 'data']);
    expect(payload).toMatchObject({ event: 'page.published', data: { id: 'p1', name: 'Home' } });
    expect(payload.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(da).toMatchObject({ status: 'pending', attemptCount: 0, event: 'page.published' });
  });

  it('writes no delivery for a write that rolls back (operation error or database error)', async () => {
    const w = await t.run('webhooks.create', { url: 'https://e.test/', events: ['page.updated'] });
    await expect(t.run(emitEvents as never, { kind: 'page.updated', fail: 'cms-error' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(t.run(emitEvents as never, { kind: 'page.updated', fail: 'db-error' })).rejects.toBeTruthy();
    expect(await deliveriesOf(w.id)).toHaveLength(0);
    await t.run(emitEvents as never, { kind: 'page.updated' });
    expect(await deliveriesOf(w.id)).toHaveLength(1);
  });

  it('announces committed outbox rows (and only those) on the NOTIFY channel', async () => {
    const { outboxChannel } = await import('../../src/core/webhooks/index.js');
    const heard: string[] = [];
    const off = await t.cms.handle.listen(outboxChannel, (p) => heard.push(p));
    await t.run('webhooks.create', { url: 'https://f.test/', events: ['collection_item.deleted'] });
    await expect(t.run(emitEvents as never, { kind: 'collection_item.deleted', fail: 'cms-error' })).rejects.toBeTruthy();
    await t.run(emitEvents as never, { kind: 'collection_item.deleted' });
    await expect.poll(() => heard.length).toBe(1);
    await off();
  });
});
