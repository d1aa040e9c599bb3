import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/** `cms media upload` running the engine itself stages each file to a temporary copy, removed afterwards. */
describe(`cms media upload of larger files (${testDriver})`, () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const cli = (...args: string[]) =>
    runCliInProcess(args, { cwd: dir, env: { ...(database.url ? { DATABASE_URL: database.url } : {}), CMS_MAX_UPLOAD_BYTES: String(8 * 1024 * 1024) } });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-media-cli-staged-'));
    database = await createTestDatabase();
    expect((await cli('init', '.', '--yes')).code).toBe(0);
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores the bytes of the file exactly, with no temporary file left', async () => {
    const bytes = randomBytes(6 * 1024 * 1024);
    writeFileSync(join(dir, 'big.bin'), bytes);
    writeFileSync(join(dir, 'b.txt'), 'déjà vu\n'.repeat(100_000));
    const r = await cli('media', 'upload', 'big.bin', 'b.txt', '--json');
    expect(r.code, r.stderr).toBe(0);
    const [big, text] = r.json().data;
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(big).toMatchObject({ size: bytes.byteLength, mimeType: 'application/octet-stream', filename: `${sha256}.bin` });
    expect(text).toMatchObject({ mimeType: 'text/plain' });
    const stored = readFileSync(join(dir, '.cms', 'media', 'default', `${sha256}.bin`));
    expect(createHash('sha256').update(stored).digest('hex')).toBe(sha256);
    const temp = join(dir, '.cms', 'tmp', 'uploads');
    expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
  });
});
