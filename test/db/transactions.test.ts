import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isUniqueViolation, type DbHandle } from '../../src/db/client.js';
import { finishTransaction } from '../../src/db/pipelined-transactions.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/**
 * The engine's transactions, on both databases. On PostgreSQL BEGIN goes out with a
 * transaction's first statements and COMMIT with its last ones (src/db/pipelined-transactions.ts):
 * whatever fails, a transaction writes all or nothing and says why, and the pool stays usable.
 */
describe(`transactions (${testDriver})`, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let handle: DbHandle;
  const ids = async () => rowsOf<{ id: number }>(await handle.db.execute(sql`select id from tx_probe order by id`)).map((r) => r.id);
  const insert = (db: DbHandle['db'], id: number) => db.execute(sql`insert into tx_probe (id) values (${id})`);

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = await database.handle();
    await handle.db.execute(sql`create table tx_probe (id integer primary key)`);
  });
  beforeEach(async () => { await handle.db.execute(sql`delete from tx_probe`); });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  it('commits the first and the last statements, COMMIT sent with the last', async () => {
    const answer = await handle.db.transaction(async (tx) => {
      await insert(tx, 1);
      await finishTransaction(tx, [insert(tx, 2), insert(tx, 3)]);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await ids()).toEqual([1, 2, 3]);
  });

  it('writes nothing when one of the last statements fails, and rejects with its error', async () => {
    await insert(handle.db, 7);
    const failed = handle.db.transaction(async (tx) => {
      await insert(tx, 1);
      await finishTransaction(tx, [insert(tx, 2), insert(tx, 7), insert(tx, 3)]);
    });
    expect(isUniqueViolation(await failed.then(() => null, (e: unknown) => e))).toBe(true);
    expect(await ids()).toEqual([7]);
  });

  it('writes nothing when a statement failed even though the code caught its error', async () => {
    await insert(handle.db, 7);
    const failed = handle.db.transaction(async (tx) => {
      await insert(tx, 1);
      await insert(tx, 7).catch(() => 'ignored');
      await finishTransaction(tx, [insert(tx, 2)]);
    });
    await expect(failed).rejects.toThrow();
    expect(await ids()).toEqual([7]);
  });

  it('writes nothing when the work throws before its last statements', async () => {
    const failed = handle.db.transaction(async (tx) => {
      await insert(tx, 1);
      throw new Error('the operation refused');
    });
    await expect(failed).rejects.toThrow('the operation refused');
    expect(await ids()).toEqual([]);
  });

  it('rolls a failed nested transaction back to its savepoint; the outer one commits', async () => {
    await handle.db.transaction(async (tx) => {
      await insert(tx, 1);
      const nested = tx.transaction(async (sp) => {
        await insert(sp, 2);
        await insert(sp, 1);
      });
      expect(isUniqueViolation(await nested.then(() => null, (e: unknown) => e))).toBe(true);
      await tx.transaction(async (sp) => { await insert(sp, 3); });
      await finishTransaction(tx, [insert(tx, 4)]);
    });
    expect(await ids()).toEqual([1, 3, 4]);
  });

  it('keeps the pool usable after many failed transactions (every connection given back)', async () => {
    // More failures, at once, than the pool has connections (10).
    const failures = await Promise.allSettled(Array.from({ length: 25 }, (_, i) => handle.db.transaction(async (tx) => {
      await insert(tx, 100 + i);
      await finishTransaction(tx, [insert(tx, 100 + i)]);
    })));
    expect(failures.every((f) => f.status === 'rejected')).toBe(true);
    await Promise.all(Array.from({ length: 25 }, (_, i) => handle.db.transaction(async (tx) => {
      await finishTransaction(tx, [insert(tx, 200 + i)]);
    })));
    expect((await ids()).length).toBe(25);
  });
});
