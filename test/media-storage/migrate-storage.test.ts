import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';
import { makeImage } from '../media/support.js';
import { bucket, startS3, type TestS3 } from './support.js';

/**
 * `cms media migrate-storage`: the CLI in process on one project folder, copying between the data
 * folder and a real S3-protocol server (s3rver) in this process, in order.
 */
describe(`cms media migrate-storage (${testDriver})`, () => {
  let dir: string;
  let s3: TestS3;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const files: Record<string, Buffer> = {};
  const media: Record<string, { id: string; filename: string }> = {};

  const env = (extra: Record<string, string> = {}) => ({
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    CMS_S3_BUCKET: bucket,
    CMS_S3_ENDPOINT: s3.endpoint,
    CMS_S3_REGION: 'us-east-1',
    CMS_S3_FORCE_PATH_STYLE: 'true',
    CMS_S3_PREFIX: 'cms',
    ...extra,
  });
  const cli = (args: string[], extra: Record<string, string> = {}) => runCliInProcess([...args, '--json'], { cwd: dir, env: env(extra) });
  const localDir = () => join(dir, '.cms', 'media', 'default');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-migrate-storage-'));
    s3 = await startS3();
    database = await createTestDatabase();
    expect((await cli(['init', '.', '--yes'])).code).toBe(0);
    files['a.png'] = await makeImage('png', 12, 10);
    files['b.png'] = await makeImage('png', 9, 9, '#aa0000');
    files['c.bin'] = randomBytes(64 * 1024);
    for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
    writeFileSync(join(dir, 'copy-of-a.png'), files['a.png']);
    for (const name of ['a.png', 'b.png', 'c.bin', 'copy-of-a.png']) {
      const r = await cli(['media', 'upload', name]);
      expect(r.code, r.stderr).toBe(0);
      media[name] = r.json().data;
    }
  });
  afterAll(async () => {
    await database?.drop();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uploads into the data folder while the local store is configured (S3 settings alone switch nothing)', async () => {
    expect(readdirSync(localDir()).sort()).toEqual([media['a.png']!.filename, media['b.png']!.filename, media['c.bin']!.filename].sort());
    expect(await s3.keys()).toEqual([]);
  });

  it('refuses to copy into the store in use', async () => {
    const r = await cli(['media', 'migrate-storage', '--to', 'local']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('already kept in local storage') });
    const bad = await runCliInProcess(['media', 'migrate-storage', '--to', 'ftp'], { cwd: dir, env: env() });
    expect(bad.code).toBe(2);
  });

  it('is interrupted by a store that goes away mid-way: reports what was copied and what failed, exit 1', async () => {
    // The first file's upload passes; the store is gone from the second on.
    s3.downAfterPuts = 1;
    const r = await cli(['media', 'migrate-storage', '--to', 's3']);
    s3.mode = 'ok';
    s3.downAfterPuts = null;
    expect(r.code, r.stderr).toBe(1);
    const report = r.json().data;
    expect(report).toMatchObject({ from: expect.stringMatching(/^local:/), to: `s3://${bucket}/cms/`, files: 3, copied: 1, skipped: 0, missing: [] });
    expect(report.failed).toHaveLength(2);
    expect(await s3.keys()).toHaveLength(1);
  });

  it('resumes: files already copied and verified are skipped, the rest are copied and verified', async () => {
    const r = await cli(['media', 'migrate-storage', '--to', 's3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data).toMatchObject({ files: 3, copied: 2, skipped: 1, failed: [], missing: [] });
    expect(await s3.keys()).toEqual([media['a.png']!.filename, media['b.png']!.filename, media['c.bin']!.filename].map((f) => `cms/default/${f}`).sort());
    const again = await cli(['media', 'migrate-storage', '--to', 's3']);
    expect(again.json().data).toMatchObject({ files: 3, copied: 0, skipped: 3 });
  });

  it('copies a file again when the copy in the target does not verify', async () => {
    // A damaged copy: the bytes under the name of b.png are not b.png's.
    const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true });
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: `cms/default/${media['b.png']!.filename}`, Body: Buffer.from('damaged') }));
    client.destroy();
    const r = await cli(['media', 'migrate-storage', '--to', 's3']);
    expect(r.json().data).toMatchObject({ copied: 1, skipped: 2, failed: [] });
  });

  it('after the switch (CMS_STORAGE=s3) the files come from the bucket, and copy back to the data folder', async () => {
    rmSync(join(dir, '.cms', 'media'), { recursive: true, force: true });
    const got = await cli(['media', 'get', media['c.bin']!.id], { CMS_STORAGE: 's3' });
    expect(got.code, got.stderr).toBe(0);
    const refused = await cli(['media', 'migrate-storage', '--to', 's3'], { CMS_STORAGE: 's3' });
    expect(refused.code).toBe(1);

    const back = await cli(['media', 'migrate-storage', '--to', 'local'], { CMS_STORAGE: 's3' });
    expect(back.code, back.stderr).toBe(0);
    expect(back.json().data).toMatchObject({ from: `s3://${bucket}/cms/`, to: expect.stringMatching(/^local:/), files: 3, copied: 3, skipped: 0, failed: [] });
    for (const name of ['a.png', 'b.png', 'c.bin']) {
      expect(readFileSync(join(localDir(), media[name]!.filename)).equals(files[name]!), name).toBe(true);
    }
    const resumed = await cli(['media', 'migrate-storage', '--to', 'local'], { CMS_STORAGE: 's3' });
    expect(resumed.json().data).toMatchObject({ copied: 0, skipped: 3 });
  });

  it('reports a media row whose file is in neither store as missing, and copies the rest', async () => {
    const b = media['b.png']!.filename;
    rmSync(join(localDir(), b));
    const { S3Client, DeleteObjectCommand } = await import('@aws-sdk/client-s3');
    const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true });
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `cms/default/${b}` }));
    client.destroy();
    const r = await cli(['media', 'migrate-storage', '--to', 's3']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().data).toMatchObject({ files: 3, skipped: 2, copied: 0, failed: [], missing: [{ project: 'default', filename: b }] });
  });

  it('cms media orphans lists a file in the data folder that no media row names, and --delete removes it', async () => {
    const orphan = `${'cd'.repeat(32)}.bin`;
    writeFileSync(join(localDir(), orphan), 'no row names me');
    const listed = await cli(['media', 'orphans']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.json().data).toMatchObject({ store: expect.stringMatching(/^local:/), orphans: [{ project: 'default', filename: orphan, size: 15 }], removed: 0 });
    const removed = await cli(['media', 'orphans', '--delete']);
    expect(removed.json().data).toMatchObject({ removed: 1 });
    expect(existsSync(join(localDir(), orphan))).toBe(false);
    expect(existsSync(join(localDir(), media['a.png']!.filename))).toBe(true);
  });
});
