import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { existsSync, readFileSync } from 'node:fs';
import { createDb, isPostgresUrl, type DbHandle } from '../../src/db/client.js';
import { templatePath } from './global-setup.js';

/** Which database this run of the suite uses: PGlite always, PostgreSQL when DATABASE_URL says so. */
export const testDriver: 'pglite' | 'postgres' = isPostgresUrl(process.env.DATABASE_URL) ? 'postgres' : 'pglite';

/**
 * A fresh, empty database for one suite: an in-memory PGlite, or a new database on the
 * PostgreSQL server of DATABASE_URL (dropped again by `drop`).
 */
export async function createTestDatabase(): Promise<{ url: string | undefined; handle: () => Promise<DbHandle>; drop(): Promise<void> }> {
  const base = process.env.DATABASE_URL;
  if (!isPostgresUrl(base)) {
    const template = templatePath();
    const loadDataDir = existsSync(template) ? new Blob([readFileSync(template)]) : undefined;
    return { url: undefined, handle: () => createDb({ dataDir: 'memory://', loadDataDir }), drop: async () => {} };
  }
  const name = `cms_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    handle: () => createDb({ databaseUrl: url.toString() }),
    async drop() {
      const a = postgres(base, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists "${name}" with (force)`).catch(() => {});
      await a.end();
    },
  };
}
