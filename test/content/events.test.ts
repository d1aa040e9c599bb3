import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhooks } from '../../src/db/schema/index.js';
import { createContentHarness, type ContentHarness } from './support.js';

/** Every public write hands its event to the engine after commit; a failed write hands none. */
describe('events', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await createContentHarness();
  });
  afterAll(async () => { await h.close(); });
  beforeEach(() => { h.events.length = 0; });

  const kinds = () => h.events.map((e) => e.kind);

  it('page writes: created, updated, published, unpublished, deleted, each with the contract\'s data', async () => {
    let r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Ev', slug: 'ev', fields: { title: 'T' } });
    const created = (await r.json()).data;
    expect(kinds()).toEqual(['page.created']);
    expect(h.events[0]).toEqual({ projectId: h.projectId, kind: 'page.created', data: created });

    r = await h.write('PUT', '/api/v1/pages/ev', { name: 'Ev 2' });
    const updated = (await r.json()).data;
    expect(h.events[1]).toEqual({ projectId: h.projectId, kind: 'page.updated', data: updated });

    r = await h.write('POST', '/api/v1/pages/ev/publish');
    const published = (await r.json()).data;
    expect(h.events[2]).toEqual({ projectId: h.projectId, kind: 'page.published', data: published });

    r = await h.write('POST', '/api/v1/pages/ev/unpublish');
    const unpublished = (await r.json()).data;
    expect(h.events[3]).toEqual({ projectId: h.projectId, kind: 'page.unpublished', data: unpublished });

    r = await h.write('DELETE', '/api/v1/pages/ev');
    expect(r.status).toBe(200);
    expect(h.events[4]).toEqual({ projectId: h.projectId, kind: 'page.deleted', data: { id: created.id, name: 'Ev 2', slug: 'ev' } });
    expect(kinds()).toEqual(['page.created', 'page.updated', 'page.published', 'page.unpublished', 'page.deleted']);
  });

  it('creating a page published emits page.created, then page.published', async () => {
    const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Live', slug: 'live', fields: { title: 'T' }, status: 'published' });
    const page = (await r.json()).data;
    expect(kinds()).toEqual(['page.created', 'page.published']);
    expect(h.events[0]!.data).toMatchObject({ id: page.id, status: 'draft', publishedAt: null });
    expect(h.events[1]!.data).toEqual(page);
  });

  it('collection item writes emit collection_item.* events', async () => {
    let r = await h.write('POST', '/api/v1/collections/products', { name: 'Item', slug: 'item', fields: { price: 1 } });
    const created = (await r.json()).data;
    r = await h.write('PUT', '/api/v1/collections/products/item', { fields: { price: 2 } });
    const updated = (await r.json()).data;
    r = await h.write('POST', '/api/v1/collections/products/item/publish');
    const published = (await r.json()).data;
    r = await h.write('POST', '/api/v1/collections/products/item/unpublish');
    const unpublished = (await r.json()).data;
    await h.write('DELETE', '/api/v1/collections/products/item');
    expect(h.events).toEqual([
      { projectId: h.projectId, kind: 'collection_item.created', data: created },
      { projectId: h.projectId, kind: 'collection_item.updated', data: updated },
      { projectId: h.projectId, kind: 'collection_item.published', data: published },
      { projectId: h.projectId, kind: 'collection_item.unpublished', data: unpublished },
      { projectId: h.projectId, kind: 'collection_item.deleted', data: { id: created.id, name: 'Item', slug: 'item' } },
    ]);
    h.events.length = 0;
    await h.write('POST', '/api/v1/collections/products', { name: 'Item 2', slug: 'item-2', status: 'published' });
    expect(kinds()).toEqual(['collection_item.created', 'collection_item.published']);
  });

  it('a write that fails emits nothing', async () => {
    const target = await h.createPage({ pageTypeSlug: 'article', name: 'Target', slug: 'target', status: 'published' });
    await h.createPage({ name: 'Ref', slug: 'ref', fields: { title: 'T', related: { _ref: target.id, _type: 'page' } } });
    await h.createPage({ name: 'Empty', slug: 'empty', fields: {} });
    h.events.length = 0;
    const failures: Array<[string, string, unknown, Record<string, string>?]> = [
      ['POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Bad', slug: 'bad', fields: { priority: 'x' } }],
      ['POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Dup', slug: 'target' }],
      ['POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Live empty', slug: 'live-empty', status: 'published' }],
      ['PUT', '/api/v1/pages/target', { name: 'Stale' }, { 'if-match': '"9"' }],
      ['PUT', '/api/v1/pages/target', { fields: { nope: 1 } }],
      ['POST', '/api/v1/pages/empty/publish', undefined],
      ['DELETE', '/api/v1/pages/target', undefined],
      ['POST', '/api/v1/pages/ghost/unpublish', undefined],
      ['POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Big', slug: 'big', fields: { summary: 'x'.repeat(1_100_000) } }],
    ];
    for (const [method, path, body, headers] of failures) {
      const r = await h.write(method, path, body, headers ? { headers } : {});
      expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    }
    const forbidden = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'article', name: 'F', slug: 'f' }, { key: h.keys.public });
    expect(forbidden.status).toBe(403);
    expect(h.events).toEqual([]);
    // Nothing of the failed creates exists either.
    expect((await h.write('POST', '/api/v1/pages/live-empty/publish')).status).toBe(404);
  });

  it('writes events to the webhook outbox in the write\'s transaction: a failed write leaves no row', async () => {
    const [hook] = await h.t.cms.db.insert(webhooks).values({
      projectId: h.projectId, url: 'http://127.0.0.1:9/hook', events: ['page.created', 'page.published'], secret: 'whsec_test',
    }).returning();
    const queued = async () => (await h.t.cms.db.select({ event: webhookDeliveries.event }).from(webhookDeliveries)
      .where(eq(webhookDeliveries.webhookId, hook!.id))).map((d) => d.event).sort();
    // Refused while publishing (required title missing): the created event rolls back with it.
    let r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Rolled back', slug: 'rolled-back', status: 'published' });
    expect(r.status).toBe(400);
    expect(await queued()).toEqual([]);
    r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Queued', slug: 'queued', fields: { title: 'T' }, status: 'published' });
    expect(r.status).toBe(201);
    expect(await queued()).toEqual(['page.created', 'page.published']);
    await h.t.cms.db.delete(webhooks).where(eq(webhooks.id, hook!.id));
  });
});
