import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/db.js';
import { createMediaHarness, makeImage, pathOf, samples, type MediaHarness } from './support.js';

describe(`media uploads (${testDriver})`, () => {
  let h: MediaHarness;
  beforeAll(async () => { h = await createMediaHarness({ config: { maxUploadBytes: 300_000 } }); });
  afterAll(async () => { await h.close(); });

  const mediaDir = () => join(h.t.config.dataDir, 'media', 'default');

  it('stores each kind of file with the type read from its bytes, and image sizes', async () => {
    const cases: Array<{ name: string; bytes: Buffer; mimeType: string; ext: string; size?: [number, number] }> = [
      { name: 'a.png', bytes: await makeImage('png', 40, 20), mimeType: 'image/png', ext: 'png', size: [40, 20] },
      { name: 'b.jpg', bytes: await makeImage('jpeg', 33, 17), mimeType: 'image/jpeg', ext: 'jpg', size: [33, 17] },
      { name: 'c.gif', bytes: await makeImage('gif', 12, 9), mimeType: 'image/gif', ext: 'gif', size: [12, 9] },
      { name: 'd.webp', bytes: await makeImage('webp', 25, 30), mimeType: 'image/webp', ext: 'webp', size: [25, 30] },
      { name: 'e.avif', bytes: await makeImage('avif', 16, 24), mimeType: 'image/avif', ext: 'avif', size: [16, 24] },
      { name: 'f.svg', bytes: samples.svg, mimeType: 'image/svg+xml', ext: 'svg', size: [30, 20] },
      { name: 'g.pdf', bytes: samples.pdf, mimeType: 'application/pdf', ext: 'pdf' },
      { name: 'h.mp4', bytes: samples.mp4, mimeType: 'video/mp4', ext: 'mp4' },
      { name: 'i.webm', bytes: samples.webm, mimeType: 'video/webm', ext: 'webm' },
      { name: 'j.mp3', bytes: samples.mp3, mimeType: 'audio/mpeg', ext: 'mp3' },
      { name: 'k.wav', bytes: samples.wav, mimeType: 'audio/wav', ext: 'wav' },
      { name: 'l.zip', bytes: samples.zip, mimeType: 'application/zip', ext: 'zip' },
      { name: 'm.txt', bytes: samples.text, mimeType: 'text/plain', ext: 'txt' },
      { name: 'n.dat', bytes: samples.binary, mimeType: 'application/octet-stream', ext: 'bin' },
    ];
    for (const c of cases) {
      const res = await h.upload(c.bytes, c.name, { altText: `alt of ${c.name}`, folder: 'kinds' });
      expect(res.status, c.name).toBe(201);
      const { data } = await res.json();
      expect(data, c.name).toMatchObject({ originalFilename: c.name, mimeType: c.mimeType, size: c.bytes.length, altText: `alt of ${c.name}`, folder: 'kinds' });
      expect(data.filename, c.name).toMatch(new RegExp(`^[0-9a-f]{64}\\.${c.ext}$`));
      expect(data.url).toBe(`${h.t.config.baseUrl}/api/v1/media/default/${data.filename}`);
      if (c.size) expect([data.width, data.height], c.name).toEqual(c.size);
      else expect(data, c.name).not.toHaveProperty('width');
      expect(existsSync(join(mediaDir(), data.filename))).toBe(true);
      const file = await h.fetch(pathOf(data.url));
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(c.bytes), c.name).toBe(true);
      expect(file.headers.get('content-type')).toContain(c.mimeType);
    }
  });

  it('emits media.uploaded with the created media object', async () => {
    h.events.length = 0;
    const res = await h.upload(await makeImage('png', 5, 5, '#ff0000'), 'red.png');
    const { data } = await res.json();
    expect(h.events).toEqual([{ projectId: expect.any(String), kind: 'media.uploaded', data }]);
    expect(Object.keys(data).sort()).toEqual(['createdAt', 'filename', 'folder', 'height', 'id', 'mimeType', 'originalFilename', 'size', 'updatedAt', 'url', 'width']);
    expect(data.folder).toBeNull();
  });

  it('ignores the type the client claims: a PNG sent as text is a PNG, HTML sent as PNG is text', async () => {
    const png = await makeImage('png', 8, 8, '#00ff00');
    const spoofed = await (await h.upload(png, 'notes.txt', { type: 'text/plain' })).json();
    expect(spoofed.data).toMatchObject({ mimeType: 'image/png', width: 8, height: 8 });
    expect(spoofed.data.filename).toMatch(/\.png$/);

    const html = await (await h.upload(samples.html, 'photo.png', { type: 'image/png' })).json();
    expect(html.data.mimeType).toBe('text/plain');
    expect(html.data.filename).toMatch(/\.txt$/);
    const served = await h.fetch(pathOf(html.data.url));
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses bytes that start like an image but are not one', async () => {
    const broken = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('garbage')]);
    const res = await h.upload(broken, 'broken.png');
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('VALIDATION_FAILED');
  });

  it('serves SVG with a sandboxing content security policy', async () => {
    const { data } = await (await h.upload(samples.svg, 'logo.svg')).json();
    const res = await h.fetch(pathOf(data.url));
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('stores the same bytes once on disk; each upload still gets its own media item', async () => {
    const bytes = await makeImage('png', 11, 7, '#123456');
    const first = (await (await h.upload(bytes, 'one.png', { altText: 'first' })).json()).data;
    const second = (await (await h.upload(bytes, 'two.png', { altText: 'second', folder: 'copies' })).json()).data;
    expect(second.id).not.toBe(first.id);
    expect(second.filename).toBe(first.filename);
    expect(second).toMatchObject({ originalFilename: 'two.png', altText: 'second', folder: 'copies' });
    // The answer says the bytes were already there; the first upload's did not.
    expect(first.deduplicated).toBeUndefined();
    expect(second.deduplicated).toBe(true);
    expect((await h.admin('GET', `/api/v1/admin/media/${second.id}`).then((r) => r.json())).data.deduplicated).toBeUndefined();
    expect(readdirSync(mediaDir()).filter((f) => f === first.filename)).toHaveLength(1);
    expect(readdirSync(mediaDir()).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    // The file stays while another item uses it and goes with the last one.
    expect((await h.admin('DELETE', `/api/v1/admin/media/${first.id}`)).status).toBe(200);
    expect(existsSync(join(mediaDir(), first.filename))).toBe(true);
    expect((await h.fetch(pathOf(second.url))).status).toBe(200);
    expect((await h.admin('DELETE', `/api/v1/admin/media/${second.id}`)).status).toBe(200);
    expect(existsSync(join(mediaDir(), first.filename))).toBe(false);
    expect((await h.fetch(pathOf(second.url))).status).toBe(404);
  });

  it('answers 413 over the upload limit, through HTTP and through the operation', async () => {
    const big = Buffer.alloc(300_001, 0x41);
    const res = await h.upload(big, 'big.txt');
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    await expect(h.t.run('media.upload', { data: big.toString('base64'), filename: 'big.txt' })).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const ok = await h.t.run('media.upload', { data: Buffer.alloc(300_000, 0x41).toString('base64'), filename: 'fits.txt' });
    expect(ok.size).toBe(300_000);
  });

  it('takes base64 input, refuses what is not base64, empty files and bad folder names', async () => {
    const view = await h.t.run('media.upload', { data: samples.text.toString('base64'), filename: 'C:\\fakepath\\..\\notes.txt', altText: 'cli' });
    expect(view).toMatchObject({ originalFilename: 'notes.txt', mimeType: 'text/plain', altText: 'cli' });
    await expect(h.t.run('media.upload', { data: 'not base64!', filename: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(h.t.run('media.upload', { data: '', filename: 'x' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(h.t.run('media.upload', { data: 'QQ==', filename: 'x', folder: '../up' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('needs a secret key with media:write', async () => {
    const png = await makeImage('png', 4, 4);
    const none = await h.upload(png, 'a.png', { key: null });
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('UNAUTHORIZED');
    for (const key of [h.keys.public, h.keys.secretNoMedia]) {
      const res = await h.upload(png, 'a.png', { key });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('FORBIDDEN');
    }
    // A preview key is no API key: writes need a secret one.
    const preview = await h.fetch('/api/v1/media', { method: 'POST', headers: { 'x-preview-key': h.keys.preview, 'idempotency-key': 'p1' }, body: new FormData() });
    expect(preview.status).toBe(401);
  });

  it('needs an Idempotency-Key and replays the first answer to a repeat', async () => {
    const png = await makeImage('png', 6, 6, '#0000ff');
    const missing = await h.upload(png, 'blue.png', { idempotencyKey: null });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.code).toBe('IDEMPOTENCY_KEY_REQUIRED');

    h.events.length = 0;
    const first = await h.upload(png, 'blue.png', { idempotencyKey: 'upload-blue-1' });
    expect(first.status).toBe(201);
    const created = await first.json();
    const again = await h.upload(png, 'blue.png', { idempotencyKey: 'upload-blue-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(created);
    expect(h.events).toHaveLength(1);
    const listed = await h.t.run('media.list', { search: 'blue.png' });
    expect(listed.pagination.total).toBe(1);

    const other = await h.upload(await makeImage('png', 6, 6, '#00ffff'), 'blue.png', { idempotencyKey: 'upload-blue-1' });
    expect(other.status).toBe(422);
    expect((await other.json()).error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses a request that is not multipart or has no file', async () => {
    const json = await h.fetch('/api/v1/media', { method: 'POST', headers: { 'x-api-key': h.keys.secret, 'idempotency-key': 'json-1', 'content-type': 'application/json' }, body: '{}' });
    expect(json.status).toBe(400);
    const form = new FormData();
    form.set('altText', 'no file');
    const empty = await h.fetch('/api/v1/media', { method: 'POST', headers: { 'x-api-key': h.keys.secret, 'idempotency-key': 'empty-1' }, body: form });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error.code).toBe('VALIDATION_FAILED');
  });

  it('answers 400 to a body that ends inside a file, and goes on serving', async () => {
    const cut = '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello';
    for (const n of [1, 2]) {
      const res = await h.fetch('/api/v1/media', {
        method: 'POST', body: cut,
        headers: { 'x-api-key': h.keys.secret, 'idempotency-key': `cut-${n}`, 'content-type': 'multipart/form-data; boundary=XX' },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The multipart body could not be read' });
    }
    expect((await h.upload(samples.text, 'after.txt')).status).toBe(201);
  });

  it('bulk-uploads through the admin API with one event per file', async () => {
    h.events.length = 0;
    const form = new FormData();
    form.append('files', new Blob([await makeImage('png', 3, 3, '#010101')]), 'one.png');
    form.append('files', new Blob([samples.pdf]), 'two.pdf');
    form.set('folder', 'bulk');
    const res = await h.admin('POST', '/api/v1/admin/media/bulk-upload', { body: form });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data.map((m: { originalFilename: string; mimeType: string; folder: string }) => [m.originalFilename, m.mimeType, m.folder]))
      .toEqual([['one.png', 'image/png', 'bulk'], ['two.pdf', 'application/pdf', 'bulk']]);
    expect(h.events.map((e) => [e.kind, (e.data as { id: string }).id])).toEqual(data.map((m: { id: string }) => ['media.uploaded', m.id]));
  });

  it('uploads through the admin API for editors, not viewers', async () => {
    const form = () => {
      const f = new FormData();
      f.set('file', new Blob([samples.text]), 'admin.txt');
      f.set('altText', 'from admin');
      return f;
    };
    const res = await h.admin('POST', '/api/v1/admin/media/upload', { body: form() });
    expect(res.status).toBe(201);
    expect((await res.json()).data).toMatchObject({ originalFilename: 'admin.txt', altText: 'from admin' });
    const viewer = await h.admin('POST', '/api/v1/admin/media/upload', { body: form(), cookie: h.viewerCookie });
    expect(viewer.status).toBe(403);
  });
});
