import { count, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { databaseMigrationsFolder } from '../../db/client.js';
import { projects } from '../../db/schema/index.js';
import { rowsOf } from '../../lib/rows.js';
import { defineOperation } from '../operation.js';

const journalSchema = z.object({ entries: z.array(z.object({ idx: z.number(), tag: z.string(), when: z.number() })) });

export const dbStatus = defineOperation({
  name: 'db.status',
  input: z.strictObject({}),
  access: { role: 'developer' },
  write: false,
  async run(ctx) {
    const journal = journalSchema.parse(JSON.parse(readFileSync(join(databaseMigrationsFolder, 'meta', '_journal.json'), 'utf8')));
    const applied = rowsOf<{ created_at: string | number }>(
      await ctx.db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at`),
    );
    const appliedAt = new Set(applied.map((r) => Number(r.created_at)));
    const [projectCount] = await ctx.db.select({ n: count() }).from(projects);
    const version = rowsOf<{ v: string }>(await ctx.db.execute(sql`select version() as v`))[0]?.v ?? '';
    return {
      server: version.split(' on ')[0] ?? version,
      migrations: journal.entries.map((e) => ({ name: e.tag, applied: appliedAt.has(e.when) })),
      pending: journal.entries.filter((e) => !appliedAt.has(e.when)).length,
      projects: projectCount?.n ?? 0,
      project: ctx.project.slug,
    };
  },
});
