import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/db/schema/index.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createCms, type Cms } from '../../src/runtime.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/**
 * On PostgreSQL the engine runs its statements prepared (one round trip each, parsed once per
 * connection), planned for each execution's values; `postgres.preparedStatements: false`
 * (CMS_PG_PREPARED_STATEMENTS=false) turns them off for a pooler that cannot hold them.
 */
describe(`prepared statements (${testDriver})`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const root = mkdtempSync(join(tmpdir(), 'cms-prepared-'));
  const open: Cms[] = [];
  const engine = async (preparedStatements?: boolean) => {
    const cms = await createCms({
      rootDir: root, databaseUrl: database.url ?? 'memory://', ...(preparedStatements === undefined ? {} : { preparedStatements }),
    });
    open.push(cms);
    return cms;
  };
  /** What the connection a read ran on holds, seen from the same transaction. */
  const afterARead = (cms: Cms) => cms.db.transaction(async (tx) => {
    await tx.select({ id: pages.id }).from(pages).where(eq(pages.slug, 'home'));
    const statements = rowsOf<{ statement: string }>(await tx.execute(sql`select statement from pg_prepared_statements`));
    const [mode] = rowsOf<{ plan_cache_mode: string }>(await tx.execute(sql`show plan_cache_mode`));
    return { statements: statements.map((s) => s.statement), planCacheMode: mode?.plan_cache_mode };
  });

  beforeAll(async () => { database = await createTestDatabase(); });
  afterAll(async () => {
    for (const cms of open) await cms.close();
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  if (testDriver === 'postgres') {
    it('prepares the engine\'s statements by default, planned for each execution\'s values', async () => {
      const seen = await afterARead(await engine());
      expect(seen.statements.some((s) => /from "pages" where "pages"\."slug" = \$1/.test(s))).toBe(true);
      expect(seen.planCacheMode).toBe('force_custom_plan');
    });

    it('prepares none with preparedStatements off', async () => {
      const seen = await afterARead(await engine(false));
      // postgres.js prepares its own type look-up when it connects; none of the engine's.
      expect(seen.statements.filter((s) => s.includes('"pages"'))).toEqual([]);
      expect(seen.planCacheMode).toBe('auto');
    });
  } else {
    it('PGlite has no connection to prepare on: the setting off changes nothing there', async () => {
      const cms = await engine(false);
      expect(rowsOf(await cms.db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }]);
    });
  }
});
