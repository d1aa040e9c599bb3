import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDb, databaseMigrationsFolder } from '../../src/db/client.js';

/**
 * A fresh PGlite runs initdb, which takes several seconds; every suite instead starts from a
 * dump of one migrated database, made once per set of migrations.
 */
export default async function setup(): Promise<void> {
  const file = templatePath();
  if (existsSync(file)) return;
  mkdirSync(join(file, '..'), { recursive: true });
  const handle = await createDb({ dataDir: 'memory://' });
  await handle.migrateDatabase();
  const blob = await handle.dump!();
  writeFileSync(file + '.tmp', Buffer.from(await blob.arrayBuffer()));
  await handle.close();
  const { renameSync } = await import('node:fs');
  renameSync(file + '.tmp', file);
}

export function templatePath(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(databaseMigrationsFolder).sort()) {
    if (name.endsWith('.sql')) hash.update(readFileSync(join(databaseMigrationsFolder, name)));
  }
  return join(process.cwd(), 'node_modules', '.cache', 'cms-test', `pglite-${hash.digest('hex').slice(0, 16)}.tar.gz`);
}
