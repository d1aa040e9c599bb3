import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type CmsConfig } from '../../src/config.js';
import type { Actor } from '../../src/core/actor.js';
import type { Clock } from '../../src/core/context.js';
import { createCms, type Cms, type CreateCmsOptions } from '../../src/runtime.js';
import { createTestDatabase, testDriver } from './db.js';

export interface TestCms {
  cms: Cms;
  config: CmsConfig;
  /** A temporary folder for media and other files of this engine. */
  dir: string;
  /** Runs an operation as the terminal (full rights) in the default project. */
  run(op: string, input: unknown, actor?: Actor): Promise<any>;
  close(): Promise<void>;
}

export interface TestCmsOptions {
  clock?: Clock;
  config?: Partial<CmsConfig>;
  /** Ports handed to the engine instead of its own (a media store the test controls). */
  services?: CreateCmsOptions['services'];
}

/** A landing page type that references a products collection: the schema of the HTTP cache tests. */
export const landingSchema = {
  pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [
    { name: 'title', type: 'text' },
    { name: 'body', type: 'textarea' },
    { name: 'product', type: 'reference', options: { collectionType: 'products' } },
  ] } }],
  collections: [{ definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }] } }],
  components: [],
};

/** An engine on a fresh database (PGlite in memory, or PostgreSQL when DATABASE_URL is set). */
export async function createTestCms(options: TestCmsOptions = {}): Promise<TestCms> {
  const dir = mkdtempSync(join(tmpdir(), 'cms-test-'));
  const database = await createTestDatabase();
  const config: CmsConfig = {
    ...loadConfig({ cwd: dir, env: {} }),
    dataDir: join(dir, '.cms'),
    databaseUrl: database.url,
    ...options.config,
  };
  const handle = await database.handle();
  const cms = await createCms(config, {
    handle,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.services ? { services: options.services } : {}),
  });
  return {
    cms,
    config,
    dir,
    run: (op, input, actor = { kind: 'terminal' }) => cms.run(op as never, input, { actor }),
    async close() {
      await cms.close();
      await handle.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A clock the test moves by hand. */
export function createManualClock(start = new Date('2026-01-01T00:00:00.000Z')): Clock & { advance(ms: number): void; set(d: Date): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance(ms) { now += ms; },
    set(d) { now = d.getTime(); },
  };
}

/**
 * On PostgreSQL the engine hears its own writes again through NOTIFY a moment after they commit
 * (each echo empties the response cache): waits until 300 ms pass with none, so the echoes of a
 * test's set-up do not land in the middle of what it measures.
 */
export async function settleEchoes(t: TestCms): Promise<void> {
  if (testDriver !== 'postgres') return;
  let last = Date.now();
  const heard = () => { last = Date.now(); };
  t.cms.events.on('content-changed', heard);
  while (Date.now() - last < 300) await new Promise((resolve) => setTimeout(resolve, 50));
  t.cms.events.off('content-changed', heard);
}
