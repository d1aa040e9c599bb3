import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentHarness, pageWriteKeys, type ContentHarness, type JsonResponse } from './support.js';

const isoPattern = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** POST/PUT/DELETE /api/v1/pages and publish/unpublish: the write shapes, expected versions, the 1 MB fields limit and key-by-key merges. */
describe('page writes', () => {
  let h: ContentHarness;
  let image: { id: string };

  beforeAll(async () => {
    h = await createContentHarness();
    image = await h.insertMedia();
  });
  afterAll(async () => { await h.close(); });

  describe('create', () => {
    it('creates a draft: 201, the write shape, version 1, publishedAt null, defaults applied', async () => {
      const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'First', slug: 'first', fields: { title: 'Hello' } });
      expect(r.status).toBe(201);
      const { data } = await r.json();
      for (const k of pageWriteKeys) expect(data, k).toHaveProperty(k);
      const landing = await h.t.run('types.get', { kind: 'pageTypes', slug: 'landing' });
      expect(data).toMatchObject({
        name: 'First', slug: 'first', status: 'draft', version: 1, publishedAt: null, publishedContent: null,
        draftContent: { title: 'Hello', tagline: 'Welcome' }, seo: {},
      });
      expect(data.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(data.pageTypeId).toMatch(/^[0-9a-f-]{36}$/);
      expect(data.pageTypeId).toBe(landing.id);
      expect(data.createdAt).toMatch(isoPattern);
      expect(data.updatedAt).toMatch(isoPattern);
      expect(r.headers.get('cache-control')).toBe('no-store');
    });

    it('keeps a given value over the default, and null stays "no value"', async () => {
      const a = await h.createPage({ name: 'Tag', slug: 'tagged', fields: { title: 'T', tagline: 'Own tagline' } });
      expect(a.draftContent.tagline).toBe('Own tagline');
      const cat = await h.createItem('categories', { name: 'Cat', slug: 'cat', fields: { label: 'Cat' } });
      expect(cat.draftContent).toEqual({ label: 'Cat', code: 'none' });
    });

    it('creates a published page when asked: publishedContent and publishedAt set, readable at once', async () => {
      const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Live', slug: 'live-now', fields: { title: 'Live' }, status: 'published' });
      expect(r.status).toBe(201);
      const { data } = await r.json();
      expect(data).toMatchObject({ status: 'published', version: 1, publishedContent: { title: 'Live', tagline: 'Welcome' } });
      expect(data.publishedAt).toMatch(isoPattern);
      const read = await h.get('/api/v1/pages/live-now');
      expect(read.status).toBe(200);
      expect((await read.json()).data.publishedAt).toBe(data.publishedAt);
    });

    it('lets drafts leave required fields empty, but not a page created published', async () => {
      const draft = await h.createPage({ name: 'Empty', slug: 'empty-draft', fields: {} });
      expect(draft.draftContent).toEqual({ tagline: 'Welcome' });
      const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Empty live', slug: 'empty-live', status: 'published' });
      expect(r.status).toBe(400);
      const body = await r.json();
      expect(body.error.code).toBe('REQUIRED_FIELDS_MISSING');
      expect(JSON.stringify(body.error.details)).toContain('title');
      // Nothing was created.
      expect((await h.write('POST', '/api/v1/pages/empty-live/publish')).status).toBe(404);
    });

    it('answers 404 for an unknown page type', async () => {
      const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'nope', name: 'X', slug: 'x' });
      expect(r.status).toBe(404);
      expect((await r.json()).error.code).toBe('NOT_FOUND');
    });

    it('refuses content that does not fit the schema with 400 VALIDATION_FAILED, every problem at once', async () => {
      const r = await h.write('POST', '/api/v1/pages', {
        pageTypeSlug: 'landing', name: 'Bad', slug: 'bad', fields: { title: 5, priority: 'high', nope: true, hero: 'not-a-uuid' },
      });
      expect(r.status).toBe(400);
      const body = await r.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      const paths = body.error.details.map((d: any) => d.path).sort();
      expect(paths).toEqual(['fields.hero', 'fields.nope', 'fields.priority', 'fields.title']);
      for (const d of body.error.details) expect(typeof d.message).toBe('string');
    });

    it('reports the name, slug, content and SEO problems of one body together', async () => {
      const r = await h.write('POST', '/api/v1/pages', {
        pageTypeSlug: 'landing', name: ' ', slug: 'Bad_Slug', fields: { priority: 'high', title: 5 }, seo: { canonicalUrl: 7 },
      });
      expect(r.status).toBe(400);
      const body = await r.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.details.map((d: any) => d.path).sort()).toEqual(['fields.priority', 'fields.title', 'name', 'seo.canonicalUrl', 'slug']);
      for (const path of ['name', 'slug', 'fields.priority', 'seo.canonicalUrl']) expect(body.error.message).toContain(path);
      await h.createPage({ name: 'All at once', slug: 'all-at-once', fields: { title: 'T' } });
      const u = await h.write('PUT', '/api/v1/pages/all-at-once', { name: '', slug: 'Also_Bad', fields: { priority: 'high' }, seo: { metaTitle: 1 } });
      expect(u.status).toBe(400);
      expect((await u.json()).error.details.map((d: any) => d.path).sort()).toEqual(['fields.priority', 'name', 'seo.metaTitle', 'slug']);
      expect((await h.t.run('pages.get', { ref: { slug: 'all-at-once' } })).version).toBe(1);
      // A taken slug is a conflict, reported once the body is valid.
      await h.createPage({ name: 'Taken', slug: 'taken-by-other', fields: { title: 'T' } });
      const invalid = await h.write('PUT', '/api/v1/pages/all-at-once', { slug: 'taken-by-other', fields: { priority: 'x' } });
      expect(invalid.status).toBe(400);
      const taken = await h.write('PUT', '/api/v1/pages/all-at-once', { slug: 'taken-by-other', fields: { priority: 2 } });
      expect(taken.status).toBe(409);
      expect((await taken.json()).error.code).toBe('SLUG_EXISTS');
    });

    it('refuses references to things that do not exist', async () => {
      const r = await h.write('POST', '/api/v1/pages', {
        pageTypeSlug: 'landing', name: 'Ref', slug: 'ref', fields: { title: 'R', product: { _ref: '00000000-0000-4000-8000-000000000000', _type: 'collectionItem' } },
      });
      expect(r.status).toBe(400);
      expect((await r.json()).error.code).toBe('VALIDATION_FAILED');
    });

    it('checks name length and the body members', async () => {
      for (const body of [
        { pageTypeSlug: 'landing', name: '', slug: 'n1' },
        { pageTypeSlug: 'landing', name: 'x'.repeat(256), slug: 'n2' },
        { pageTypeSlug: 'landing', slug: 'n3' },
        { pageTypeSlug: 'landing', name: 'N', slug: 'n4', status: 'archived' },
        { pageTypeSlug: 'landing', name: 'N', slug: 'n5', unknown: 1 },
        { pageTypeSlug: 'landing', name: 'N', slug: 'n6', seo: { ogImage: image.id } },
        { pageTypeSlug: 'landing', name: 'N', slug: 'n7', seo: { ogImageId: 'not-a-uuid' } },
        { pageTypeSlug: 'landing', name: 'N', slug: 'n8', fields: [] },
      ]) {
        const r = await h.write('POST', '/api/v1/pages', body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect((await r.json()).error.code).toBe('VALIDATION_FAILED');
      }
      const ok = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'x'.repeat(255), slug: 'n9' });
      expect(ok.status).toBe(201);
      // Characters, not UTF-16 units: 255 emoji are a valid name, 256 are not.
      expect((await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: '😀'.repeat(255), slug: 'n10' })).status).toBe(201);
      const long = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: '😀'.repeat(256), slug: 'n11' });
      expect(long.status).toBe(400);
      expect((await long.json()).error.details).toEqual([{ path: 'name', message: expect.any(String) }]);
    });

    it('says a slug is too long when it is, and refuses lone surrogates and __proto__ members at their paths', async () => {
      const long = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'L', slug: 'a'.repeat(256) });
      expect(long.status).toBe(400);
      expect((await long.json()).error.details).toEqual([{ path: 'slug', message: 'must be at most 255 characters' }]);
      expect((await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'L', slug: 'a'.repeat(255) })).status).toBe(201);
      // JSON.stringify writes a lone surrogate as the escape "\ud800".
      const lone = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Lone \ud800', slug: 'lone', fields: { title: 'x\udc00', summary: 'fine 😀' } });
      expect(lone.status).toBe(400);
      expect((await lone.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [
        { path: 'name', message: expect.stringMatching(/lone surrogate/) },
        { path: 'fields.title', message: expect.stringMatching(/lone surrogate/) },
      ] });
      const proto = await h.http.fetch('/api/v1/pages', {
        method: 'POST',
        headers: { 'x-api-key': h.keys.secret, 'idempotency-key': 'proto-member', 'content-type': 'application/json' },
        body: '{"pageTypeSlug":"landing","name":"P","slug":"proto","fields":{"__proto__":{"title":"x"}}}',
      }) as JsonResponse;
      expect(proto.status).toBe(400);
      expect((await proto.json()).error.details).toEqual([{ path: 'fields.__proto__', message: 'is not an allowed member name' }]);
      // Nothing was written.
      for (const slug of ['lone', 'proto']) await expect(h.t.run('pages.get', { ref: { slug } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    });

    it('refuses a body nested deeper than 256 levels (it answered 500 at a few thousand)', async () => {
      const nested = (depth: number) => `{"pageTypeSlug":"landing","name":"D","slug":"deep-${depth}","fields":{"extra":${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      for (const depth of [300, 100_000]) {
        const r = await h.http.fetch('/api/v1/pages', {
          method: 'POST', body: nested(depth),
          headers: { 'x-api-key': h.keys.secret, 'idempotency-key': `deep-${depth}`, 'content-type': 'application/json' },
        }) as JsonResponse;
        expect(r.status, String(depth)).toBe(400);
        expect((await r.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '(body)', message: 'nests deeper than 256 levels' }] });
      }
      // Brackets inside strings are text, not nesting.
      const text = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: '['.repeat(255), slug: 'brackets', fields: { summary: '{['.repeat(1000) } });
      expect(text.status).toBe(201);
    });

    it('refuses a body that is not a JSON object', async () => {
      for (const body of ['not json', '[1,2]', '"text"']) {
        const r = await h.http.fetch('/api/v1/pages', { method: 'POST', headers: { 'x-api-key': h.keys.secret, 'idempotency-key': `raw-${body}`, 'content-type': 'application/json' }, body }) as JsonResponse;
        expect(r.status, body).toBe(400);
        expect((await r.json()).error.code).toBe('VALIDATION_FAILED');
      }
    });

    it('applies the slug rules and refuses taken slugs with 409 SLUG_EXISTS', async () => {
      for (const slug of ['-a', 'a-', 'a--b', 'a_b', 'A', 'Caps', 'a b', 'a/b', 'é', '']) {
        const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'article', name: 'S', slug });
        expect(r.status, slug).toBe(400);
        expect((await r.json()).error.code, slug).toBe('VALIDATION_FAILED');
      }
      for (const slug of ['a', 'a-b', 'a1-2b-c3', '2026']) {
        const r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'article', name: 'S', slug });
        expect(r.status, slug).toBe(201);
      }
      const taken = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Again', slug: 'a-b' });
      expect(taken.status).toBe(409);
      expect((await taken.json()).error.code).toBe('SLUG_EXISTS');
    });

    it('answers 413 PAYLOAD_TOO_LARGE over 1,048,576 bytes of fields; exactly the limit is fine', async () => {
      // {"title":"T","summary":"…"} with the summary filling the rest: the fields as sent count, not
      // the type's default (tagline) added to what is stored.
      const overhead = JSON.stringify({ title: 'T', summary: '' }).length;
      const at = { title: 'T', summary: 'x'.repeat(1_048_576 - overhead) };
      expect(Buffer.byteLength(JSON.stringify(at))).toBe(1_048_576);
      let r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Big', slug: 'big', fields: at });
      expect(r.status).toBe(201);
      expect((await r.json()).data.draftContent.tagline).toBe('Welcome');
      const over = { title: 'T', summary: 'x'.repeat(1_048_577 - overhead) };
      r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Bigger', slug: 'bigger', fields: over });
      expect(r.status).toBe(413);
      expect((await r.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
      // Multi-byte characters count as bytes.
      const wide = { title: 'T', summary: 'é'.repeat(Math.ceil((1_048_577 - overhead) / 2)) };
      r = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: 'Wide', slug: 'wide', fields: wide });
      expect(r.status).toBe(413);
      // An update that grows the fields past the limit is refused too.
      r = await h.write('PUT', '/api/v1/pages/big', { fields: { title: 'TT' } });
      expect(r.status).toBe(413);
      expect((await r.json()).error.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });

  describe('update', () => {
    it('merges fields and seo key by key; null clears; name and slug replace; version increases', async () => {
      await h.createPage({
        name: 'Merge', slug: 'merge', fields: { title: 'T', summary: 'S', priority: 1 },
        seo: { metaTitle: 'M', metaDescription: 'D', ogImageId: image.id },
      });
      let r = await h.write('PUT', '/api/v1/pages/merge', { fields: { summary: 'S2', priority: null }, seo: { metaTitle: 'M2', metaDescription: null } });
      expect(r.status).toBe(200);
      let { data } = await r.json();
      expect(data.version).toBe(2);
      expect(data.draftContent).toEqual({ title: 'T', summary: 'S2', tagline: 'Welcome' });
      expect(data.seo).toEqual({ metaTitle: 'M2', ogImageId: image.id });
      r = await h.write('PUT', '/api/v1/pages/merge', { name: 'Merged', slug: 'merged' });
      ({ data } = await r.json());
      expect(data).toMatchObject({ name: 'Merged', slug: 'merged', version: 3, draftContent: { title: 'T', summary: 'S2', tagline: 'Welcome' } });
      r = await h.write('PUT', '/api/v1/pages/merged', {});
      expect((await r.json()).data.version).toBe(4);
      expect(Date.parse(data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(data.createdAt));
    });

    it('validates the merged content, and a required field may be cleared in a draft', async () => {
      await h.createPage({ name: 'Valid', slug: 'valid', fields: { title: 'T' } });
      let r = await h.write('PUT', '/api/v1/pages/valid', { fields: { priority: 'high' } });
      expect(r.status).toBe(400);
      expect((await r.json()).error.code).toBe('VALIDATION_FAILED');
      r = await h.write('PUT', '/api/v1/pages/valid', { fields: { title: null } });
      expect(r.status).toBe(200);
      expect((await r.json()).data.draftContent).toEqual({ tagline: 'Welcome' });
      r = await h.write('PUT', '/api/v1/pages/valid', { fields: { tagline: 'x' }, status: 'published' });
      expect(r.status).toBe(400);
    });

    it('answers 404 for an unknown page and 409 SLUG_EXISTS for a taken slug', async () => {
      let r = await h.write('PUT', '/api/v1/pages/no-such-page', { name: 'x' });
      expect(r.status).toBe(404);
      expect((await r.json()).error.code).toBe('NOT_FOUND');
      await h.createPage({ name: 'One', slug: 'one', fields: { title: 'T' } });
      await h.createPage({ name: 'Two', slug: 'two', fields: { title: 'T' } });
      r = await h.write('PUT', '/api/v1/pages/two', { slug: 'one' });
      expect(r.status).toBe(409);
      expect((await r.json()).error.code).toBe('SLUG_EXISTS');
      r = await h.write('PUT', '/api/v1/pages/two', { slug: 'Two_2' });
      expect(r.status).toBe(400);
    });
  });

  describe('publish and unpublish', () => {
    it('publishes: 200, status published, publishedContent and publishedAt set, version unchanged', async () => {
      await h.createPage({ name: 'Pub', slug: 'pub', fields: { title: 'T' } });
      const r = await h.write('POST', '/api/v1/pages/pub/publish');
      expect(r.status).toBe(200);
      const { data } = await r.json();
      expect(data).toMatchObject({ status: 'published', version: 1, publishedContent: { title: 'T', tagline: 'Welcome' } });
      expect(data.publishedAt).toMatch(isoPattern);
      expect((await h.get('/api/v1/pages/pub')).status).toBe(200);
    });

    it('refuses to publish with required fields empty: 400 REQUIRED_FIELDS_MISSING naming them', async () => {
      await h.createPage({ name: 'Incomplete', slug: 'incomplete', fields: { summary: 'no title' } });
      const r = await h.write('POST', '/api/v1/pages/incomplete/publish');
      expect(r.status).toBe(400);
      const body = await r.json();
      expect(body.error.code).toBe('REQUIRED_FIELDS_MISSING');
      expect(body.error.message).toContain('title');
      expect(body.error.details).toEqual({ fields: ['title'] });
      expect((await h.get('/api/v1/pages/incomplete')).status).toBe(404);
    });

    it('finds a required field named like what every object inherits (constructor, toString) missing', async () => {
      await h.t.run('types.create', {
        kind: 'pageTypes',
        definition: { slug: 'inherited', name: 'Inherited', fields: [{ name: 'constructor', type: 'text', required: true }, { name: 'toString', type: 'number', required: true }] },
      });
      const created = await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'inherited', name: 'Live', slug: 'inherited-live', status: 'published' });
      expect(created.status).toBe(400);
      expect((await created.json()).error).toMatchObject({ code: 'REQUIRED_FIELDS_MISSING', details: { fields: ['constructor', 'toString'] } });
      await h.write('POST', '/api/v1/pages', { pageTypeSlug: 'inherited', name: 'Draft', slug: 'inherited-draft', fields: {} });
      const r = await h.write('POST', '/api/v1/pages/inherited-draft/publish');
      expect(r.status).toBe(400);
      expect((await r.json()).error).toMatchObject({ code: 'REQUIRED_FIELDS_MISSING', details: { fields: ['constructor', 'toString'] } });
    });

    it('publishing a published page publishes its current draft', async () => {
      const created = await h.createPage({ name: 'Again', slug: 'again', fields: { title: 'First' }, status: 'published' });
      await h.write('PUT', '/api/v1/pages/again', { fields: { title: 'Second' } });
      expect((await (await h.get('/api/v1/pages/again')).json()).data.fields.title).toBe('First');
      const r = await h.write('POST', '/api/v1/pages/again/publish');
      expect(r.status).toBe(200);
      const { data } = await r.json();
      expect(data).toMatchObject({ status: 'published', version: 2, publishedContent: { title: 'Second' } });
      // The first publication date stays.
      expect(data.publishedAt).toBe(created.publishedAt);
      expect((await (await h.get('/api/v1/pages/again')).json()).data.fields.title).toBe('Second');
    });

    it('unpublishes: 200, status draft, publishedAt null, gone from public reads; the draft stays', async () => {
      await h.createPage({ name: 'Unpub', slug: 'unpub', fields: { title: 'T' }, status: 'published' });
      const r = await h.write('POST', '/api/v1/pages/unpub/unpublish');
      expect(r.status).toBe(200);
      const { data } = await r.json();
      expect(data).toMatchObject({ status: 'draft', publishedAt: null, publishedContent: null, version: 1, draftContent: { title: 'T' } });
      expect((await h.get('/api/v1/pages/unpub')).status).toBe(404);
      expect((await (await h.get('/api/v1/pages?sort=slug')).json()).data.map((p: any) => p.slug)).not.toContain('unpub');
    });

    it('unpublishing a draft is allowed and leaves it a draft', async () => {
      await h.createPage({ name: 'Still draft', slug: 'still-draft', fields: { title: 'T' } });
      const r = await h.write('POST', '/api/v1/pages/still-draft/unpublish');
      expect(r.status).toBe(200);
      expect((await r.json()).data).toMatchObject({ status: 'draft', publishedAt: null, version: 1, draftContent: { title: 'T' } });
    });

    it('answers 404 for unknown pages', async () => {
      for (const action of ['publish', 'unpublish']) {
        const r = await h.write('POST', `/api/v1/pages/ghost/${action}`);
        expect(r.status).toBe(404);
        expect((await r.json()).error.code).toBe('NOT_FOUND');
      }
    });
  });

  describe('delete', () => {
    it('soft-deletes: { success: true }, then 404 everywhere; the slug is free again', async () => {
      const first = await h.createPage({ name: 'Gone', slug: 'gone', fields: { title: 'T' }, status: 'published' });
      const r = await h.write('DELETE', '/api/v1/pages/gone');
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ success: true });
      expect((await h.get('/api/v1/pages/gone')).status).toBe(404);
      expect((await h.write('PUT', '/api/v1/pages/gone', { name: 'x' })).status).toBe(404);
      expect((await h.write('DELETE', '/api/v1/pages/gone')).status).toBe(404);
      const again = await h.createPage({ name: 'Gone again', slug: 'gone', fields: { title: 'T2' }, status: 'published' });
      expect(again.id).not.toBe(first.id);
      expect((await (await h.get('/api/v1/pages/gone')).json()).data).toMatchObject({ id: again.id, name: 'Gone again' });
    });

    it('refuses to delete a referenced page with 409 HAS_REFERENCES listing the referrers, unless force=true', async () => {
      const target = await h.createPage({ pageTypeSlug: 'article', name: 'Target', slug: 'target', status: 'published' });
      const draftReferrer = await h.createPage({ name: 'Referrer', slug: 'referrer', fields: { title: 'R', related: { _ref: target.id, _type: 'page' } } });
      let r = await h.write('DELETE', '/api/v1/pages/target');
      expect(r.status).toBe(409);
      const body = await r.json();
      expect(body.error.code).toBe('HAS_REFERENCES');
      expect(body.error.details.referrers).toEqual([expect.objectContaining({ id: draftReferrer.id, slug: 'referrer', type: 'page' })]);
      expect((await h.get('/api/v1/pages/target')).status).toBe(200);
      r = await h.write('DELETE', '/api/v1/pages/target?force=false');
      expect(r.status).toBe(409);
      r = await h.write('DELETE', '/api/v1/pages/target?force=true');
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ success: true });
      expect((await h.get('/api/v1/pages/target')).status).toBe(404);
    });

    it('counts references from collection items and stops counting deleted referrers', async () => {
      const product = await h.createItem('products', { name: 'Ref product', slug: 'ref-product', fields: { price: 1 } });
      const page = await h.createPage({ name: 'Has product', slug: 'has-product', fields: { title: 'T', product: product.id } });
      let r = await h.write('DELETE', '/api/v1/collections/products/ref-product');
      expect(r.status).toBe(409);
      expect((await r.json()).error.details.referrers).toEqual([expect.objectContaining({ id: page.id, slug: 'has-product', type: 'page' })]);
      expect((await h.write('DELETE', '/api/v1/pages/has-product')).status).toBe(200);
      r = await h.write('DELETE', '/api/v1/collections/products/ref-product');
      expect(r.status).toBe(200);
    });
  });
});
