import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/lib/rows.js';
import { createCms, translateDbError, type Cms } from '../../src/runtime.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/**
 * On PGlite, the queries of a transaction run as named prepared statements (src/db/named-statements.ts).
 * What they read and write must be what the same queries give outside a transaction (PGlite's own
 * path): every column type the schema uses, nulls, errors with their codes; a failed statement is
 * prepared again; and the statements kept stay bounded. On PostgreSQL the same test checks the rows
 * are the same through postgres.js (nothing is named there by this code).
 */
const probe = pgTable('named_probe', {
  id: uuid('id').primaryKey().defaultRandom(),
  label: text('label').notNull().unique(),
  data: jsonb('data').$type<Record<string, unknown> | null>(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  n: integer('n'),
  flag: boolean('flag'),
  tags: text('tags').array(),
});

describe(`named statements in transactions (${testDriver})`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let cms: Cms;
  const root = mkdtempSync(join(tmpdir(), 'cms-named-'));
  const named = async (): Promise<string[]> => testDriver === 'pglite'
    ? rowsOf<{ name: string }>(await cms.db.execute(sql`select name from pg_prepared_statements where name like 'cms_%'`)).map((r) => r.name)
    : [];

  beforeAll(async () => {
    database = await createTestDatabase();
    cms = await createCms({ rootDir: root, databaseUrl: database.url ?? 'memory://' });
    await cms.db.execute(sql`create table named_probe (id uuid primary key default gen_random_uuid(), label text not null unique, data jsonb, at timestamptz, n integer, flag boolean, tags text[])`);
  });
  afterAll(async () => {
    await cms?.close();
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads and writes inside a transaction what the same queries give outside one: every type, nulls, booleans', async () => {
    const at = new Date('2026-03-04T05:06:07.891Z');
    const untyped = sql`select count(*)::int as c, ${'text param'} as t, ${5} as five, ${true} as yes, ${true}::boolean as on from named_probe where n > ${0}`;
    const rows = [
      { label: 'a', data: { nested: { list: [1, 'two', null] } }, at, n: 3, flag: true, tags: ['x', 'y z'] },
      { label: 'b', data: null, at: null, n: null, flag: false, tags: null },
      { label: 'c', data: {}, at, n: -7, flag: null, tags: [] },
    ];
    const inside = await cms.db.transaction(async (tx) => {
      for (const r of rows) await tx.insert(probe).values(r);
      const read = await tx.select().from(probe).orderBy(asc(probe.label));
      const one = await tx.select({ label: probe.label, at: probe.at }).from(probe).where(eq(probe.flag, false));
      const counted = await tx.execute(untyped);
      return { read, one, counted: rowsOf(counted) };
    });
    // Parameters of no stated type are sent as PGlite sends them (true as "true", not "t").
    expect(inside.counted).toEqual(rowsOf(await cms.db.execute(untyped)));
    // (PGlite sends an untyped true as text; postgres.js as a boolean.)
    expect(inside.counted).toEqual([{ c: 1, t: 'text param', five: '5', yes: testDriver === 'pglite' ? 'true' : true, on: true }]);
    const outside = await cms.db.select().from(probe).orderBy(asc(probe.label));
    expect(inside.read).toEqual(outside);
    expect(outside.map(({ id: _id, ...rest }) => rest)).toEqual(rows);
    expect(inside.one).toEqual([{ label: 'b', at: null }]);
    // The same statements again, with other values: the kept statement runs with the new ones.
    const again = await cms.db.transaction((tx) => tx.select({ label: probe.label }).from(probe).where(eq(probe.flag, true)));
    expect(again).toEqual([{ label: 'a' }]);
    if (testDriver === 'pglite') expect((await named()).length).toBeGreaterThan(0);
  });

  it('gives a failed statement its error and code, rolls back, and prepares it again for the next run', async () => {
    const write = (label: string) => cms.db.transaction(async (tx) => {
      await tx.insert(probe).values({ label: `${label}-first` });
      await tx.insert(probe).values({ label });
    });
    const failure = await write('a').then(() => null, (e: unknown) => e);
    expect(translateDbError(failure)).toMatchObject({ code: 'CONFLICT' });
    // Rolled back whole: the first insert of the transaction is not there.
    expect(await cms.db.select().from(probe).where(eq(probe.label, 'a-first'))).toEqual([]);
    // The statement that failed runs again (prepared anew) and writes.
    await write('d');
    expect((await cms.db.select({ label: probe.label }).from(probe).where(eq(probe.label, 'd'))).length).toBe(1);
    // A statement PostgreSQL refuses to prepare is an error, and the next one works.
    await expect(cms.db.transaction((tx) => tx.execute(sql`select * from no_such_table where x = ${1}`))).rejects.toMatchObject({ cause: { code: '42P01' } });
    expect(await cms.db.transaction((tx) => tx.select({ label: probe.label }).from(probe).where(eq(probe.label, 'd')))).toEqual([{ label: 'd' }]);
  });

  it('keeps at most 200 statements, closing the least recently run', async () => {
    await cms.db.transaction(async (tx) => {
      for (let i = 0; i < 260; i++) {
        // 260 statement texts, each with a parameter.
        const rows = rowsOf<{ v: number; w: number }>(await tx.execute(sql.raw(`select ${i} + ${i} as v, `).append(sql`${1}::int as w`)));
        expect(rows[0]).toEqual({ v: 2 * i, w: 1 });
      }
    });
    if (testDriver === 'pglite') {
      const kept = await named();
      expect(kept.length).toBeLessThanOrEqual(200);
      expect(kept.length).toBeGreaterThan(150);
    }
    // Everything still reads right after the evictions.
    expect(await cms.db.transaction((tx) => tx.select({ label: probe.label }).from(probe).where(eq(probe.label, 'd')))).toEqual([{ label: 'd' }]);
  });
});
