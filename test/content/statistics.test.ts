import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBulk } from '../../src/core/content/admin/index.js';
import { rowsOf } from '../../src/lib/rows.js';
import { testDriver } from '../helpers/db.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';

/** PGlite never runs ANALYZE or VACUUM by itself: the engine does, after bulk writes and when asked. */
describe('planner statistics', () => {
  let t: TestCms;
  let ids: string[] = [];

  beforeAll(async () => {
    t = await createTestCms();
    await t.run('schema.push', {
      pageTypes: [],
      collections: [{ definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }] } }],
      components: [],
    });
    const project = await t.cms.resolveProject(t.config.project);
    const inserted = rowsOf<{ id: string }>(await t.cms.db.execute(sql`
      insert into collection_items (project_id, collection_type_id, name, slug, draft_content)
      select ${project.id}, (select id from collection_types where slug = 'products' and project_id = ${project.id}),
        'Product ' || i, 'product-' || i, jsonb_build_object('price', i)
      from generate_series(1, 1500) as i
      returning id`));
    ids = inserted.map((r) => r.id);
  });
  afterAll(async () => { await t?.close(); });

  const lastAnalyze = async () => rowsOf<{ at: Date | string | null }>(await t.cms.db.execute(sql`
    select coalesce(last_analyze, last_autoanalyze) as at from pg_stat_user_tables where relname = 'collection_items'`))[0]?.at ?? null;
  const lastVacuum = async () => rowsOf<{ at: Date | string | null }>(await t.cms.db.execute(sql`
    select coalesce(last_vacuum, last_autovacuum) as at from pg_stat_user_tables where relname = 'collection_items'`))[0]?.at ?? null;

  if (testDriver === 'pglite') {
    it('analyzes (and vacuums) what a bulk action wrote once it pauses, and only tables that changed enough', async () => {
      expect(await lastAnalyze()).toBeNull();
      const result = await runBulk('items.bulkPublish', { ids: ids.slice(0, 100), collection: 'products' }, (name, input) => t.run(name, input));
      expect(result.data.every((r) => r.ok)).toBe(true);
      const deadline = Date.now() + 10_000;
      while (!(await lastAnalyze()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await lastAnalyze()).not.toBeNull();
      // 1,500 rows inserted (more than autovacuum's 1,000 + 20%): vacuumed too, so index scans can
      // skip the table's rows.
      expect(await lastVacuum()).not.toBeNull();
      // Fresh now: asking again analyzes nothing until enough rows change.
      expect(await t.cms.services.statistics.refresh()).not.toContain('collection_items');
    });
  } else {
    it('leaves statistics to autovacuum on PostgreSQL', async () => {
      await runBulk('items.bulkPublish', { ids: ids.slice(0, 100), collection: 'products' }, (name, input) => t.run(name, input));
      expect(await t.cms.services.statistics.refresh()).toEqual([]);
    });
  }
});
