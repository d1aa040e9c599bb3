import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, lt, sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtOnce, encodedAs } from '../../src/db/built-once.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createCms, type Cms } from '../../src/runtime.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/**
 * builtOnce: a statement drizzle builds once, run many times with new values, on the database and
 * in transactions. What it writes and returns must be what the same statement built each time
 * writes and returns: dates, JSON, nulls, column defaults.
 */
const probe = pgTable('built_once_probe', {
  id: uuid('id').primaryKey().defaultRandom(),
  label: text('label').notNull(),
  data: jsonb('data').$type<Record<string, unknown> | null>(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }),
  n: integer('n').notNull().default(7),
});

const insertProbe = builtOnce<typeof probe.$inferInsert, typeof probe.$inferSelect>(
  (db, v) => db.insert(probe).values(v).returning(),
  { id: probe.id, label: probe.label, data: probe.data, at: probe.at, n: probe.n },
);
const relabelBefore = builtOnce<{ label: string; before: Date }, { id: string }>(
  (db, v) => db.update(probe).set({ label: sql`${v.label}` }).where(lt(probe.at, encodedAs(v.before, probe.at))).returning({ id: probe.id }),
  { id: probe.id },
);

describe(`builtOnce (${testDriver})`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let cms: Cms;
  const root = mkdtempSync(join(tmpdir(), 'cms-built-once-'));
  const stored = () => cms.db.select().from(probe).orderBy(asc(probe.label));

  beforeAll(async () => {
    database = await createTestDatabase();
    cms = await createCms({ rootDir: root, databaseUrl: database.url ?? 'memory://' });
    await cms.db.execute(sql`create table built_once_probe (id uuid primary key default gen_random_uuid(), label text not null, data jsonb, at timestamptz, n integer not null default 7)`);
  });
  afterAll(async () => {
    await cms?.close();
    await database?.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('writes and returns what the values say, each run with its own values, nulls and defaults included', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const [a] = await insertProbe(cms.db, { label: 'a', data: { nested: { list: [1, 'two'] } }, at, n: 3 });
    expect(a).toEqual({ id: expect.any(String), label: 'a', data: { nested: { list: [1, 'two'] } }, at, n: 3 });
    // The same names with other values: the kept statement runs with the new ones.
    const [b] = await insertProbe(cms.db, { label: 'b', data: { other: true }, at: new Date(at.getTime() + 1000), n: 4 });
    expect(b).toMatchObject({ label: 'b', data: { other: true }, at: new Date(at.getTime() + 1000), n: 4 });
    // The same names, null: NULL (not JSON null, and no encoder is given it).
    const [c] = await insertProbe(cms.db, { label: 'c', data: null, at: null, n: 6 });
    expect(c).toEqual({ id: expect.any(String), label: 'c', data: null, at: null, n: 6 });
    // After a run with nulls, the same names with values again.
    const [d] = await insertProbe(cms.db, { label: 'd', data: { back: 1 }, at, n: 5 });
    expect(d).toMatchObject({ label: 'd', data: { back: 1 }, at, n: 5 });
    // A given id is the row's id.
    const id = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';
    const [e] = await insertProbe(cms.db, { id, label: 'e', data: null, at, n: 1 });
    expect(e!.id).toBe(id);
    // A value left undefined takes the column's default.
    const [f] = await insertProbe(cms.db, { label: 'f', data: {}, at, n: undefined });
    expect(f).toEqual({ id: expect.any(String), label: 'f', data: {}, at, n: 7 });

    expect(await stored()).toEqual([a, b, c, d, e, f]);
    const nulls = rowsOf<{ label: string; data_is_null: boolean }>(await cms.db.execute(sql`select label, data is null as data_is_null from built_once_probe order by label`));
    expect(nulls.map((r) => r.data_is_null)).toEqual([false, false, true, false, true, false]);
    expect(new Set([a, b, c, d, e, f].map((r) => r!.id)).size).toBe(6);
  });

  it('runs inside the transaction it is given: a rollback keeps nothing of it', async () => {
    const before = await stored();
    await expect(cms.db.transaction(async (tx) => {
      await insertProbe(tx, { label: 'rolled back', data: {}, at: null, n: 1 });
      expect((await tx.select().from(probe).where(eq(probe.label, 'rolled back'))).length).toBe(1);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await stored()).toEqual(before);
    await cms.db.transaction(async (tx) => { await insertProbe(tx, { label: 'kept', data: {}, at: null, n: 1 }); });
    expect((await stored()).map((r) => r.label)).toContain('kept');
  });

  it('compares with a value encoded as its column (a date in a condition)', async () => {
    await cms.db.delete(probe);
    const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    for (const [label, s] of [['one', 1], ['two', 2], ['three', 3]] as const) await insertProbe(cms.db, { label, data: null, at: t(s), n: 0 });
    expect(await relabelBefore(cms.db, { label: 'early', before: t(2) })).toHaveLength(1);
    expect(await relabelBefore(cms.db, { label: 'later', before: t(4) })).toHaveLength(3);
    expect((await stored()).map((r) => r.label)).toEqual(['later', 'later', 'later']);
  });
});
