import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../helpers/engine.js';
import { createContentHarness, type ContentHarness } from './support.js';

/** Idempotency-Key on every public write: a repeat replays the stored answer for 24 hours. */
describe('idempotency', () => {
  let h: ContentHarness;
  const clock = createManualClock();

  beforeAll(async () => {
    h = await createContentHarness({ clock });
  });
  afterAll(async () => { await h.close(); });

  const pageCount = async () => (await h.t.run('pages.list', { query: { limit: '100' } })).pagination.total as number;

  it('requires an Idempotency-Key on every write: 400 IDEMPOTENCY_KEY_REQUIRED, nothing written', async () => {
    await h.createPage({ name: 'Exists', slug: 'exists', fields: { title: 'T' } });
    const before = await pageCount();
    const writes: Array<[string, string, unknown]> = [
      ['POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'No key', slug: 'no-key' }],
      ['PUT', '/api/v1/pages/exists', { name: 'x' }],
      ['POST', '/api/v1/pages/exists/publish', undefined],
      ['POST', '/api/v1/pages/exists/unpublish', undefined],
      ['DELETE', '/api/v1/pages/exists', undefined],
      ['POST', '/api/v1/collections/products', { name: 'P', slug: 'p' }],
    ];
    for (const [method, path, body] of writes) {
      const r = await h.write(method, path, body, { idem: null });
      expect(r.status, `${method} ${path}`).toBe(400);
      const json = await r.json();
      expect(json).toEqual({ error: { code: 'IDEMPOTENCY_KEY_REQUIRED', message: expect.any(String) } });
    }
    expect(await pageCount()).toBe(before);
    expect((await h.t.run('pages.get', { ref: { slug: 'exists' } })).name).toBe('Exists');
  });

  it('refuses keys that are empty, longer than 255 characters or not printable', async () => {
    for (const idem of ['x'.repeat(256), 'tab\there']) {
      const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'K', slug: 'bad-key' }, { idem });
      expect(r.status).toBe(400);
      expect((await r.json()).error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    }
    const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'K', slug: 'long-key' }, { idem: 'k'.repeat(255) });
    expect(r.status).toBe(201);
    // Printable is not only ASCII: a Latin-1 letter, as a header carries it, is a key like any other.
    const body = { pageTypeSlug: 'landing', name: 'K', slug: 'latin-key' };
    const first = await h.write('POST', '/api/v1/pages', body, { idem: 'clé-déjà-1' });
    expect(first.status).toBe(201);
    const again = await h.write('POST', '/api/v1/pages', body, { idem: 'clé-déjà-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('replays a repeat with Idempotent-Replayed: true, without running it again or emitting again', async () => {
    const body = { pageTypeSlug: 'landing', name: 'Once', slug: 'once', fields: { title: 'T' }, status: 'published' };
    h.events.length = 0;
    const first = await h.write('POST', '/api/v1/pages', body, { idem: 'create-once' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const firstText = await first.text();
    const count = await pageCount();
    const eventsAfterFirst = h.events.length;
    expect(eventsAfterFirst).toBe(2);
    for (let i = 0; i < 3; i++) {
      const again = await h.write('POST', '/api/v1/pages', body, { idem: 'create-once' });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.text()).toBe(firstText);
    }
    expect(await pageCount()).toBe(count);
    expect(h.events.length).toBe(eventsAfterFirst);
  });

  it('replays updates, publishes and deletes too: the version moves once', async () => {
    await h.createPage({ name: 'Upd', slug: 'upd', fields: { title: 'T' } });
    const a = await h.write('PUT', '/api/v1/pages/upd', { name: 'Upd 2' }, { idem: 'upd-1' });
    const b = await h.write('PUT', '/api/v1/pages/upd', { name: 'Upd 2' }, { idem: 'upd-1' });
    expect((await a.json()).data.version).toBe(2);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect((await b.json()).data.version).toBe(2);
    expect((await h.t.run('pages.get', { ref: { slug: 'upd' } })).version).toBe(2);
    h.events.length = 0;
    const p1 = await h.write('POST', '/api/v1/pages/upd/publish', undefined, { idem: 'pub-1' });
    const p2 = await h.write('POST', '/api/v1/pages/upd/publish', undefined, { idem: 'pub-1' });
    expect(p1.status).toBe(200);
    expect(p2.status).toBe(200);
    expect(p2.headers.get('idempotent-replayed')).toBe('true');
    expect(h.events.map((e) => e.kind)).toEqual(['page.published']);
    const d1 = await h.write('DELETE', '/api/v1/pages/upd?force=true', undefined, { idem: 'del-1' });
    const d2 = await h.write('DELETE', '/api/v1/pages/upd?force=true', undefined, { idem: 'del-1' });
    expect(await d1.json()).toEqual({ success: true });
    expect(d2.status).toBe(200);
    expect(d2.headers.get('idempotent-replayed')).toBe('true');
    expect(await d2.json()).toEqual({ success: true });
  });

  it('replays to every retry of a finished request sent at once, and writes nothing more', async () => {
    const body = { pageTypeSlug: 'landing', name: 'Burst', slug: 'burst', fields: { title: 'T' } };
    const first = await h.write('POST', '/api/v1/pages', body, { idem: 'burst-1' });
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    const count = await pageCount();
    h.events.length = 0;
    // Straight into the app, so that all of them are in the engine at once.
    const retries = await Promise.all(Array.from({ length: 8 }, () => h.write('POST', '/api/v1/pages', body, { idem: 'burst-1', door: 'app.fetch' })));
    expect(retries.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(retries.map((r) => r.headers.get('idempotent-replayed'))).toEqual(Array(8).fill('true'));
    for (const r of retries) expect(await r.json()).toEqual(firstBody);
    expect(await pageCount()).toBe(count);
    expect(h.events).toEqual([]);
  });

  it('refuses a repeat sent while the first still runs (409 IDEMPOTENCY_KEY_IN_USE), and replays it once the first finished', async () => {
    // A large body keeps the first busy while the repeat arrives.
    const fields = { title: 'T', summary: 'x'.repeat(900_000) };
    for (const [method, path, body, status] of [
      ['POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Slow', slug: 'slow-one', fields }, 201],
      ['PUT', '/api/v1/pages/slow-one', { fields: { ...fields, summary: 'y'.repeat(900_000) } }, 200],
    ] as const) {
      h.events.length = 0;
      const idem = `while-running-${method}`;
      const [first, repeat] = await Promise.all([
        h.write(method, path, body, { idem, door: 'app.fetch' }),
        h.write(method, path, body, { idem, door: 'app.fetch' }),
      ]);
      expect([first.status, repeat.status].sort(), method).toEqual([status, 409].sort());
      const refused = first.status === 409 ? first : repeat;
      expect((await refused.json()).error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      const ran = first.status === 409 ? repeat : first;
      expect(ran.headers.get('idempotent-replayed')).toBeNull();
      expect(h.events).toHaveLength(1);
      const later = await h.write(method, path, body, { idem });
      expect(later.status).toBe(status);
      expect(later.headers.get('idempotent-replayed')).toBe('true');
      // The stored answer is the first one byte for byte, not only once parsed.
      expect(await later.text()).toBe(await ran.text());
    }
    expect((await h.t.run('pages.get', { ref: { slug: 'slow-one' } })).version).toBe(2);
  });

  it('holds the key from the moment a request\'s headers are in: a repeat while the first body still arrives is refused', async () => {
    const body = JSON.stringify({ pageTypeSlug: 'landing', name: 'Trickle', slug: 'trickle', fields: { title: 'T' } });
    const headers = { 'x-api-key': h.keys.secret, 'idempotency-key': 'trickle-1', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) };
    let finish!: () => void;
    const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const first = request(`${h.http.url}/api/v1/pages`, { method: 'POST', headers }, (res) => {
        let text = '';
        res.on('data', (d) => { text += d; });
        res.on('end', () => resolve({ status: res.statusCode!, text }));
      });
      first.on('error', reject);
      // The headers and a part of the body now; the rest once the repeat is in.
      first.write(body.slice(0, 20));
      finish = () => first.end(body.slice(20));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The repeat waits for the first to end (it may have been a retry of a finished request), and
    // the first ran it: 409.
    const repeating = h.write('POST', '/api/v1/pages', JSON.parse(body), { idem: 'trickle-1' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    finish();
    const repeat = await repeating;
    expect(repeat.status).toBe(409);
    expect((await repeat.json()).error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    const first = await answered;
    expect(first.status).toBe(201);
    const later = await h.write('POST', '/api/v1/pages', JSON.parse(body), { idem: 'trickle-1' });
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(await later.text()).toBe(first.text);
  });

  it('stores and replays the operation\'s own 4xx answers', async () => {
    await h.createPage({ name: 'Taken', slug: 'taken', fields: { title: 'T' } });
    const body = { pageTypeSlug: 'landing', name: 'Dup', slug: 'taken' };
    const first = await h.write('POST', '/api/v1/pages', body, { idem: 'dup-1' });
    expect(first.status).toBe(409);
    const firstBody = await first.json();
    expect(firstBody.error.code).toBe('SLUG_EXISTS');
    // Free the slug: a replay still answers what was stored, and runs nothing.
    expect((await h.write('DELETE', '/api/v1/pages/taken')).status).toBe(200);
    const again = await h.write('POST', '/api/v1/pages', body, { idem: 'dup-1' });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.text()).toBe(JSON.stringify(firstBody));
    // Validation failures too.
    const invalid = { pageTypeSlug: 'landing', name: 'Bad', slug: 'bad', fields: { priority: 'high' } };
    const v1 = await h.write('POST', '/api/v1/pages', invalid, { idem: 'invalid-1' });
    const v2 = await h.write('POST', '/api/v1/pages', invalid, { idem: 'invalid-1' });
    expect(v1.status).toBe(400);
    expect(v2.status).toBe(400);
    expect(v2.headers.get('idempotent-replayed')).toBe('true');
    // Byte for byte, as the first answer was sent.
    expect(await v2.text()).toBe(await v1.text());
  });

  it('does not store authentication failures', async () => {
    const body = { pageTypeSlug: 'landing', name: 'Auth', slug: 'auth-first' };
    let r = await h.write('POST', '/api/v1/pages', body, { idem: 'auth-1', key: h.keys.secretNoWrite });
    expect(r.status).toBe(403);
    r = await h.write('POST', '/api/v1/pages', body, { idem: 'auth-1', key: h.keys.public });
    expect(r.status).toBe(403);
    r = await h.write('POST', '/api/v1/pages', body, { idem: 'auth-1', key: null });
    expect(r.status).toBe(401);
    r = await h.write('POST', '/api/v1/pages', body, { idem: 'auth-1' });
    expect(r.status).toBe(201);
    expect(r.headers.get('idempotent-replayed')).toBeNull();
  });

  it('scopes keys to the API key', async () => {
    const other = (await h.t.run('keys.create', { type: 'secret', permissions: 'content:write' })).key as string;
    const a = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'article', name: 'A', slug: 'scope-a' }, { idem: 'shared-key' });
    const b = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'article', name: 'B', slug: 'scope-b' }, { idem: 'shared-key', key: other });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours', async () => {
    await h.createPage({ name: 'Day', slug: 'day', fields: { title: 'T' } });
    const first = await h.write('PUT', '/api/v1/pages/day', { name: 'Day 2' }, { idem: 'day-1' });
    expect((await first.json()).data.version).toBe(2);
    clock.advance(23 * 60 * 60 * 1000);
    const replay = await h.write('PUT', '/api/v1/pages/day', { name: 'Day 2' }, { idem: 'day-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    clock.advance(2 * 60 * 60 * 1000);
    const fresh = await h.write('PUT', '/api/v1/pages/day', { name: 'Day 2' }, { idem: 'day-1' });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    expect((await fresh.json()).data.version).toBe(3);
  });
});
