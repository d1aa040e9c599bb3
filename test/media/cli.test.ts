import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';
import { makeImage } from './support.js';

/** `cms media …` run in process on one project folder, in order. */
describe(`cms media (${testDriver})`, () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  const cli = (...args: string[]) =>
    runCliInProcess(args, { cwd: dir, env: { ...(database.url ? { DATABASE_URL: database.url } : {}), CMS_MAX_UPLOAD_BYTES: '100000' } });
  const ok = async (...args: string[]) => {
    const r = await cli(...args, '--json');
    expect(r.code, r.stderr).toBe(0);
    return r.json();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-media-cli-'));
    database = await createTestDatabase();
    expect((await cli('init', '.', '--yes')).code).toBe(0);
    writeFileSync(join(dir, 'photo.png'), await makeImage('png', 12, 10));
    writeFileSync(join(dir, 'notes.txt'), 'plain notes\n');
    writeFileSync(join(dir, 'huge.bin'), Buffer.alloc(100_001, 1));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  let photo: { id: string; filename: string };
  it('uploads one file, or several at once, with alt text and folder', async () => {
    const one = await ok('media', 'upload', 'photo.png', '--alt', 'A photo', '--folder', 'pics');
    photo = one.data;
    expect(one.data).toMatchObject({ originalFilename: 'photo.png', mimeType: 'image/png', width: 12, height: 10, altText: 'A photo', folder: 'pics' });
    const two = await ok('media', 'upload', 'notes.txt', 'photo.png');
    expect(two.data.map((m: { originalFilename: string }) => m.originalFilename)).toEqual(['notes.txt', 'photo.png']);
    expect(two.data[1].filename).toBe(photo.filename);
  });

  it('refuses files over the limit and paths that are not files', async () => {
    const big = await cli('media', 'upload', 'huge.bin');
    expect(big.code).toBe(1);
    expect(big.stderr).toContain('PAYLOAD_TOO_LARGE');
    const missing = await cli('media', 'upload', 'nope.png');
    expect(missing.code).toBe(2);
  });

  it('lists, gets, updates and moves', async () => {
    const all = await ok('media', 'list');
    expect(all.pagination.total).toBe(3);
    const pics = await ok('media', 'list', '--folder', 'pics');
    expect(pics.data.map((m: { id: string }) => m.id)).toEqual([photo.id]);
    const human = await cli('media', 'list', '--type', 'text');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('notes.txt');
    expect((await ok('media', 'get', photo.id)).data.id).toBe(photo.id);
    const updated = await ok('media', 'update', photo.id, '--alt', 'Better', '--filename', 'better.png');
    expect(updated.data).toMatchObject({ altText: 'Better', originalFilename: 'better.png' });
    expect((await ok('media', 'move', photo.id, '--folder', 'album')).data.folder).toBe('album');
    expect((await ok('media', 'folders', 'rename', 'album', 'gallery')).data).toEqual({ name: 'gallery', moved: 1 });
    const folders = await ok('media', 'folders', 'list');
    expect(folders.data).toEqual(expect.arrayContaining([{ name: 'gallery', count: 1 }]));
    expect((await ok('media', 'move', photo.id, '--root')).data.folder).toBeNull();
    expect((await cli('media', 'move', photo.id)).code).toBe(2);
  });

  it('deletes, and says what to do for an unknown id', async () => {
    const deleted = await ok('media', 'delete', photo.id);
    expect(deleted.data).toEqual({ id: photo.id, filename: photo.filename, originalFilename: 'better.png' });
    const again = await cli('media', 'delete', photo.id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('NOT_FOUND');
  });
});
