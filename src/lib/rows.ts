import { propertyOf } from './unknown-values.js';

/** `db.execute` answers an array on postgres.js and `{ rows }` on PGlite; this reads both. */
export function rowsOf<T>(result: unknown): T[] {
  const rows = Array.isArray(result) ? result : propertyOf(result, 'rows');
  // The driver's rows are untyped: the caller names the columns its own SQL selects.
  return Array.isArray(rows) ? (rows as T[]) : [];
}
