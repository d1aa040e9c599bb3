import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/db.js';
import { createMediaHarness, makeImage, pathOf, samples, type MediaHarness } from './support.js';

describe(`media image transforms (${testDriver})`, () => {
  let h: MediaHarness;
  let png: { url: string; filename: string };
  let tall: { url: string };
  let pdf: { url: string };
  beforeAll(async () => {
    h = await createMediaHarness();
    png = (await (await h.upload(await makeImage('png', 40, 20), 'wide.png')).json()).data;
    tall = (await (await h.upload(await makeImage('jpeg', 10, 200), 'tall.jpg')).json()).data;
    pdf = (await (await h.upload(samples.pdf, 'doc.pdf')).json()).data;
  });
  afterAll(async () => { await h.close(); });

  const get = async (url: string, query: string) => {
    const res = await h.fetch(`${pathOf(url)}?${query}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    return { res, bytes, meta: res.status === 200 ? await sharp(bytes).metadata() : null };
  };

  it('resizes keeping proportions when only a width is given', async () => {
    const { res, meta } = await get(png.url, 'w=10');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect([meta!.format, meta!.width, meta!.height]).toEqual(['png', 10, 5]);
  });

  it('crops to both sides with fit=cover and converts formats', async () => {
    const webp = await get(png.url, 'w=16&h=16&fit=cover&format=webp');
    expect(webp.res.headers.get('content-type')).toBe('image/webp');
    expect([webp.meta!.format, webp.meta!.width, webp.meta!.height]).toEqual(['webp', 16, 16]);
    const avif = await get(png.url, 'h=10&format=avif&q=40');
    expect(avif.res.headers.get('content-type')).toBe('image/avif');
    expect([avif.meta!.width, avif.meta!.height]).toEqual([20, 10]);
    const jpeg = await get(png.url, 'format=jpeg&q=50');
    expect([jpeg.meta!.format, jpeg.meta!.width, jpeg.meta!.height]).toEqual(['jpeg', 40, 20]);
  });

  it('applies each fit', async () => {
    const sizes: Record<string, [number, number]> = { cover: [30, 30], contain: [30, 30], fill: [30, 30], inside: [30, 15], outside: [60, 30] };
    for (const [fit, size] of Object.entries(sizes)) {
      const { meta } = await get(png.url, `w=30&h=30&fit=${fit}`);
      expect([meta!.width, meta!.height], fit).toEqual(size);
    }
  });

  it('keeps output within 4096 px a side', async () => {
    const { res, meta } = await get(tall.url, 'w=4096');
    expect(res.status).toBe(200);
    expect(meta!.height).toBe(4096);
    expect(meta!.width).toBe(205);
    const outside = await get(png.url, 'w=4096&h=4096&fit=outside');
    expect([outside.meta!.width, outside.meta!.height]).toEqual([4096, 2048]);
  });

  it('caches each result on disk and serves it again with the same ETag', async () => {
    const first = await get(png.url, 'w=12&format=webp');
    const cacheDir = join(h.t.config.dataDir, 'cache', 'media', 'default', png.filename.split('.')[0]!);
    expect(existsSync(cacheDir)).toBe(true);
    const files = readdirSync(cacheDir);
    const second = await get(png.url, 'format=webp&w=12&v=2');
    expect(second.res.headers.get('etag')).toBe(first.res.headers.get('etag'));
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(readdirSync(cacheDir)).toEqual(files);
    const revalidated = await h.fetch(`${pathOf(png.url)}?w=12&format=webp`, { headers: { 'if-none-match': first.res.headers.get('etag')! } });
    expect(revalidated.status).toBe(304);
    // A different transform is a different resource.
    expect((await get(png.url, 'w=13&format=webp')).res.headers.get('etag')).not.toBe(first.res.headers.get('etag'));
  });

  it('answers 400 INVALID_QUERY for invalid parameters', async () => {
    const bad = ['w=0', 'w=4097', 'h=-1', 'w=abc', 'w=1.5', 'fit=stretch', 'format=gif', 'format=JPEG', 'q=0', 'q=101', 'w=10&w=20', 'format='];
    for (const query of bad) {
      const res = await h.fetch(`${pathOf(png.url)}?${query}`);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.error.code, query).toBe('INVALID_QUERY');
      expect(body.error.details.parameter, query).toBeTruthy();
    }
  });

  it('answers simultaneous requests for a new transform with the same bytes', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => get(png.url, 'w=17&format=avif')));
    for (const r of results) {
      expect(r.res.status).toBe(200);
      expect(r.bytes.equals(results[0]!.bytes)).toBe(true);
    }
    const cacheDir = join(h.t.config.dataDir, 'cache', 'media', 'default', png.filename.split('.')[0]!);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('does not decode huge sources for transforms but serves them as they are', async () => {
    // A PNG whose header claims 12000 × 12000 pixels (the header CRC fixed up to match).
    const bytes = Buffer.from(await sharp({ create: { width: 2, height: 2, channels: 3, background: '#ffffff' } }).png().toBuffer());
    bytes.writeUInt32BE(12000, 16);
    bytes.writeUInt32BE(12000, 20);
    bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)) >>> 0, 29);
    const huge = (await (await h.upload(bytes, 'huge.png')).json()).data;
    expect([huge.width, huge.height]).toEqual([12000, 12000]);
    const res = await h.fetch(`${pathOf(huge.url)}?format=webp`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'INVALID_QUERY', details: { parameter: 'format' } });
    expect((await h.fetch(pathOf(huge.url))).status).toBe(200);
  });

  it('refuses transforms of files that are not raster images', async () => {
    const res = await h.fetch(`${pathOf(pdf.url)}?w=10`);
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('INVALID_QUERY');
    // Without transform parameters the file is served as it is.
    expect((await h.fetch(`${pathOf(pdf.url)}?download=1`)).status).toBe(200);
  });
});
