import { count, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { databaseMigrationsFolder, isNotMigratedYet, type Db } from '../../db/client.js';
import { projects } from '../../db/schema/index.js';
import { rowsOf } from '../../lib/rows.js';
import { defineOperation } from '../operation.js';

const journalSchema = z.object({ entries: z.array(z.object({ idx: z.number(), tag: z.string(), when: z.number() })) });

export interface DbStatus {
  server: string;
  migrations: Array<{ name: string; applied: boolean }>;
  pending: number;
  projects: number;
  project: string;
}

/**
 * The database as it is: its server, the shipped migrations and which of them are applied, and
 * how many projects it holds. Read without applying anything (a database no migration has run on
 * yet has them all pending, and no projects).
 */
export async function readDbStatus(db: Db, project: string): Promise<DbStatus> {
  const journal = journalSchema.parse(JSON.parse(readFileSync(join(databaseMigrationsFolder, 'meta', '_journal.json'), 'utf8')));
  const applied = await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at`)
    .then((r) => rowsOf<{ created_at: string | number }>(r), (e: unknown) => {
      if (isNotMigratedYet(e)) return [];
      throw e;
    });
  const appliedAt = new Set(applied.map((r) => Number(r.created_at)));
  const projectCount = await db.select({ n: count() }).from(projects)
    .then(([row]) => row?.n ?? 0, (e: unknown) => {
      if (isNotMigratedYet(e)) return 0;
      throw e;
    });
  const version = rowsOf<{ v: string }>(await db.execute(sql`select version() as v`))[0]?.v ?? '';
  return {
    server: version.split(' on ')[0] ?? version,
    migrations: journal.entries.map((e) => ({ name: e.tag, applied: appliedAt.has(e.when) })),
    pending: journal.entries.filter((e) => !appliedAt.has(e.when)).length,
    projects: projectCount,
    project,
  };
}

export const dbStatus = defineOperation({
  name: 'db.status',
  input: z.strictObject({}),
  access: { role: 'developer' },
  write: false,
  run: (ctx): Promise<DbStatus> => readDbStatus(ctx.db, ctx.project.slug),
});
