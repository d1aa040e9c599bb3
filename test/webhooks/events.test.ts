import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventKinds } from '../../src/core/context.js';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.js';
import type { WebhookDispatcher } from '../../src/core/webhooks/port.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { startReceiver, type Received, type Receiver } from './receiver.js';

/** A 1×1 PNG. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describe('events of the content and media operations reach a receiver', () => {
  let t: TestCms;
  let r: Receiver;
  let dispatcher: WebhookDispatcher;
  let secret: string;

  /** Sends what is due and answers what arrived since the last call, checking every signature. */
  const deliver = async (): Promise<Received[]> => {
    const before = r.received.length;
    await dispatcher.processDue();
    const got = r.received.slice(before);
    for (const g of got) {
      expect(g.headers['x-webhook-signature']).toBe('sha256=' + createHmac('sha256', secret).update(g.raw).digest('hex'));
      expect(g.headers['x-webhook-event']).toBe(g.body.event);
    }
    return got;
  };
  const only = async () => {
    const got = await deliver();
    expect(got).toHaveLength(1);
    return got[0]!.body;
  };

  beforeAll(async () => {
    t = await createTestCms();
    r = await startReceiver();
    dispatcher = createWebhookDispatcher(t.cms, { timeoutMs: 10_000 });
    await t.run('schema.push', {
      pageTypes: [{ definition: { slug: 'landing', name: 'Landing', fields: [{ name: 'title', type: 'text', required: true }] } }],
      collections: [{ definition: { slug: 'products', name: 'Products', fields: [{ name: 'price', type: 'number' }] } }],
      components: [],
    });
    secret = (await t.run('webhooks.create', { url: r.url, events: [...eventKinds] })).secret;
  });
  beforeEach(async () => { await deliver(); });
  afterAll(async () => {
    await dispatcher.close();
    await r.close();
    await t.close();
  });

  it('page create, update, publish, unpublish and delete', async () => {
    const page = await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Home', slug: 'home', fields: { title: 'Hi' } });
    expect(await only()).toMatchObject({ event: 'page.created', data: { id: page.id, slug: 'home', name: 'Home', status: 'draft', version: 1 } });
    await t.run('pages.update', { ref: { id: page.id }, name: 'Home page' });
    expect(await only()).toMatchObject({ event: 'page.updated', data: { id: page.id, name: 'Home page', version: 2 } });
    await t.run('pages.publish', { ref: { id: page.id } });
    expect(await only()).toMatchObject({ event: 'page.published', data: { id: page.id, status: 'published' } });
    await t.run('pages.unpublish', { ref: { id: page.id } });
    expect(await only()).toMatchObject({ event: 'page.unpublished', data: { id: page.id, status: 'draft' } });
    await t.run('pages.delete', { ref: { id: page.id } });
    expect(await only()).toEqual({ event: 'page.deleted', timestamp: expect.stringMatching(/\.\d{3}Z$/), data: { id: page.id, name: 'Home page', slug: 'home' } });
  });

  it('a page created published sends page.created and then page.published', async () => {
    const page = await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Live', slug: 'live', fields: { title: 'Live' }, status: 'published' });
    const got = await deliver();
    expect(got.map((g) => g.body.event).sort()).toEqual(['page.created', 'page.published']);
    expect(got.every((g) => g.body.data.id === page.id)).toBe(true);
  });

  it('collection item create, update, publish, unpublish and delete', async () => {
    const item = await t.run('items.create', { collectionTypeSlug: 'products', name: 'Mug', slug: 'mug', fields: { price: 9 } });
    expect(await only()).toMatchObject({ event: 'collection_item.created', data: { id: item.id, slug: 'mug' } });
    await t.run('items.update', { ref: { id: item.id }, collection: 'products', fields: { price: 10 } });
    expect(await only()).toMatchObject({ event: 'collection_item.updated', data: { id: item.id } });
    await t.run('items.publish', { ref: { id: item.id }, collection: 'products' });
    expect(await only()).toMatchObject({ event: 'collection_item.published', data: { id: item.id } });
    await t.run('items.unpublish', { ref: { id: item.id }, collection: 'products' });
    expect(await only()).toMatchObject({ event: 'collection_item.unpublished', data: { id: item.id } });
    await t.run('items.delete', { ref: { id: item.id }, collection: 'products' });
    expect(await only()).toMatchObject({ event: 'collection_item.deleted', data: { id: item.id, name: 'Mug', slug: 'mug' } });
  });

  it('a page or item write reaches each active webhook subscribed to its event, and no other', async () => {
    const other = await startReceiver();
    const itemsOnly = await t.run('webhooks.create', { url: other.url, events: ['collection_item.created'] });
    const disabled = await t.run('webhooks.create', { url: other.url, events: [...eventKinds], active: false });
    try {
      await t.run('pages.create', { pageTypeSlug: 'landing', name: 'Routed', slug: 'routed', fields: { title: 'Hi' } });
      expect((await deliver()).map((g) => g.body.event)).toEqual(['page.created']);
      expect(other.received).toEqual([]);
      await t.run('items.create', { collectionTypeSlug: 'products', name: 'Routed', slug: 'routed', fields: { price: 1 } });
      expect((await deliver()).map((g) => g.body.event)).toEqual(['collection_item.created']);
      // Sent for the subscribed webhook: signed with its secret.
      expect(other.received.map((g) => [g.body.event, g.headers['x-webhook-signature']]))
        .toEqual([['collection_item.created', 'sha256=' + createHmac('sha256', itemsOnly.secret).update(other.received[0]!.raw).digest('hex')]]);
      // Switched on, the disabled one hears the next write.
      await t.run('webhooks.update', { id: disabled.id, active: true });
      await t.run('items.update', { ref: { slug: 'routed' }, collection: 'products', name: 'Routed again' });
      await deliver();
      expect(other.received.map((g) => g.body.event)).toEqual(['collection_item.created', 'collection_item.updated']);
    } finally {
      await t.run('webhooks.delete', { id: itemsOnly.id });
      await t.run('webhooks.delete', { id: disabled.id });
      await other.close();
    }
  });

  it('bulk publish sends one page.published per page, with { id }', async () => {
    const a = await t.run('pages.create', { pageTypeSlug: 'landing', name: 'A', slug: 'bulk-a', fields: { title: 'A' } });
    const b = await t.run('pages.create', { pageTypeSlug: 'landing', name: 'B', slug: 'bulk-b', fields: { title: 'B' } });
    await deliver();
    await t.run('pages.bulkPublish', { id: a.id });
    await t.run('pages.bulkPublish', { id: b.id });
    const got = await deliver();
    expect(got.map((g) => g.body).sort((x, y) => x.data.id.localeCompare(y.data.id))).toEqual(
      [a.id, b.id].sort().map((id) => ({ event: 'page.published', timestamp: expect.any(String), data: { id } })));
  });

  it('media upload and delete', async () => {
    const media = await t.run('media.upload', { data: png.toString('base64'), filename: 'dot.png' });
    expect(await only()).toMatchObject({ event: 'media.uploaded', data: { id: media.id } });
    await t.run('media.delete', { id: media.id });
    const deleted = await only();
    expect(deleted.event).toBe('media.deleted');
    expect(Object.keys(deleted.data).sort()).toEqual(['filename', 'id', 'originalFilename']);
    expect(deleted.data).toMatchObject({ id: media.id, originalFilename: 'dot.png' });
  });

  it('a type deleted with its content (push --force, DELETE ?force=true) sends one .deleted per live entry', async () => {
    await t.run('types.create', { kind: 'pageTypes', definition: { slug: 'promo', name: 'Promo', fields: [{ name: 'title', type: 'text' }] } });
    await t.run('types.create', { kind: 'collections', definition: { slug: 'extras', name: 'Extras', fields: [] } });
    const live = await t.run('pages.create', { pageTypeSlug: 'promo', name: 'Live', slug: 'promo-live', fields: { title: 'On' }, status: 'published' });
    const draft = await t.run('pages.create', { pageTypeSlug: 'promo', name: 'Draft', slug: 'promo-draft', fields: {} });
    const gone = await t.run('pages.create', { pageTypeSlug: 'promo', name: 'Gone', slug: 'promo-gone', fields: {} });
    await t.run('pages.delete', { ref: { id: gone.id } });
    const extra = await t.run('items.create', { collectionTypeSlug: 'extras', name: 'Extra', slug: 'extra', fields: {} });
    await deliver();

    await t.run('types.delete', { kind: 'pageTypes', slug: 'promo', force: true });
    const pagesGone = await deliver();
    expect(pagesGone.map((g) => [g.body.event, g.body.data]).sort((a, b) => String(a[1].slug).localeCompare(String(b[1].slug)))).toEqual([
      ['page.deleted', { id: draft.id, name: 'Draft', slug: 'promo-draft' }],
      ['page.deleted', { id: live.id, name: 'Live', slug: 'promo-live' }],
    ]);
    // A push without the collection's file, with force.
    const set = await t.run('schema.pull', {});
    await t.run('schema.push', { pageTypes: set.pageTypes.map((definition: unknown) => ({ definition })), collections: set.collections.filter((c: { slug: string }) => c.slug !== 'extras').map((definition: unknown) => ({ definition })), components: [], force: true });
    expect((await deliver()).map((g) => [g.body.event, g.body.data])).toEqual([['collection_item.deleted', { id: extra.id, name: 'Extra', slug: 'extra' }]]);
  });
});
