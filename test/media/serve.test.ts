import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/db.js';
import { createMediaHarness, pathOf, rawGet, type MediaHarness } from './support.js';

describe(`media files and metadata (${testDriver})`, () => {
  let h: MediaHarness;
  let text: { id: string; url: string; filename: string };
  const body = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz\n');
  beforeAll(async () => {
    h = await createMediaHarness();
    text = (await (await h.upload(body, 'alphabet.txt', { altText: 'letters' })).json()).data;
  });
  afterAll(async () => { await h.close(); });

  it('serves the bytes with a strong ETag and a long immutable cache, without a key', async () => {
    const res = await h.fetch(pathOf(text.url));
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${text.filename.split('.')[0]}"`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe(String(body.length));
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('answers If-None-Match with 304', async () => {
    const etag = (await h.fetch(pathOf(text.url))).headers.get('etag')!;
    const res = await h.fetch(pathOf(text.url), { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
    expect(await res.text()).toBe('');
    const other = await h.fetch(pathOf(text.url), { headers: { 'if-none-match': '"something-else"' } });
    expect(other.status).toBe(200);
  });

  it('serves byte ranges with 206 and refuses unsatisfiable ones with 416', async () => {
    const range = async (value: string) => h.fetch(pathOf(text.url), { headers: { range: value } });
    const first = await range('bytes=0-9');
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-9/${body.length}`);
    expect(first.headers.get('content-length')).toBe('10');
    expect(await first.text()).toBe('0123456789');

    const open = await range('bytes=30-');
    expect(open.status).toBe(206);
    expect(await open.text()).toBe(body.subarray(30).toString());

    const suffix = await range('bytes=-4');
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe(`bytes ${body.length - 4}-${body.length - 1}/${body.length}`);
    expect(await suffix.text()).toBe('xyz\n');

    const clipped = await range('bytes=35-1000');
    expect(clipped.status).toBe(206);
    expect(clipped.headers.get('content-range')).toBe(`bytes 35-${body.length - 1}/${body.length}`);

    const beyond = await range(`bytes=${body.length}-`);
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${body.length}`);

    // Several ranges, or a malformed header, get the whole file.
    const multi = await range('bytes=0-1,4-5');
    expect(multi.status).toBe(200);
    expect(Buffer.from(await multi.arrayBuffer()).equals(body)).toBe(true);
    expect((await range('pages=1-2')).status).toBe(200);

    // If-Range with a stale validator: the whole file.
    const stale = await h.fetch(pathOf(text.url), { headers: { range: 'bytes=0-1', 'if-range': '"old"' } });
    expect(stale.status).toBe(200);
  });

  it('refuses path traversal in every spelling', async () => {
    // Something worth stealing just above the media folder.
    writeFileSync(join(h.t.config.dataDir, 'secret.txt'), 'TOP SECRET');
    const attempts = [
      '/api/v1/media/default/..%2fsecret.txt',
      '/api/v1/media/default/..%2F..%2Fsecret.txt',
      '/api/v1/media/default/%2e%2e%2fsecret.txt',
      '/api/v1/media/default/%2e%2e/secret.txt',
      '/api/v1/media/default/../secret.txt',
      '/api/v1/media/default/../../secret.txt',
      '/api/v1/media/..%2f/secret.txt',
      '/api/v1/media/%2e%2e/secret.txt',
      '/api/v1/media/default/%2fetc%2fpasswd',
      '/api/v1/media/default/%2Fetc%2Fpasswd',
      '/api/v1/media/default/..%5csecret.txt',
      `/api/v1/media/default/..%2fdefault%2f${text.filename}`,
      `/api/v1/media/default%2f..%2fdefault/${text.filename}`,
      '/api/v1/media/default/%00secret.txt',
    ];
    for (const path of attempts) {
      const res = await rawGet(h.http.url, path);
      expect(res.body, path).not.toContain('TOP SECRET');
      expect(res.body, path).not.toContain('root:');
      expect([400, 401, 404], path).toContain(res.status);
    }
    // Encoded slashes and dots stay inside the file route's last segment: a plain 404 there.
    for (const path of [attempts[0]!, attempts[1]!, attempts[2]!, attempts[8]!, attempts[9]!, attempts[10]!]) {
      expect((await rawGet(h.http.url, path)).status, path).toBe(404);
    }
  });

  it("answers 404 for another project's files and for unknown projects or files", async () => {
    await h.t.run('projects.create', { slug: 'other' });
    expect((await h.fetch(`/api/v1/media/other/${text.filename}`)).status).toBe(404);
    expect((await h.fetch(`/api/v1/media/missing/${text.filename}`)).status).toBe(404);
    expect((await h.fetch(`/api/v1/media/default/${'0'.repeat(64)}.txt`)).status).toBe(404);
    const res = await h.fetch(`/api/v1/media/default/${text.filename.replace('.txt', '.png')}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('NOT_FOUND');
  });

  it('returns metadata by id to any key, ignoring preview keys, with public cache headers', async () => {
    for (const key of [h.keys.public, h.keys.secret, h.keys.secretNoMedia]) {
      const res = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toMatchObject({ id: text.id, originalFilename: 'alphabet.txt', altText: 'letters', mimeType: 'text/plain', url: text.url });
      expect(res.headers.get('cache-control')).toBe('public, max-age=900, stale-while-revalidate=1800');
      expect(res.headers.get('vary')).toBe('Accept-Encoding, X-Preview-Key, X-API-Key');
    }
    const withPreview = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-api-key': h.keys.public, 'x-preview-key': h.keys.preview } });
    expect(withPreview.status).toBe(200);
    expect(withPreview.headers.get('cache-control')).toBe('public, max-age=900, stale-while-revalidate=1800');
    const viaQuery = await h.fetch(`/api/v1/media/${text.id}?api_key=${h.keys.public}`);
    expect(viaQuery.status).toBe(200);
    // An ETag, and 304 when If-None-Match names it, as on every public single read.
    const etag = viaQuery.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const unchanged = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-api-key': h.keys.public, 'if-none-match': etag! } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(etag);
    expect((await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-api-key': h.keys.public, 'if-none-match': '"other"' } })).status).toBe(200);

    expect((await h.fetch(`/api/v1/media/${text.id}`)).status).toBe(401);
    const previewOnly = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-preview-key': h.keys.preview } });
    expect(previewOnly.status).toBe(401);
    expect((await h.fetch('/api/v1/media/not-a-uuid', { headers: { 'x-api-key': h.keys.public } })).status).toBe(404);
    expect((await h.fetch('/api/v1/media/00000000-0000-4000-8000-000000000000', { headers: { 'x-api-key': h.keys.public } })).status).toBe(404);
  });

  it('ignores unknown, revoked and foreign preview keys (header and query) on the metadata read', async () => {
    const unknown = 'preview_' + 'x'.repeat(40);
    const revoked = (await h.t.run('keys.create', { type: 'preview' })) as { id: string; key: string };
    await h.t.run('keys.revoke', { id: revoked.id });
    const foreign = (await h.t.cms.run('keys.create', { type: 'preview' }, { actor: { kind: 'terminal' }, project: 'other' }) as { key: string }).key;
    for (const preview of [unknown, 'not-even-a-preview-key', revoked.key, foreign]) {
      const byHeader = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-api-key': h.keys.public, 'x-preview-key': preview } });
      expect(byHeader.status).toBe(200);
      expect((await byHeader.json()).data.id).toBe(text.id);
      const byQuery = await h.fetch(`/api/v1/media/${text.id}?preview=${encodeURIComponent(preview)}`, { headers: { 'x-api-key': h.keys.public } });
      expect(byQuery.status).toBe(200);
    }
    // The API key rules still apply: a preview key alone is no key, and a bad API key is refused.
    const alone = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-preview-key': unknown } });
    expect(alone.status).toBe(401);
    expect((await alone.json()).error.code).toBe('UNAUTHORIZED');
    const badKey = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-api-key': 'svc_pk_nope', 'x-preview-key': unknown } });
    expect(badKey.status).toBe(401);
    expect((await badKey.json()).error.code).toBe('UNAUTHORIZED');
  });

  it("does not show another project's media by id", async () => {
    const otherKey = (await h.t.cms.run('keys.create', { type: 'public' }, { actor: { kind: 'terminal' }, project: 'other' }) as { key: string }).key;
    const res = await h.fetch(`/api/v1/media/${text.id}`, { headers: { 'x-api-key': otherKey } });
    expect(res.status).toBe(404);
  });
});
