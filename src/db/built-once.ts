import { sql, type Column, type Placeholder, type Query, type SQLWrapper } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client.js';

/** A drizzle query builder, or anything else that gives its SQL and parameters. */
interface Buildable { toSQL(): Query }

/** The values a statement is run with, each a placeholder while it is built (null stays null). */
export type Placeholders<V> = { [K in keyof V]-?: Placeholder<K & string> | (null extends V[K] ? null : never) };

/**
 * A statement that drizzle builds once and that then runs many times, on the database or inside
 * a transaction, with new values each time.
 *
 * drizzle builds a statement's SQL anew for every call: it walks each chunk of the statement and
 * checks its class with `is()`, which for an insert of a page's two dozen columns costs more than
 * PGlite takes to run it (in page creation, building inserts took 7% of the server's CPU). Built
 * with a placeholder for each value, the SQL text and its parameters are kept, and each run only
 * fills the placeholders in, through the same column encoders (dates, JSON) as a statement
 * built with its values, and maps the returned rows the same way.
 *
 * `build` gets one placeholder per value passed. A value `undefined` is left out, as drizzle
 * leaves it out of an insert for the column's default; a null is passed as null, since a column's
 * encoder is never given null (drizzle sends NULL itself). Every set of value names, with which of
 * them are null, builds its own statement once; `build` must not read anything but the
 * placeholders, since what it builds is kept. `returning` names the columns the statement returns
 * (as its `.returning(...)` does), in the order it returns them.
 *
 * What it keeps comes from the code alone (a statement's text for a set of value names), never from
 * data: there is nothing to invalidate, it is the same for every engine of the process (both
 * drivers speak the same PostgreSQL dialect), and it is bounded by the shapes the callers use.
 */
export function builtOnce<V extends Record<string, unknown>, R = never>(
  build: (db: Db, values: Placeholders<V>) => Buildable,
  returning?: Record<string, PgColumn>,
): (db: Db, values: V) => Promise<R[]> {
  const built = new Map<string, Query>();
  const fields = returning ? Object.entries(returning).map(([name, field]) => ({ path: [name], field })) : undefined;
  return async (db, values) => {
    const given: Record<string, unknown> = {};
    const shape: string[] = [];
    for (const name of Object.keys(values)) {
      const value = values[name];
      if (value === undefined) continue;
      if (value === null) shape.push(`${name}=null`);
      else { given[name] = value; shape.push(name); }
    }
    const key = shape.sort().join(',');
    let query = built.get(key);
    if (!query) {
      const placeholders: Record<string, Placeholder | null> = {};
      for (const name of Object.keys(values)) {
        if (values[name] !== undefined) placeholders[name] = values[name] === null ? null : sql.placeholder(name);
      }
      // cast: a placeholder (or null) for each value given; a name whose value is undefined is
      // absent, and a build that reads it gets undefined, as for drizzle's column default
      query = build(db, placeholders as Placeholders<V>).toSQL();
      built.set(key, query);
    }
    const prepared = db._.session.prepareQuery(query, fields, undefined, true);
    // cast: the rows as `returning` maps them (no rows are read without it)
    return (await prepared.execute(given)) as R[];
  };
}

/** A value for a placeholder in a comparison, encoded as the column encodes its own values. */
export const encodedAs = (placeholder: Placeholder, column: Column): SQLWrapper => sql.param(placeholder, column);
