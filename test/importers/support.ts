import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { loadConfig, type CmsConfig } from '../../src/config.js';
import type { Actor } from '../../src/core/actor.js';
import type { MigrationLogView, MigrationView } from '../../src/core/migrations/index.js';
import { createMigrationRunner, type MigrationRunnerOptions, type ProcessMigrationRunner } from '../../src/importers/runner.js';
import { createCms, type Cms } from '../../src/runtime.js';
import { createTestDatabase } from '../helpers/db.js';
import { fakeImportConfig } from '../fakes/buttercms/account.js';
import type { FakeButter } from '../fakes/buttercms/server.js';

export interface ImportHarness {
  cms: Cms;
  config: CmsConfig;
  runner: ProcessMigrationRunner;
  dir: string;
  run<T = unknown>(op: string, input: unknown, actor?: Actor): Promise<T>;
  /** Creates a migration of the fake account, starts it, and waits until its run here has ended. */
  migrate(butter: FakeButter, mode: string, config?: Record<string, unknown>): Promise<MigrationView>;
  logs(id: string): Promise<MigrationLogView[]>;
  /** Row counts of everything an import may write. */
  contentCounts(): Promise<Record<CountedTable, number>>;
  /**
   * Closes this engine (as a server does when it stops) and opens another on the same database,
   * with a runner of its own; `cms`, `runner` and `run` then belong to the new one.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const terminal: Actor = { kind: 'terminal' };

/** The fake's source config: its API, token and the page types and collections it is told about. */
export const fakeSourceConfig = (butter: FakeButter, extra: Record<string, unknown> = {}) => ({
  apiKey: butter.token,
  apiUrl: butter.url,
  pageTypes: [...fakeImportConfig.pageTypes],
  collections: [...fakeImportConfig.collections],
  ...extra,
});

const countedTables = [
  'page_types', 'collection_types', 'components', 'pages', 'collection_items', 'media',
  'blog_posts', 'blog_authors', 'blog_categories', 'blog_tags', 'webhook_deliveries',
] as const;
export type CountedTable = (typeof countedTables)[number];

/** An engine on a fresh database whose migration runner spaces source requests by `minIntervalMs`. */
export async function createImportHarness(options: MigrationRunnerOptions = { minIntervalMs: 0 }): Promise<ImportHarness> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-import-'));
  const database = await createTestDatabase();
  const config: CmsConfig = { ...loadConfig({ cwd: dir, env: {} }), dataDir: join(dir, '.cms'), databaseUrl: database.url };
  const handle = await database.handle();
  const open = async () => {
    let engine: Cms | undefined;
    const runner = createMigrationRunner(() => engine!, options);
    engine = await createCms(config, { handle, services: { migrationRunner: runner } });
    return { cms: engine, runner };
  };
  const h: ImportHarness = {
    ...(await open()),
    config,
    dir,
    run: <T>(op: string, input: unknown, actor: Actor = terminal) => h.cms.run(op as never, input, { actor }) as Promise<T>,
    async migrate(butter, mode, extra = {}) {
      const created = await h.run<MigrationView>('migrations.create', { sourcePlatform: 'buttercms', mode, config: fakeSourceConfig(butter, extra) });
      await h.run('migrations.start', { id: created.id });
      await h.runner.settled(created.id);
      return h.run<MigrationView>('migrations.get', { id: created.id });
    },
    logs: (id) => h.run<MigrationLogView[]>('migrations.logs', { id, limit: 10_000 }),
    async contentCounts() {
      const out = {} as Record<CountedTable, number>;
      for (const table of countedTables) {
        const rows = await h.cms.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
        const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as Array<{ n: number }>;
        out[table] = Number(list[0]?.n ?? 0);
      }
      return out;
    },
    async restart() {
      await h.cms.close();
      Object.assign(h, await open());
    },
    async close() {
      await h.cms.close();
      await handle.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return h;
}
