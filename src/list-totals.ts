import { LRUCache } from 'lru-cache';
import type { ListTotal, ListTotals } from './core/context.js';
import type { Db } from './db/client.js';

/** The most list totals kept: a total is a few dozen bytes, its key a few hundred. */
const maxTotals = 5000;

/**
 * List totals in memory, least recently used dropped first. Only counts run on `db` itself are
 * kept: inside a transaction a count may include rows that are not committed (and may never be).
 */
export function createListTotals(db: Db, max = maxTotals): ListTotals {
  const totals = new LRUCache<string, ListTotal>({ max });
  return {
    get: (on, key) => (on === db ? totals.get(key) : undefined),
    set(on, key, total) { if (on === db) totals.set(key, total); },
  };
}
