import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/db.js';
import { createMediaHarness, type MediaHarness } from './support.js';

/**
 * Uploads stream to a temporary file and only their first 64 KB are kept for the type; whether a
 * file is text is still decided on all of its bytes, checked as they flow.
 */
describe(`types of streamed uploads (${testDriver})`, () => {
  let h: MediaHarness;
  beforeAll(async () => {
    h = await createMediaHarness({ config: { maxUploadBytes: 1_000_000 } });
    // What a crashed process could have left: one file two days old, one from a minute ago.
    mkdirSync(tempDir(), { recursive: true });
    writeFileSync(join(tempDir(), 'old.upload'), 'left behind');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(join(tempDir(), 'old.upload'), twoDaysAgo, twoDaysAgo);
    writeFileSync(join(tempDir(), 'recent.upload'), 'maybe still in use');
  });
  afterAll(async () => { await h.close(); });

  const tempDir = () => join(h.t.config.dataDir, 'tmp', 'uploads');
  const upload = async (bytes: Uint8Array, name: string) => {
    const res = await h.upload(bytes, name);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.data;
  };

  it('reads a large text file as text/plain, multibyte characters across chunks included', async () => {
    expect((await upload(Buffer.from('hello world\n'.repeat(20_000)), 'a.txt')).mimeType).toBe('text/plain');
    expect((await upload(Buffer.from('é€😀'.repeat(40_000)), 'b.txt')).mimeType).toBe('text/plain');
  });

  it('reads a file that is text at first but not further on as application/octet-stream', async () => {
    const text = Buffer.from('a'.repeat(200_000));
    const withNul = Buffer.concat([text, Buffer.from([0])]);
    expect((await upload(withNul, 'c.txt')).mimeType).toBe('application/octet-stream');
    const invalid = Buffer.concat([text, Buffer.from([0xc3, 0x28]), text]);
    expect((await upload(invalid, 'd.txt')).mimeType).toBe('application/octet-stream');
    const truncated = Buffer.concat([text, Buffer.from([0xe2, 0x82])]);
    expect((await upload(truncated, 'e.txt')).mimeType).toBe('application/octet-stream');
  });

  it('reads an SVG by its start and leaves no temporary file; a day-old one left by a crash is removed', async () => {
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="30" height="20"><!--${'x'.repeat(100_000)}--></svg>`);
    expect(await upload(svg, 'f.svg')).toMatchObject({ mimeType: 'image/svg+xml', width: 30, height: 20 });
    // Only the recent file of another process is still there.
    expect(readdirSync(tempDir())).toEqual(['recent.upload']);
  });
});
