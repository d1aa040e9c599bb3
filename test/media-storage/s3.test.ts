import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/db.js';
import { createMediaHarness, makeImage, type MediaHarness } from '../media/support.js';
import { startS3, type TestS3 } from './support.js';

const pathOf = (url: string) => new URL(url).pathname;

/**
 * Media in an S3-compatible bucket: the HTTP doors of a real engine over a socket, the files in a
 * real S3-protocol server (s3rver) started in this process, reached through the AWS SDK.
 */
describe(`media in S3 storage (${testDriver})`, () => {
  let s3: TestS3;
  let h: MediaHarness;
  const prefix = 'site/media';

  beforeAll(async () => {
    s3 = await startS3();
    h = await createMediaHarness({ config: { storage: { driver: 's3', s3: s3.config(prefix) } } });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  it('stores an upload in the bucket, not in the data folder, and serves it with ETag, 304 and Range', async () => {
    const png = await makeImage('png', 20, 10);
    const res = await h.upload(png, 'photo.png');
    expect(res.status).toBe(201);
    const item = (await res.json()).data;
    expect(await s3.keys(prefix)).toEqual([`${prefix}/default/${item.filename}`]);
    expect(existsSync(join(h.t.config.dataDir, 'media'))).toBe(false);

    const file = await h.fetch(pathOf(item.url));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(png))).toBe(true);
    expect(file.headers.get('etag')).toBe(`"${item.filename.split('.')[0]}"`);
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(file.headers.get('content-type')).toBe('image/png');

    const again = await h.fetch(pathOf(item.url), { headers: { 'if-none-match': file.headers.get('etag')! } });
    expect(again.status).toBe(304);

    const part = await h.fetch(pathOf(item.url), { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1-3/${png.byteLength}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(Buffer.from(png.subarray(1, 4)))).toBe(true);
    const beyond = await h.fetch(pathOf(item.url), { headers: { range: `bytes=${png.byteLength + 5}-` } });
    expect(beyond.status).toBe(416);
  });

  it('stores the same bytes once (SHA-256), with a media row for each upload', async () => {
    const png = await makeImage('png', 7, 7, '#113355');
    const a = (await (await h.upload(png, 'a.png')).json()).data;
    const b = (await (await h.upload(png, 'b.png')).json()).data;
    expect(a.id).not.toBe(b.id);
    expect(a.filename).toBe(b.filename);
    expect((await s3.keys(prefix)).filter((k) => k.endsWith(a.filename))).toHaveLength(1);
  });

  it('streams a large upload to the bucket as a multipart upload', async () => {
    const big = randomBytes(11 * 1024 * 1024);
    const res = await h.upload(big, 'big.bin');
    expect(res.status).toBe(201);
    const item = (await res.json()).data;
    expect(item.size).toBe(big.byteLength);
    const tail = await h.fetch(pathOf(item.url), { headers: { range: 'bytes=-16' } });
    expect(tail.status).toBe(206);
    expect(Buffer.from(await tail.arrayBuffer()).equals(big.subarray(big.byteLength - 16))).toBe(true);
  });

  it('caches transforms in the bucket beside the original, and deletes them with it', async () => {
    const png = await makeImage('png', 40, 20, '#884422');
    const item = (await (await h.upload(png, 'wide.png')).json()).data;
    const sha = item.filename.split('.')[0];
    const first = await h.fetch(`${pathOf(item.url)}?w=10&format=webp`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/webp');
    const variants = await s3.keys(`${prefix}/cache/default/${sha}/`);
    expect(variants).toEqual([`${prefix}/cache/default/${sha}/10x5-fill-qd.webp`]);
    const createdBefore = s3.created.length;
    const second = await h.fetch(`${pathOf(item.url)}?w=10&format=webp`);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(Buffer.from(await second.arrayBuffer()).equals(Buffer.from(await first.arrayBuffer()))).toBe(true);
    // Served from the bucket: nothing was rendered and written again.
    expect(s3.created.length).toBe(createdBefore);
    expect((await h.fetch(`${pathOf(item.url)}?w=10&format=webp`, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);

    const del = await h.admin('DELETE', `/api/v1/admin/media/${item.id}`);
    expect(del.status).toBe(200);
    expect(await s3.keys(`${prefix}/cache/default/${sha}/`)).toEqual([]);
    expect((await s3.keys(prefix)).filter((k) => k.includes(sha))).toEqual([]);
    expect((await h.fetch(pathOf(item.url))).status).toBe(404);
  });

  it('keeps a shared file until its last media row is deleted', async () => {
    const png = await makeImage('png', 5, 9, '#ffaa00');
    const a = (await (await h.upload(png, 'one.png')).json()).data;
    const b = (await (await h.upload(png, 'two.png')).json()).data;
    await h.admin('DELETE', `/api/v1/admin/media/${a.id}`);
    expect(await s3.keys(`${prefix}/default/${a.filename}`)).toHaveLength(1);
    expect((await h.fetch(pathOf(b.url))).status).toBe(200);
    await h.admin('DELETE', `/api/v1/admin/media/${b.id}`);
    expect(await s3.keys(`${prefix}/default/${a.filename}`)).toEqual([]);
  });

  it('reports the bucket in /readyz, and a store that is gone makes the server not ready', async () => {
    const ready = await h.fetch('/readyz');
    expect(ready.status).toBe(200);
    expect((await ready.json()).checks.storage).toEqual({ ok: true });
    s3.mode = 'down';
    try {
      const down = await h.fetch('/readyz');
      expect(down.status).toBe(503);
      const body = await down.json();
      expect(body.checks.storage.ok).toBe(false);
      expect(body.checks.storage.reason).toContain(`bucket`);
      expect(body.checks.database).toEqual({ ok: true });
    } finally {
      s3.mode = 'ok';
    }
    expect((await h.fetch('/readyz')).status).toBe(200);
  });

  it('answers 503 SERVER_BUSY when the store is gone: no media row, no file', async () => {
    const before = (await h.t.run('media.list', {})).meta?.total ?? (await h.t.run('media.list', {})).data.length;
    s3.mode = 'down';
    let res;
    try {
      res = await h.upload(await makeImage('png', 3, 3, '#010203'), 'lost.png');
    } finally {
      s3.mode = 'ok';
    }
    expect(res.status).toBe(503);
    expect((await res.json()).error).toMatchObject({ code: 'SERVER_BUSY', message: expect.stringContaining('media store') });
    const after = (await h.t.run('media.list', {})).meta?.total ?? (await h.t.run('media.list', {})).data.length;
    expect(after).toBe(before);
  });

  it('answers 503 when a multipart upload fails in the middle: the upload is aborted, no row, no object', async () => {
    const keysBefore = await s3.keys(prefix);
    const listBefore = await h.t.run('media.list', { limit: 100 });
    s3.mode = 'fail-parts';
    let res;
    try {
      res = await h.upload(randomBytes(7 * 1024 * 1024), 'broken.bin');
    } finally {
      s3.mode = 'ok';
    }
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('SERVER_BUSY');
    expect(await s3.keys(prefix)).toEqual(keysBefore);
    const listAfter = await h.t.run('media.list', { limit: 100 });
    expect(listAfter.data.map((m: { id: string }) => m.id)).toEqual(listBefore.data.map((m: { id: string }) => m.id));
    expect(h.events.filter((e) => e.kind === 'media.uploaded' && (e.data as { originalFilename: string }).originalFilename === 'broken.bin')).toEqual([]);
  });
  it('finds stored files that no media row names (cms media orphans), and removes them only with delete', async () => {
    const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true });
    const orphan = `${'ab'.repeat(32)}.png`;
    await client.send(new PutObjectCommand({ Bucket: 'cms-media', Key: `${prefix}/default/${orphan}`, Body: Buffer.from('left behind') }));
    await client.send(new PutObjectCommand({ Bucket: 'cms-media', Key: `${prefix}/gone-project/${orphan}`, Body: Buffer.from('left behind') }));
    client.destroy();
    const kept = (await (await h.upload(await makeImage('png', 4, 4, '#445566'), 'kept.png')).json()).data;
    const found = await h.t.run('media.orphans', {});
    expect(found.orphans).toEqual([
      { project: 'default', filename: orphan, size: 11 },
      { project: 'gone-project', filename: orphan, size: 11 },
    ]);
    expect(found.removed).toBe(0);
    expect(await s3.keys(`${prefix}/default/${orphan}`)).toHaveLength(1);
    const removed = await h.t.run('media.orphans', { delete: true });
    expect(removed.removed).toBe(2);
    expect(await s3.keys(`${prefix}/default/${orphan}`)).toEqual([]);
    expect(await s3.keys(`${prefix}/default/${kept.filename}`)).toHaveLength(1);
    expect((await h.t.run('media.orphans', {})).orphans).toEqual([]);
  });
});

describe(`media in S3 storage, redirect mode (${testDriver})`, () => {
  let s3: TestS3;
  let h: MediaHarness;

  beforeAll(async () => {
    s3 = await startS3();
    h = await createMediaHarness({ config: { storage: { driver: 's3', s3: s3.config('', { redirect: true, redirectSeconds: 120 }) } } });
  });
  afterAll(async () => {
    await h?.close();
    await s3?.close();
  });

  it('answers 302 to a short-lived signed URL of the bucket, and still 304 to a matching If-None-Match', async () => {
    const png = await makeImage('png', 8, 6, '#336699');
    const item = (await (await h.upload(png, 'r.png')).json()).data;
    const res = await h.fetch(pathOf(item.url), { redirect: 'manual' });
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('public, max-age=24');
    const location = new URL(res.headers.get('location')!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.pathname).toBe(`/cms-media/default/${item.filename}`);
    expect(location.searchParams.get('X-Amz-Expires')).toBe('120');
    const bytes = await fetch(location);
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await bytes.arrayBuffer()).equals(Buffer.from(png))).toBe(true);
    const ranged = await fetch(location, { headers: { range: 'bytes=0-3' } });
    expect(ranged.status).toBe(206);

    const cached = await h.fetch(pathOf(item.url), { redirect: 'manual', headers: { 'if-none-match': `"${item.filename.split('.')[0]}"` } });
    expect(cached.status).toBe(304);

    const transformed = await h.fetch(`${pathOf(item.url)}?w=4&format=webp`, { redirect: 'manual' });
    expect(transformed.status).toBe(302);
    const variant = await fetch(transformed.headers.get('location')!);
    expect(variant.headers.get('content-type')).toBe('image/webp');
  });
});
