import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDriver } from '../helpers/db.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';

/**
 * Every sort key the contract allows is served by an index (EXPLAIN of the statement the engine
 * really sends), and with statistics kept fresh by the engine, filtered collection queries over
 * 100,000 items use the indexes they should. Both databases.
 */

interface PlanNode { 'Node Type': string; 'Index Name'?: string; 'Scan Direction'?: string; Plans?: PlanNode[] }

const nodesOf = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodesOf)];

describe('list queries and their indexes', () => {
  let t: TestCms;
  /** The statements the engine sent while recording, with their parameters. */
  let recorded: Array<{ text: string; params: unknown[] }> | null = null;
  let explain: (text: string, params: unknown[]) => Promise<PlanNode>;

  beforeAll(async () => {
    t = await createTestCms({ config: { cache: false, rateLimit: null } });
    await t.run('schema.push', {
      pageTypes: ['article', 'landing'].map((slug) => ({ definition: { slug, name: slug, fields: [{ name: 'title', type: 'text' }] } })),
      collections: [{ definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }, { name: 'description', type: 'text' }] } }],
      components: [],
    });
    // The driver's own client, wrapped: what the engine sends is what gets explained.
    const client: any = (t.cms.db as any).$client;
    const method = testDriver === 'postgres' ? 'unsafe' : 'query';
    const send = client[method].bind(client);
    client[method] = (text: string, params: unknown[], ...rest: unknown[]) => {
      recorded?.push({ text, params: params ?? [] });
      return send(text, params, ...rest);
    };
    explain = async (text, params) => {
      const result = await send(`explain (format json) ${text}`, params);
      const rows: any[] = testDriver === 'postgres' ? result : result.rows;
      const plan = Object.values(rows[0])[0];
      return (typeof plan === 'string' ? JSON.parse(plan) : plan)[0].Plan;
    };
    const project = await t.cms.resolveProject(t.config.project);
    // Seeded with one statement each (the engine's writes would take minutes for 100,000 rows).
    await t.cms.db.execute(sql`
      insert into pages (project_id, page_type_id, status, name, slug, draft_content, published_content, seo, published_seo, published_at, created_at, updated_at)
      select ${project.id}, (select id from page_types where slug = case when i % 2 = 0 then 'article' else 'landing' end and project_id = ${project.id}),
        'published', 'Page ' || (i % 500), 'page-' || i, c, c, '{}', '{}', at, at, at
      from generate_series(1, 4000) as i,
        lateral (select jsonb_build_object('title', 'Page ' || i) as c, timestamptz '2026-01-01' + i * interval '1 minute' as at) as x`);
    await t.cms.db.execute(sql`
      insert into collection_items (project_id, collection_type_id, status, sort_order, name, slug, draft_content, published_content, published_at, created_at, updated_at)
      select ${project.id}, (select id from collection_types where slug = 'products' and project_id = ${project.id}),
        'published', i, 'Product ' || (i % 5000), 'product-' || i, c, c, at, at, at
      from generate_series(1, 100000) as i,
        lateral (select jsonb_build_object('price', (i * 7919 % 100000) / 100.0, 'description', 'Item ' || i) as c,
          timestamptz '2026-01-01' + i * interval '1 second' as at) as x`);
    // The engine's own refresh, as after a bulk write or on `cms serve`'s interval (PGlite never
    // analyzes by itself; on PostgreSQL autovacuum would, in its own time).
    if (testDriver === 'pglite') expect(await t.cms.services.statistics.refresh()).toEqual(expect.arrayContaining(['collection_items', 'pages']));
    else await t.cms.db.execute(sql`analyze`);
  }, 120_000);
  afterAll(async () => { await t?.close(); });

  /** Runs the operation, and gives the plan of its windowed list statement. */
  async function planOf(op: 'delivery.pages.list' | 'delivery.items.list', query: Record<string, string>): Promise<PlanNode[]> {
    recorded = [];
    try {
      const out = await t.run(op, { query, ...(op === 'delivery.items.list' ? { collection: 'products' } : {}) });
      expect(out.data.length).toBeGreaterThan(0);
    } finally {
      const sent = recorded;
      recorded = null;
      const list = sent.find((s) => s.text.includes('row_number() over'));
      expect(list, `no list statement among ${sent.length}`).toBeDefined();
      return nodesOf(await explain(list!.text, list!.params));
    }
  }

  /**
   * An index picks the page: inside the window (the subquery that orders and windows the ids) no
   * node sorts the whole match or scans the table (an incremental sort orders ties by id). Only
   * the page's own rows are sorted again outside it, by their place in the window.
   */
  function expectServedBy(plan: PlanNode[], index: string, { sortsFound = false } = {}) {
    const window = plan.find((n) => n['Node Type'] === 'WindowAgg');
    expect(window, JSON.stringify(plan.map((n) => n['Node Type']))).toBeDefined();
    const inside = nodesOf(window!);
    const described = JSON.stringify(inside.map((n) => [n['Node Type'], n['Index Name']]));
    expect(inside.filter((n) => n['Index Name'] === index).map((n) => n['Node Type']), `${index} in ${described}`)
      .toEqual([expect.stringMatching(/^Index( Only)? Scan$/)]);
    if (!sortsFound) expect(inside.map((n) => n['Node Type']), described).not.toContain('Sort');
    expect(inside.map((n) => n['Node Type']), described).not.toContain('Seq Scan');
  }

  const pageIndexes: Record<string, [string, string]> = {
    createdAt: ['pages_created_idx', 'pages_type_created_idx'],
    updatedAt: ['pages_updated_idx', 'pages_type_updated_idx'],
    publishedAt: ['pages_published_asc_idx', 'pages_type_published_asc_idx'],
    '-publishedAt': ['pages_published_idx', 'pages_type_published_idx'],
    name: ['pages_name_idx', 'pages_type_name_idx'],
    slug: ['pages_project_slug_live_uq', 'pages_type_slug_idx'],
  };
  const indexOf = (sort: string, i: 0 | 1) => (pageIndexes[sort] ?? pageIndexes[sort.replace('-', '')]!)[i];
  const sorts = ['createdAt', 'updatedAt', 'publishedAt', 'name', 'slug'].flatMap((s) => [s, `-${s}`]);

  it.each(sorts)('pages sorted by %s: an index of the project picks the page', async (sort) => {
    expectServedBy(await planOf('delivery.pages.list', { sort, limit: '20', page: '5' }), indexOf(sort, 0));
  });

  it.each(sorts)('pages of one type sorted by %s: an index of the type picks the page', async (sort) => {
    expectServedBy(await planOf('delivery.pages.list', { sort, limit: '20', page: '5', pageType: 'article' }), indexOf(sort, 1));
  });

  const itemIndexes: Record<string, string> = {
    createdAt: 'items_created_idx', updatedAt: 'items_updated_idx', publishedAt: 'items_published_asc_idx', '-publishedAt': 'items_published_idx',
    name: 'items_name_idx', slug: 'items_type_slug_live_uq', _sortOrder: 'items_sort_order_idx',
  };
  it.each([...sorts, '_sortOrder', '-_sortOrder'])('collection items sorted by %s: an index of the type picks the page', async (sort) => {
    expectServedBy(await planOf('delivery.items.list', { sort, limit: '20', page: '5' }), itemIndexes[sort] ?? itemIndexes[sort.replace('-', '')]!);
  });

  it('orders ties by id in both directions, pages never overlap', async () => {
    // 'Page <i % 500>': eight pages share each name.
    const read = async (sort: string, page: number) => (await t.run('delivery.pages.list', { query: { sort, limit: '7', page: String(page) } })).data
      .map((p: any) => [p.name, p.id]);
    for (const sort of ['name', '-name']) {
      const seen = [...await read(sort, 1), ...await read(sort, 2), ...await read(sort, 3)];
      const expected = [...seen].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : (a[0] < b[0] ? -1 : 1) * (sort === 'name' ? 1 : -1)));
      expect(seen).toEqual(expected);
      expect(new Set(seen.map((s) => s[1])).size).toBe(21);
    }
  });

  describe('filtered collection queries over 100,000 items', () => {
    it('a slug filter reads the live-slug index (and sorts only what it found)', async () => {
      expectServedBy(await planOf('delivery.items.list', { 'filter[slug]': 'product-4242' }), 'items_type_slug_live_uq', { sortsFound: true });
    });

    it('a name filter reads the name index', async () => {
      expectServedBy(await planOf('delivery.items.list', { 'filter[name]': 'Product 42', sort: 'name' }), 'items_name_idx');
    });

    it('a broad content filter walks the index of the sort until the page is full', async () => {
      expectServedBy(await planOf('delivery.items.list', { 'filter[fields.price][gt]': '100', sort: 'name', limit: '20' }), 'items_name_idx');
      expectServedBy(await planOf('delivery.items.list', { 'filter[fields.price][gt]': '100', limit: '20' }), 'items_published_idx');
    });
  });
});
