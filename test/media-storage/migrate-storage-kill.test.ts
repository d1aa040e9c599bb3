import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInProcess, spawnCli } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';
import { bucket, startS3, type TestS3 } from './support.js';

const fileCount = 24;

/**
 * `cms media migrate-storage` killed (SIGKILL) in the middle of a copy, as a child process of the
 * built CLI (`npm run build` first), then run again: it resumes where it stopped.
 */
describe(`cms media migrate-storage killed mid-way (${testDriver})`, { timeout: 120_000 }, () => {
  let dir: string;
  let s3: TestS3;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  const env = () => ({
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    CMS_S3_BUCKET: bucket,
    CMS_S3_ENDPOINT: s3.endpoint,
    CMS_S3_REGION: 'us-east-1',
    CMS_S3_FORCE_PATH_STYLE: 'true',
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-migrate-kill-'));
    s3 = await startS3();
    database = await createTestDatabase();
    expect((await runCliInProcess(['init', '.', '--yes'], { cwd: dir, env: env() })).code).toBe(0);
    const names: string[] = [];
    for (let i = 0; i < fileCount; i += 1) {
      names.push(`f${i}.bin`);
      writeFileSync(join(dir, `f${i}.bin`), randomBytes(256 * 1024));
    }
    const up = await runCliInProcess(['media', 'upload', ...names, '--json'], { cwd: dir, env: env() });
    expect(up.code, up.stderr).toBe(0);
  });
  afterAll(async () => {
    await database?.drop();
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resumes after the process was killed: the files copied before are skipped, the rest copied, all verified', async () => {
    const child = spawnCli(['media', 'migrate-storage', '--to', 's3', '--json'], { cwd: dir, env: env() });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Killed as soon as the first file has landed in the bucket.
    const started = Date.now();
    while (s3.created.length === 0 && Date.now() - started < 60_000) await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGKILL');
    await exited;
    const before = (await s3.keys()).length;
    expect(before).toBeGreaterThanOrEqual(1);
    expect(before).toBeLessThan(fileCount);

    // The built CLI again, as a child process: it also exits by itself once done (no S3 connection keeps it up).
    const again = await runCli(['media', 'migrate-storage', '--to', 's3', '--json'], { cwd: dir, env: env(), timeoutMs: 60_000 });
    expect(again.code, again.stderr).toBe(0);
    const report = again.json().data;
    expect(report).toMatchObject({ files: fileCount, failed: [], missing: [] });
    // A file whose upload the kill cut short is not in the bucket (an upload shows only once complete), so is copied now.
    expect(report.skipped).toBe(before);
    expect(report.copied).toBe(fileCount - before);
    expect(await s3.keys()).toHaveLength(fileCount);
  });
});
