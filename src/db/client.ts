import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { Sql } from 'postgres';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { makePrivateFolder } from './private-folder.js';
import { namedOnPglite } from './named-statements.js';
import { pipelinedBegin } from './pipelined-transactions.js';
import { packageFile } from '../lib/package-files.js';
import { propertyOf } from '../lib/unknown-values.js';
import { z } from 'zod';

/**
 * The database migrations (SQL schema upgrades) drizzle-kit wrote, shipped with the package
 * beside dist/. Not to be confused with ButterCMS migrations (imports), src/core/migrations.
 */
export const databaseMigrationsFolder = packageFile('db-migrations');

/**
 * A dump of a new PGlite database with every shipped migration applied, made by the build
 * (scripts/build.mjs). A new data folder starts from it instead of running initdb and the
 * migrations: `cms init` and the first command in a folder take about 3 s less.
 */
export const pgliteTemplateFile = packageFile('dist/pglite-template.tar.gz');

export type Schema = typeof import('./schema/index.js');
/**
 * The drizzle schema, loaded when a database is opened: an embedded one starts while it loads (a
 * CLI command pays for the two only once).
 */
const loadSchema = (): Promise<Schema> => import('./schema/index.js');
/** The one database type of the whole code base, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** What this code reads of drizzle-kit's journal. */
const journalSchema = z.object({ entries: z.array(z.object({ when: z.number() })) });

/** The newest database migration shipped, and how many there are, from drizzle-kit's journal. */
export function shippedDatabaseMigrations(): { count: number; last: number } {
  // Read once per process: the journal ships with the code (/readyz asks on every probe).
  if (!shippedCache) {
    const journal = journalSchema.parse(JSON.parse(readFileSync(join(databaseMigrationsFolder, 'meta', '_journal.json'), 'utf8')));
    shippedCache = { count: journal.entries.length, last: journal.entries.at(-1)?.when ?? 0 };
  }
  return shippedCache;
}
let shippedCache: { count: number; last: number } | null = null;

/**
 * True when the database already has every shipped database migration: then opening skips drizzle's
 * migrator, which re-reads every SQL file and issues DDL on each start (a CLI command should start fast).
 */
function upToDate(row: unknown): boolean {
  const shipped = shippedDatabaseMigrations();
  return !!row && Number(propertyOf(row, 'n')) === shipped.count && Number(propertyOf(row, 'm')) === shipped.last;
}

export const appliedQuery = 'select count(*) as n, max(created_at) as m from drizzle.__drizzle_migrations';

export interface DbHandle {
  db: Db;
  driver: 'pglite' | 'postgres';
  /**
   * Subscribes to a NOTIFY channel; returns the unsubscribe function. `onReconnect` is called each
   * time the listening connection was lost and listens again (PostgreSQL; notices sent meanwhile
   * are lost). PGlite runs in this process and has no connection to lose.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReconnect?: () => void): Promise<() => Promise<void>>;
  /** Applies the shipped database migrations (schema upgrades); safe when several processes open one database at once. */
  migrateDatabase(): Promise<void>;
  close(): Promise<void>;
  /** PGlite only: the data folder as a tarball. */
  dump?(): Promise<Blob>;
}

export interface DbOptions {
  /** postgres:// or postgresql:// selects PostgreSQL; anything else is ignored. */
  databaseUrl?: string | undefined;
  /** The PGlite data folder; `memory://` (or undefined) keeps it in memory. */
  dataDir?: string | undefined;
  /** A PGlite data folder dump to start from (tests start from a migrated template). */
  loadDataDir?: Blob | undefined;
  /** PostgreSQL: prepared statements (the default); off for a pooler that cannot hold them. */
  preparedStatements?: boolean | undefined;
}

const connectTimeoutSeconds = 10;

/**
 * The server answers, or the opening fails. postgres.js keeps a query waiting while it tries to
 * connect again and again to a host that never answers (its connect timeout ends each try, not
 * the query): a command would hang for ever. One query, given the timeout and a second more.
 */
