import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentHarness, type ContentHarness } from './support.js';

const itemWriteKeys = ['collectionTypeId', 'createdAt', 'draftContent', 'id', 'name', 'publishedAt', 'publishedContent', 'slug', 'sortOrder', 'status', 'updatedAt', 'version'];

/** Collection item writes under /api/v1/collections/:type, by the same rules as pages (drafts, publish, key-by-key merges, versions). */
describe('collection item writes', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await createContentHarness();
  });
  afterAll(async () => { await h.close(); });

  it('creates a draft item: 201, version 1, defaults applied, authored order appended', async () => {
    let r = await h.write('POST', '/api/v1/collections/categories', { name: 'Tools', slug: 'tools', fields: { label: 'Tools' } });
    expect(r.status).toBe(201);
    const first = (await r.json()).data;
    for (const k of itemWriteKeys) expect(first, k).toHaveProperty(k);
    expect(first).toMatchObject({ name: 'Tools', slug: 'tools', status: 'draft', version: 1, publishedAt: null, publishedContent: null, draftContent: { label: 'Tools', code: 'none' } });
    r = await h.write('POST', '/api/v1/collections/categories', { name: 'Garden', slug: 'garden', fields: { label: 'Garden' } });
    const second = (await r.json()).data;
    expect(second.sortOrder).toBe(first.sortOrder + 1);
    const placed = await h.createItem('categories', { name: 'Kitchen', slug: 'kitchen', fields: { label: 'K' }, sortOrder: -5 });
    expect(placed.sortOrder).toBe(-5);
  });

  it('creates a published item and refuses a published one with required fields empty', async () => {
    const item = await h.createItem('categories', { name: 'Live', slug: 'live', fields: { label: 'Live' }, status: 'published' });
    expect(item).toMatchObject({ status: 'published', publishedContent: { label: 'Live', code: 'none' } });
    expect((await h.get('/api/v1/collections/categories/live')).status).toBe(200);
    const r = await h.write('POST', '/api/v1/collections/categories', { name: 'No label', slug: 'no-label', status: 'published' });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body.error.code).toBe('REQUIRED_FIELDS_MISSING');
    expect(body.error.details).toEqual({ fields: ['label'] });
  });

  it('answers 404 for an unknown collection type', async () => {
    for (const [method, path] of [['POST', '/api/v1/collections/nope'], ['PUT', '/api/v1/collections/nope/tools'], ['POST', '/api/v1/collections/nope/tools/publish'], ['DELETE', '/api/v1/collections/nope/tools']] as const) {
      const r = await h.write(method, path, method === 'DELETE' ? undefined : { name: 'X', slug: 'x' });
      expect(r.status, path).toBe(404);
      expect((await r.json()).error.code).toBe('NOT_FOUND');
    }
  });

  it('keeps slugs unique per collection type, with the same slug rules as pages', async () => {
    await h.createItem('products', { name: 'Saw', slug: 'saw', fields: {} });
    let r = await h.write('POST', '/api/v1/collections/products', { name: 'Saw 2', slug: 'saw' });
    expect(r.status).toBe(409);
    expect((await r.json()).error.code).toBe('SLUG_EXISTS');
    r = await h.write('POST', '/api/v1/collections/categories', { name: 'Saw', slug: 'saw', fields: { label: 'S' } });
    expect(r.status).toBe(201);
    for (const slug of ['-a', 'a-', 'a--b', 'a_b', 'A']) {
      r = await h.write('POST', '/api/v1/collections/products', { name: 'S', slug });
      expect(r.status, slug).toBe(400);
      expect((await r.json()).error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('validates item content and refuses seo (items have none)', async () => {
    let r = await h.write('POST', '/api/v1/collections/products', { name: 'Bad', slug: 'bad', fields: { price: 'ten', colour: 'red' } });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.map((d: any) => d.path).sort()).toEqual(['fields.colour', 'fields.price']);
    // The name and slug are reported with the content.
    r = await h.write('POST', '/api/v1/collections/products', { name: '', slug: 'Bad_Slug', fields: { price: 'ten' } });
    expect(r.status).toBe(400);
    expect((await r.json()).error.details.map((d: any) => d.path).sort()).toEqual(['fields.price', 'name', 'slug']);
    r = await h.write('POST', '/api/v1/collections/products', { name: 'Seo', slug: 'seo', seo: { metaTitle: 'x' } });
    expect(r.status).toBe(400);
    r = await h.write('POST', '/api/v1/collections/products', { name: 'Big', slug: 'big', fields: { sku: 'x'.repeat(1_048_577) } });
    expect(r.status).toBe(413);
    expect((await r.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('updates by merging fields; name, slug and sortOrder replace; the version increases', async () => {
    await h.createItem('products', { name: 'Drill', slug: 'drill', fields: { price: 99, sku: 'D', rank: '1' } });
    let r = await h.write('PUT', '/api/v1/collections/products/drill', { fields: { price: 89, rank: null } });
    expect(r.status).toBe(200);
    let { data } = await r.json();
    expect(data).toMatchObject({ version: 2, draftContent: { price: 89, sku: 'D' } });
    expect(data.draftContent).not.toHaveProperty('rank');
    r = await h.write('PUT', '/api/v1/collections/products/drill', { name: 'Drill pro', slug: 'drill-pro', sortOrder: 42 });
    ({ data } = await r.json());
    expect(data).toMatchObject({ name: 'Drill pro', slug: 'drill-pro', sortOrder: 42, version: 3 });
    // Updating under another type's path finds nothing.
    r = await h.write('PUT', '/api/v1/collections/categories/drill-pro', { name: 'x' });
    expect(r.status).toBe(404);
    r = await h.write('PUT', '/api/v1/collections/products/saw', { slug: 'drill-pro' });
    expect(r.status).toBe(409);
    expect((await r.json()).error.code).toBe('SLUG_EXISTS');
  });

  it('publishes, re-publishes the current draft, and unpublishes', async () => {
    await h.createItem('products', { name: 'Lamp', slug: 'lamp', fields: { price: 10 } });
    let r = await h.write('POST', '/api/v1/collections/products/lamp/publish');
    expect(r.status).toBe(200);
    let { data } = await r.json();
    expect(data).toMatchObject({ status: 'published', version: 1, publishedContent: { price: 10 } });
    expect((await (await h.get('/api/v1/collections/products/lamp')).json()).data.fields.price).toBe(10);
    await h.write('PUT', '/api/v1/collections/products/lamp', { fields: { price: 12 } });
    expect((await (await h.get('/api/v1/collections/products/lamp')).json()).data.fields.price).toBe(10);
    r = await h.write('POST', '/api/v1/collections/products/lamp/publish');
    ({ data } = await r.json());
    expect(data).toMatchObject({ status: 'published', version: 2, publishedContent: { price: 12 } });
    expect((await (await h.get('/api/v1/collections/products/lamp')).json()).data.fields.price).toBe(12);
    r = await h.write('POST', '/api/v1/collections/products/lamp/unpublish');
    expect(r.status).toBe(200);
    ({ data } = await r.json());
    expect(data).toMatchObject({ status: 'draft', publishedAt: null, publishedContent: null, draftContent: { price: 12 } });
    expect((await h.get('/api/v1/collections/products/lamp')).status).toBe(404);
  });

  it('refuses to publish with required fields empty', async () => {
    await h.createItem('categories', { name: 'Blank', slug: 'blank', fields: {} });
    const r = await h.write('POST', '/api/v1/collections/categories/blank/publish');
    expect(r.status).toBe(400);
    expect((await r.json()).error).toMatchObject({ code: 'REQUIRED_FIELDS_MISSING', details: { fields: ['label'] } });
  });

  it('soft-deletes; a referenced item answers 409 HAS_REFERENCES unless force=true; the slug is free again', async () => {
    const category = await h.createItem('categories', { name: 'Linked', slug: 'linked', fields: { label: 'L' }, status: 'published' });
    const product = await h.createItem('products', { name: 'Linked product', slug: 'linked-product', fields: { category: { _ref: category.id, _type: 'collectionItem' } } });
    let r = await h.write('DELETE', '/api/v1/collections/categories/linked');
    expect(r.status).toBe(409);
    const body = await r.json();
    expect(body.error.code).toBe('HAS_REFERENCES');
    expect(body.error.details.referrers).toEqual([expect.objectContaining({ id: product.id, slug: 'linked-product', type: 'collectionItem' })]);
    r = await h.write('DELETE', '/api/v1/collections/categories/linked?force=true');
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ success: true });
    expect((await h.get('/api/v1/collections/categories/linked')).status).toBe(404);
    expect((await h.write('DELETE', '/api/v1/collections/categories/linked')).status).toBe(404);
    const again = await h.createItem('categories', { name: 'Linked again', slug: 'linked', fields: { label: 'L2' } });
    expect(again.id).not.toBe(category.id);
  });
});
