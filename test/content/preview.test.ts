import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/db/schema/index.js';
import { createContentHarness, doorNames, type ContentHarness } from './support.js';

const previewCacheControl = 'private, no-store, max-age=0';
const publicCacheControl = 'public, max-age=900, stale-while-revalidate=1800';

/** Preview keys: drafts on every public GET of pages and collections, never cached. */
describe('preview', () => {
  let h: ContentHarness;
  let otherProjectPreview: string;
  let otherProjectPublic: string;

  beforeAll(async () => {
    h = await createContentHarness();
    await h.createPage({ name: 'Live', slug: 'live', status: 'published', fields: { title: 'Published title' } });
    expect((await h.write('PUT', '/api/v1/pages/live', { fields: { title: 'Draft title' } })).status).toBe(200);
    await h.createPage({ name: 'Draft only', slug: 'draft-only', fields: { title: 'Not yet' } });
    await h.createItem('products', { name: 'Shown', slug: 'shown', status: 'published', fields: { price: 1 } });
    expect((await h.write('PUT', '/api/v1/collections/products/shown', { fields: { price: 2 } })).status).toBe(200);
    await h.createItem('products', { name: 'Unreleased', slug: 'unreleased', fields: { price: 3 } });
    await h.t.cms.run('projects.create', { slug: 'other' }, { actor: { kind: 'terminal' } });
    otherProjectPreview = (await h.t.cms.run('keys.create', { type: 'preview' }, { actor: { kind: 'terminal' }, project: 'other' }) as { key: string }).key;
    otherProjectPublic = (await h.t.cms.run('keys.create', { type: 'public' }, { actor: { kind: 'terminal' }, project: 'other' }) as { key: string }).key;
  });
  afterAll(async () => { await h.close(); });

  for (const door of doorNames) {
    describe(door, () => {
      const viaHeader = (path: string, key = h.keys.preview) => h.get(path, { door, headers: { 'x-preview-key': key } });
      const viaQuery = (path: string, key = h.keys.preview) => h.get(`${path}${path.includes('?') ? '&' : '?'}preview=${encodeURIComponent(key)}`, { door });

      it('shows the latest drafts with a header or a query key, never cached', async () => {
        for (const read of [viaHeader, viaQuery]) {
          let r = await read('/api/v1/pages/live');
          expect(r.status).toBe(200);
          expect(r.headers.get('cache-control')).toBe(previewCacheControl);
          expect((await r.json()).data.fields.title).toBe('Draft title');
          r = await read('/api/v1/pages/draft-only');
          expect(r.status).toBe(200);
          expect((await r.json()).data).toMatchObject({ slug: 'draft-only', publishedAt: null, fields: { title: 'Not yet' } });
          r = await read('/api/v1/pages?sort=slug');
          expect(r.headers.get('cache-control')).toBe(previewCacheControl);
          expect((await r.json()).data.map((p: any) => p.slug)).toEqual(['draft-only', 'live']);
          r = await read('/api/v1/collections/products?sort=slug');
          expect(r.headers.get('cache-control')).toBe(previewCacheControl);
          expect((await r.json()).data.map((i: any) => [i.slug, i.fields.price])).toEqual([['shown', 2], ['unreleased', 3]]);
          r = await read('/api/v1/collections/products/unreleased');
          expect(r.status).toBe(200);
          expect(r.headers.get('cache-control')).toBe(previewCacheControl);
        }
      });

      it('filters collections on the draft content when previewing', async () => {
        const r = await viaHeader('/api/v1/collections/products?filter[fields.price][gte]=2&sort=slug');
        expect((await r.json()).data.map((i: any) => i.slug)).toEqual(['shown', 'unreleased']);
      });

      it('reads published content only without a preview key', async () => {
        let r = await h.get('/api/v1/pages/live', { door });
        expect(r.headers.get('cache-control')).toBe(publicCacheControl);
        expect((await r.json()).data.fields.title).toBe('Published title');
        expect((await h.get('/api/v1/pages/draft-only', { door })).status).toBe(404);
        r = await h.get('/api/v1/collections/products', { door });
        expect((await r.json()).data.map((i: any) => [i.slug, i.fields.price])).toEqual([['shown', 1]]);
      });

      it('refuses invalid preview keys with 401 INVALID_PREVIEW_KEY', async () => {
        for (const key of ['preview_not-a-real-key', 'nonsense', h.keys.public, h.keys.secret]) {
          for (const read of [viaHeader, viaQuery]) {
            const r = await read('/api/v1/pages/live', key);
            expect(r.status, key).toBe(401);
            const body = await r.json();
            expect(body).toEqual({ error: { code: 'INVALID_PREVIEW_KEY', message: expect.any(String) } });
          }
        }
        // An invalid key is refused beside a valid one, in the query or in the header.
        for (const r of [
          await h.get(`/api/v1/pages/draft-only?preview=preview_bad`, { door, headers: { 'x-preview-key': h.keys.preview } }),
          await h.get(`/api/v1/pages/draft-only?preview=${encodeURIComponent(h.keys.preview)}`, { door, headers: { 'x-preview-key': 'preview_bad' } }),
        ]) {
          expect(r.status).toBe(401);
          expect((await r.json()).error.code).toBe('INVALID_PREVIEW_KEY');
        }
      });

      it('reads with a preview key alone, or beside an API key of the same project', async () => {
        let r = await h.get('/api/v1/pages/draft-only', { door, key: null, headers: { 'x-preview-key': h.keys.preview } });
        expect(r.status).toBe(200);
        r = await h.get('/api/v1/pages/draft-only', { door, key: h.keys.secret, headers: { 'x-preview-key': h.keys.preview } });
        expect(r.status).toBe(200);
        // A preview key of another project beside this project's key is refused...
        r = await h.get('/api/v1/pages/live', { door, headers: { 'x-preview-key': otherProjectPreview } });
        expect(r.status).toBe(401);
        expect((await r.json()).error.code).toBe('INVALID_PREVIEW_KEY');
        // ...and on its own it previews its own project, where this page does not exist.
        r = await h.get('/api/v1/pages/live', { door, key: null, headers: { 'x-preview-key': otherProjectPreview } });
        expect(r.status).toBe(404);
        r = await h.get('/api/v1/pages/live', { door, key: otherProjectPublic });
        expect(r.status).toBe(404);
      });
    });
  }

  it('never caches preview responses, while public ones are cached', async () => {
    // Read both ways, then change the row behind the engine's back (no write, no invalidation).
    expect((await (await h.get('/api/v1/pages/live')).json()).data.name).toBe('Live');
    expect((await (await h.get('/api/v1/pages/live', { headers: { 'x-preview-key': h.keys.preview } })).json()).data.name).toBe('Live');
    await h.t.cms.db.update(pages).set({ name: 'Changed underneath' }).where(eq(pages.slug, 'live'));
    expect((await (await h.get('/api/v1/pages/live')).json()).data.name).toBe('Live');
    expect((await (await h.get('/api/v1/pages/live', { headers: { 'x-preview-key': h.keys.preview } })).json()).data.name).toBe('Changed underneath');
  });

  it('refuses a revoked preview key with 401 INVALID_PREVIEW_KEY', async () => {
    const { key, id } = await h.t.run('keys.create', { type: 'preview' });
    expect((await h.get('/api/v1/pages/draft-only', { headers: { 'x-preview-key': key } })).status).toBe(200);
    await h.t.run('keys.revoke', { id });
    const r = await h.get('/api/v1/pages/draft-only', { headers: { 'x-preview-key': key } });
    expect(r.status).toBe(401);
    expect((await r.json()).error.code).toBe('INVALID_PREVIEW_KEY');
  });

  it('does not let a preview key write', async () => {
    const r = await h.write('PUT', '/api/v1/pages/live', { name: 'x' }, { key: null, headers: { 'x-preview-key': h.keys.preview } });
    expect(r.status).toBe(401);
    expect((await r.json()).error.code).toBe('UNAUTHORIZED');
  });
});