async function reachable(client: Sql, url: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const where = (() => { try { const u = new URL(url); return `${u.hostname}:${u.port || 5432}`; } catch { return 'the server'; } })();
      reject(Object.assign(new Error(`no answer from ${where} within ${connectTimeoutSeconds} s`), { code: 'CONNECT_TIMEOUT' }));
    }, (connectTimeoutSeconds + 1) * 1000);
  });
  try {
    await Promise.race([client`select 1`, timedOut]);
  } catch (e) {
    await client.end({ timeout: 0 }).catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** Whether a PostgreSQL error has one of these codes, itself or as the cause drizzle wraps it in. */
function isPgErrorCode(e: unknown, codes: string[]): boolean {
  for (let cur = e, depth = 0; typeof cur === 'object' && cur !== null && depth < 3; cur = propertyOf(cur, 'cause'), depth++) {
    const code = propertyOf(cur, 'code');
    if (typeof code === 'string' && codes.includes(code)) return true;
  }
  return false;
}

/** A database no migration has run on yet: no `drizzle` schema, or not the table asked for. */
export const isNotMigratedYet = (e: unknown): boolean => isPgErrorCode(e, ['3F000', '42P01']);

/** A unique index refused the row (another write took the value meanwhile). */
export const isUniqueViolation = (e: unknown): boolean => isPgErrorCode(e, ['23505']);

/** A NOT NULL column refused a null (as the Idempotency-Key store asks of a live record). */
export const isNotNullViolation = (e: unknown): boolean => isPgErrorCode(e, ['23502']);

export const isPostgresUrl = (url: string | undefined): url is string => !!url && /^postgres(ql)?:\/\//.test(url);

/**
 * The postgres.js client, asking for prepared statements where drizzle asks for unprepared ones
 * (in transactions and savepoints too). postgres.js sends a statement with parameters that is not
 * prepared in two round trips (describe, then execute), and the server parses it each time; a
 * prepared one is parsed once per connection and goes in one round trip. postgres.js keeps them
 * per connection, and a connection lives 30 to 60 minutes.
 */
function preparing<T extends object>(sql: T): T {
  return new Proxy(sql, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      if (prop === 'unsafe') {
        return (query: string, args?: unknown[], options?: object) => value.call(target, query, args ?? [], { ...options, prepare: true });
      }
      if (prop === 'begin' || prop === 'savepoint') {
        return (...params: unknown[]) => {
          const fn = params.at(-1);
          if (typeof fn === 'function') params[params.length - 1] = (tx: object) => fn(preparing(tx));
          return value.apply(target, params);
        };
      }
      return value;
    },
  });
}

/**
 * The types drizzle keeps as PostgreSQL's text on PGlite (it maps them itself): timestamp,
 * timestamptz, interval and date, and the arrays of numeric, timestamp, timestamptz, interval
 * and date (drizzle-orm/pglite/session.js).
 */
const keptAsText = ['1114', '1184', '1186', '1082', '1231', '1115', '1185', '1187', '1182'];
const keepText = (value: string): string => value;

/**
 * The PGlite client with drizzle's parsers set once. drizzle hands PGlite the same parsers (the
 * types above kept as text) with every query, and PGlite merges them into its own, one per type
 * and array type (351), for each query: a copy of about 110 µs, more than a small query's whole
 * cost (`select 1`: 457 µs with them, 133 µs without). Set once on the instance and taken out of
 * each query's options (in transactions too), they give the same rows. Options that ask for
 * other parsers go through as they are. Methods run on the client itself (its fields are private).
 * Inside a transaction, `named` runs a query as a named prepared statement (named-statements.ts).
 */
function parsersOnce<T extends PGliteClient>(client: T, named: NamedRun): T {
  for (const oid of keptAsText) client.parsers[oid] = keepText;
  const own = (options: unknown): unknown => {
    const parsers = propertyOf(options, 'parsers');
    if (typeof parsers !== 'object' || parsers === null || !Object.keys(parsers).every((k) => keptAsText.includes(k))) return options;
    return { ...(options as object), parsers: undefined }; // options is an object: it has parsers
  };
  const wrap = <C extends object>(target: C, inTransaction: boolean): C => new Proxy(target, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop);
      if (typeof value !== 'function') return value;
      if (prop === 'query') {
        return (query: string, params?: unknown[], options?: unknown) => {
          const ownOptions = own(options);
          // Inside a transaction, statements run as named ones (named-statements.ts).
          if (inTransaction && !propertyOf(t, 'closed')) {
            const run = named(query, params, rowModeOf(ownOptions));
            if (run) return run;
          }
          return value.call(t, query, params, ownOptions);
        };
      }
      if (prop === 'transaction') return (fn: (tx: object) => unknown) => value.call(t, (tx: object) => fn(wrap(tx, true)));
      return value.bind(t);
    },
  });
  return wrap(client, false);
}

type NamedRun = (text: string, params: unknown[] | undefined, options: { rowMode?: 'array' | 'object' }) => Promise<unknown> | undefined;

/** The row mode of a query's options, the one option a named run takes (parsers are the instance's). */
function rowModeOf(options: unknown): { rowMode?: 'array' | 'object' } {
  const mode = propertyOf(options, 'rowMode');
  return mode === 'array' || mode === 'object' ? { rowMode: mode } : {};
}

interface PGliteClient { parsers: Record<string, (value: string, typeId?: number) => unknown> }

