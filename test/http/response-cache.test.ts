import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CmsConfig } from '../../src/config.js';
import type { OperationName, OutputOf } from '../../src/core/registry.js';
import { createCms, type RunOptions } from '../../src/runtime.js';
import { testDriver } from '../helpers/db.js';
import { createTestCms, landingSchema, settleEchoes, type TestCms } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

/**
 * The response cache seen from outside, over a real socket. Whether an answer came from the cache
 * shows in the rate limit (an answer from the cache never counts: RateLimit-Remaining stays) and
 * in how often the server ran the read's operation (counted around `cms.runRequest`).
 */
interface Site {
  t: TestCms;
  http: HttpClient;
  pk: string;
  preview: string;
  /** Operations the server ran for requests, by name. */
  runs: Map<string, number>;
  /** Set to hold the next operation's answer (once computed) until the promise it gets resolves. */
  holdNext: Promise<void> | null;
  /** Set to make the next operation fail as a broken database would. */
  failNext: boolean;
  write(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

let writes = 0;

async function startSite(config: Partial<CmsConfig> = {}): Promise<Site> {
  const t = await createTestCms({ config: { rateLimit: { requests: 100_000, windowSeconds: 60 }, ...config } });
  await t.run('schema.push', landingSchema);
  const pk = (await t.run('keys.create', { type: 'public' })).key as string;
  const sk = (await t.run('keys.create', { type: 'secret', permissions: 'content:write' })).key as string;
  const preview = (await t.run('keys.create', { type: 'preview' })).key as string;
  const item = await t.run('items.create', { collectionTypeSlug: 'products', name: 'Rocket', slug: 'rocket', fields: { price: 10 }, status: 'published' });
  for (let i = 1; i <= 8; i++) {
    await t.run('pages.create', {
      pageTypeSlug: 'landing', name: `Page ${i}`, slug: `page-${i}`, status: 'published',
      fields: { title: `Page ${i}`, product: { _ref: item.id, _type: 'collectionItem' } },
    });
  }
  // Far larger than the smallest bound used below.
  await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Big', slug: 'big', status: 'published', fields: { title: 'Big', body: 'x'.repeat(40_000) } });
  await settleEchoes(t);

  const site: Site = {
    t, pk, preview, runs: new Map(), holdNext: null, failNext: false,
    http: await serveOverSocket(t.cms),
    write: (method, path, body) => site.http.fetch(path, {
      method,
      headers: { 'x-api-key': sk, 'idempotency-key': `cache-${++writes}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    async close() {
      await site.http.close();
      await t.close();
    },
  };
  // The engine's runRequest is a plain function (no `this`): it is called as it is.
  const run = t.cms.runRequest;
  t.cms.runRequest = async <N extends OperationName>(name: N, input: unknown, options: RunOptions): Promise<OutputOf<N>> => {
    site.runs.set(name, (site.runs.get(name) ?? 0) + 1);
    if (site.failNext) {
      site.failNext = false;
      throw new Error('the database went away');
    }
    const hold = site.holdNext;
    site.holdNext = null;
    const out = await run(name, input, options);
    if (hold) await hold;
    return out;
  };
  return site;
}

const remaining = (r: Response) => Number(r.headers.get('ratelimit-remaining'));

describe('response cache', () => {
  let s: Site;
  beforeAll(async () => { s = await startSite(); });
  afterAll(async () => { await s.close(); });

  const get = (path: string, headers: Record<string, string> = {}) => s.http.fetch(path, { headers: { 'x-api-key': s.pk, ...headers } });
  const runsOf = (name: string) => s.runs.get(name) ?? 0;

  it('answers a repeated read from the cache, and the first read after a write with the write', async () => {
    const path = '/api/v1/pages/page-1';
    const first = await get(path);
    expect(first.status).toBe(200);
    const firstBody = await first.text();
    const hit = await get(path);
    expect(await hit.text()).toBe(firstBody);
    expect(hit.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(remaining(hit)).toBe(remaining(first));

    expect((await s.write('PUT', '/api/v1/pages/page-1', { fields: { title: 'Page one' } })).status).toBe(200);
    expect((await s.write('POST', '/api/v1/pages/page-1/publish')).status).toBe(200);
    const after = await get(path);
    expect((await after.json() as any).data.fields.title).toBe('Page one');
    // A list that resolves the item, and a write of the item only.
    const list = '/api/v1/pages?sort=-slug&limit=1';
    expect((await (await get(list)).json() as any).data[0].fields.product.name).toBe('Rocket');
    expect((await s.write('PUT', '/api/v1/collections/products/rocket', { name: 'Rocket II' })).status).toBe(200);
    expect((await s.write('POST', '/api/v1/collections/products/rocket/publish')).status).toBe(200);
    expect((await (await get(list)).json() as any).data[0].fields.product.name).toBe('Rocket II');
  });

  it('computes a miss once for every request asking for it at the same time, and gives each the same answer', async () => {
    // On PostgreSQL, the echoes of earlier writes (NOTIFY) have come and gone.
    await settleEchoes(s.t);
    const path = '/api/v1/pages?sort=name&limit=3';
    const before = runsOf('delivery.pages.list');
    let release!: () => void;
    s.holdNext = new Promise<void>((resolve) => { release = resolve; });
    const answers = Array.from({ length: 10 }, () => get(path));
    // Every request is in by the time the one computation is let go.
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    const done = await Promise.all(answers);
    const bodies = await Promise.all(done.map((r) => r.text()));
    expect(done.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 200));
    expect(new Set(bodies).size).toBe(1);
    expect(new Set(done.map((r) => r.headers.get('etag'))).size).toBe(1);
    expect(JSON.parse(bodies[0]!).data.map((p: any) => p.slug)).toEqual(['big', 'page-1', 'page-2']);
    expect(runsOf('delivery.pages.list')).toBe(before + 1);
    // Each of them was a miss the server had to answer: each counted.
    const counted = done.map(remaining).sort((a, b) => a - b);
    expect(new Set(counted).size).toBe(10);
  });

  it('never gives a request that came after a write an answer computed before it, nor keeps that answer', async () => {
    // On PostgreSQL, the echoes of earlier writes (NOTIFY) have come and gone.
    await settleEchoes(s.t);
    const path = '/api/v1/pages/page-2';
    const before = runsOf('delivery.pages.get');
    let release!: () => void;
    s.holdNext = new Promise<void>((resolve) => { release = resolve; });
    const early = get(path);
    // The first computation has read page 2 and is held; then the write commits.
    while (runsOf('delivery.pages.get') === before) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await s.t.run('pages.update', { ref: { slug: 'page-2' }, fields: { title: 'Page two' } });
    await s.t.run('pages.publish', { ref: { slug: 'page-2' } });
    const late = await get(path);
    expect((await late.json() as any).data.fields.title).toBe('Page two');
    release();
    expect((await early).status).toBe(200);
    // What the early computation made was not kept as current.
    expect((await (await get(path)).json() as any).data.fields.title).toBe('Page two');
  });

  it('does not keep errors: a failed computation is made again by the next request', async () => {
    const path = '/api/v1/pages/page-3?fields=title';
    s.failNext = true;
    const failed = await get(path);
    expect(failed.status).toBe(500);
    expect((await failed.json() as any).error.code).toBe('INTERNAL');
    const ok = await get(path);
    expect(ok.status).toBe(200);
    expect((await ok.json() as any).data.fields.title).toBe('Page 3');
    // An answer the operation refuses (404) is not kept either: the next request asks again.
    const before = runsOf('delivery.pages.get');
    expect((await get('/api/v1/pages/nowhere')).status).toBe(404);
    expect((await get('/api/v1/pages/nowhere')).status).toBe(404);
    expect(runsOf('delivery.pages.get')).toBe(before + 2);
  });

  it('never keeps a preview', async () => {
    // On PostgreSQL, the echoes of earlier writes (NOTIFY) have come and gone.
    await settleEchoes(s.t);
    const path = '/api/v1/pages/page-4';
    await get(path);
    const before = runsOf('delivery.pages.get');
    const a = await get(path, { 'x-preview-key': s.preview });
    const b = await get(path, { 'x-preview-key': s.preview });
    expect(a.status).toBe(200);
    expect(b.headers.get('cache-control')).toBe('private, no-store, max-age=0');
    expect(remaining(b)).toBe(remaining(a) - 1);
    expect(runsOf('delivery.pages.get')).toBe(before + 2);
    // The public answer is still the cached one.
    const pub = await get(path);
    expect(pub.headers.get('cache-control')).toBe('public, max-age=900, stale-while-revalidate=1800');
    expect(runsOf('delivery.pages.get')).toBe(before + 2);
  });

  if (testDriver === 'postgres') {
    it('drops an answer written through another engine on the same database', async () => {
      const path = '/api/v1/pages/page-5';
      expect((await (await get(path)).json() as any).data.name).toBe('Page 5');
      const other = await createCms(s.t.config);
      try {
        await other.run('pages.update', { ref: { slug: 'page-5' }, name: 'Written by engine B' }, { actor: { kind: 'terminal' } });
        await other.run('pages.publish', { ref: { slug: 'page-5' } }, { actor: { kind: 'terminal' } });
      } finally {
        await other.close();
      }
      // The other engine's NOTIFY reaches this server a moment after its commit.
      let name = '';
      for (let attempt = 0; attempt < 100 && name !== 'Written by engine B'; attempt++) {
        if (attempt) await new Promise((resolve) => setTimeout(resolve, 50));
        name = (await (await get(path)).json() as any).data.name;
      }
      expect(name).toBe('Written by engine B');
      // And the new answer is kept again.
      const before = runsOf('delivery.pages.get');
      expect((await (await get(path)).json() as any).data.name).toBe('Written by engine B');
      expect(runsOf('delivery.pages.get')).toBe(before);
    });

    it('notices a write whose NOTIFY never came, by polling the revision within seconds', async () => {
      const path = '/api/v1/pages/page-6?fields=title';
      expect((await (await get(path)).json() as any).data.fields.title).toBe('Page 6');
      // Written straight into the database, as a write whose notice was lost: no engine announces it.
      await s.t.cms.db.transaction(async (tx) => {
        await tx.execute(sql`update pages set published_content = jsonb_set(published_content, '{title}', '"Page six"') where slug = 'page-6'`);
        await tx.execute(sql`update content_revisions set revision = revision + 1 where slot = (select min(slot) from content_revisions)`);
      });
      let title = '';
      for (let attempt = 0; attempt < 100 && title !== 'Page six'; attempt++) {
        if (attempt) await new Promise((resolve) => setTimeout(resolve, 100));
        title = (await (await get(path)).json() as any).data.fields.title;
      }
      expect(title).toBe('Page six');
    });

    it('hears its own write once: neither its own NOTIFY nor the revision poll drops the cache again', async () => {
      await settleEchoes(s.t);
      let changes = 0;
      const count = () => { changes++; };
      s.t.cms.events.on('content-changed', count);
      try {
        expect((await s.write('PUT', '/api/v1/pages/page-7', { fields: { title: 'Page seven' } })).status).toBe(200);
        // Longer than the poll's period (2 s): a poll has seen the write by now.
        await new Promise((resolve) => setTimeout(resolve, 4500));
        expect(changes).toBe(1);
      } finally {
        s.t.cms.events.off('content-changed', count);
      }
    });
  }
});

describe('response cache bounded by bytes', () => {
  let s: Site;
  // Half of the 16 KB is for answers (the other half for what lists are made of), and a quarter of
  // that half is the arena of bodies asked for once, which takes none over 256 bytes: 6 KB of LRU,
  // room for one small answer (each counts twice its body and 2 KB), not for the big page.
  beforeAll(async () => { s = await startSite({ cacheMaxBytes: 16 * 1024 }); });
  afterAll(async () => { await s.close(); });

  const get = (path: string) => s.http.fetch(path, { headers: { 'x-api-key': s.pk } });
  const runsOf = (name: string) => s.runs.get(name) ?? 0;
  const isHit = async (path: string) => {
    const before = runsOf('delivery.pages.get');
    expect((await get(path)).status).toBe(200);
    return runsOf('delivery.pages.get') === before;
  };

  it('does not keep an answer larger than the bound', async () => {
    const big = await get('/api/v1/pages/big');
    expect(big.status).toBe(200);
    expect((await big.text()).length).toBeGreaterThan(16 * 1024);
    expect(await isHit('/api/v1/pages/big')).toBe(false);
    expect(await isHit('/api/v1/pages/big')).toBe(false);
  });

  it('evicts the least recently used answers to stay within the bound', async () => {
    expect(await isHit('/api/v1/pages/page-1')).toBe(false);
    expect(await isHit('/api/v1/pages/page-1')).toBe(true);
    for (let i = 2; i <= 8; i++) await get(`/api/v1/pages/page-${i}`);
    // Eight answers of about 3.5 KB each do not fit in 6 KB: the oldest went, the newest stayed.
    expect(await isHit('/api/v1/pages/page-8')).toBe(true);
    expect(await isHit('/api/v1/pages/page-1')).toBe(false);
  });
});