/** The only place that chooses a driver. */
export async function createDb(options: DbOptions): Promise<DbHandle> {
  if (isPostgresUrl(options.databaseUrl)) {
    const [{ default: postgres }, { drizzle }, schema] = await Promise.all([import('postgres'), import('drizzle-orm/postgres-js'), loadSchema()]);
    const url = options.databaseUrl;
    const prepared = options.preparedStatements ?? true;
    // Prepared statements are planned for each execution's own values (never a generic plan
    // that ignores them): what they save is the second round trip and the parsing.
    // A server that does not answer is given up on after 10 s (postgres.js waits 30 s, and each of
    // the first statements waited again: a CLI command seemed to hang).
    const client = postgres(url, {
      max: 10, connect_timeout: connectTimeoutSeconds, onnotice: () => {},
      ...(prepared ? { connection: { plan_cache_mode: 'force_custom_plan' } } : {}),
    });
    await reachable(client, url);
    const db: Db = drizzle(pipelinedBegin(prepared ? preparing(client) : client, prepared), { schema });
    return {
      db,
      driver: 'postgres',
      async listen(channel, onMessage, onReconnect) {
        // postgres.js calls back on every LISTEN it runs: the first one, then one per reconnect.
        let listening = false;
        const sub = await client.listen(channel, onMessage, () => {
          if (listening) onReconnect?.();
          listening = true;
        });
        return async () => { await sub.unlisten(); };
      },
      async migrateDatabase() {
        // A new database has no record of migrations yet (no such schema or table); any other
        // failure (no server, no such database) is told as it is.
        const applied = await client.unsafe(appliedQuery).then((rows) => rows[0], (e: unknown) => {
          if (isNotMigratedYet(e)) return undefined;
          throw e;
        });
        if (upToDate(applied)) return;
        const { migrate: applyDatabaseMigrations } = await import('drizzle-orm/postgres-js/migrator');
        // A session lock on a one-connection client, so two processes never migrate at once.
        const single = postgres(url, { max: 1, connect_timeout: connectTimeoutSeconds, onnotice: () => {} });
        try {
          await single`select pg_advisory_lock(7263541)`;
          await applyDatabaseMigrations(drizzle(single, { schema }), { migrationsFolder: databaseMigrationsFolder });
        } finally {
          await single.end({ timeout: 5 });
        }
      },
      async close() { await client.end({ timeout: 5 }); },
    };
  }
  const pglite = await import('@electric-sql/pglite');
  const { PGlite } = pglite;
  const inMemory = !options.dataDir || options.dataDir === 'memory://';
  if (!inMemory) makePrivateFolder(options.dataDir!);
  const template = inMemory ? undefined : newFolderTemplate(options.dataDir!);
  let client = inMemory
    ? new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {})
    : new PGlite(options.dataDir!, template ? { loadDataDir: template } : {});
  // PGlite reads and compiles its WebAssembly while drizzle and the schema load. Its failure is
  // thrown by the await below, not reported as unhandled meanwhile.
  const ready = client.waitReady;
  ready.catch(() => {});
  const [{ drizzle }, schema] = await Promise.all([import('drizzle-orm/pglite'), loadSchema()]);
  try {
    await ready;
  } catch (e) {
    if (!template) throw e;
    // A template this PGlite cannot load (built by another version): the folder was empty, so
    // it is emptied again and the database made the slow way.
    await client.close().catch(() => {});
    for (const entry of readdirSync(options.dataDir!)) rmSync(join(options.dataDir!, entry), { recursive: true, force: true });
    client = new PGlite(options.dataDir!);
    await client.waitReady;
  }
  const named = namedOnPglite(client, pglite);
  const db: Db = drizzle(parsersOnce(client, (text, params, options) => named.run(text, params, options)), { schema });
  return {
    db,
    driver: 'pglite',
    async listen(channel, onMessage) {
      return client.listen(channel, onMessage);
    },
    async migrateDatabase() {
      const applied = await client.query<{ n: unknown; m: unknown }>(appliedQuery).then((r) => r.rows[0], () => undefined);
      if (upToDate(applied)) return;
      const { migrate: applyDatabaseMigrations } = await import('drizzle-orm/pglite/migrator');
      await applyDatabaseMigrations(drizzle(client, { schema }), { migrationsFolder: databaseMigrationsFolder });
    },
    async close() { await client.close(); },
    dump: () => client.dumpDataDir('gzip'),
  };
}

/**
 * The migrated template for a data folder that holds nothing yet, as a plain tar (a source
 * checkout not built has none; a damaged file is passed over, as PGlite would crash on it).
 */
function newFolderTemplate(dir: string): Blob | undefined {
  if (readdirSync(dir).length > 0 || !existsSync(pgliteTemplateFile)) return undefined;
  try {
    return new Blob([gunzipSync(readFileSync(pgliteTemplateFile))]);
  } catch {
    return undefined;
  }
}
