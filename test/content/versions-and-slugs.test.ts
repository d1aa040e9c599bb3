import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContentHarness, type ContentHarness } from './support.js';

/** Expected versions (If-Match or body `version`), version snapshots, slug history. */
describe('versions and slugs', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await createContentHarness();
  });
  afterAll(async () => { await h.close(); });

  const put = (path: string, body: Record<string, unknown>, ifMatch?: string) =>
    h.write('PUT', path, body, ifMatch === undefined ? {} : { headers: { 'if-match': ifMatch } });

  describe('expected version', () => {
    it('applies with the current version in If-Match, and refuses a stale one with 409 VERSION_CONFLICT', async () => {
      await h.createPage({ name: 'V', slug: 'v', fields: { title: 'T' } });
      let r = await put('/api/v1/pages/v', { name: 'V2' }, '"1"');
      expect(r.status).toBe(200);
      expect((await r.json()).data.version).toBe(2);
      r = await put('/api/v1/pages/v', { name: 'stale' }, '"1"');
      expect(r.status).toBe(409);
      const body = await r.json();
      expect(body).toEqual({ error: { code: 'VERSION_CONFLICT', message: expect.any(String), details: { currentVersion: 2 } } });
      // The refused write changed nothing.
      const admin = await h.t.run('pages.get', { ref: { slug: 'v' } });
      expect(admin).toMatchObject({ name: 'V2', version: 2 });
      // Weak and unquoted spellings name a version too.
      r = await put('/api/v1/pages/v', { name: 'V3' }, 'W/"2"');
      expect(r.status).toBe(200);
      r = await put('/api/v1/pages/v', { name: 'V4' }, '3');
      expect(r.status).toBe(200);
      expect((await r.json()).data.version).toBe(4);
      r = await put('/api/v1/pages/v', { name: 'V?' }, '"99"');
      expect(r.status).toBe(409);
      expect((await r.json()).error.details).toEqual({ currentVersion: 4 });
    });

    it('takes the expected version from the body too', async () => {
      await h.createPage({ name: 'B', slug: 'b', fields: { title: 'T' } });
      let r = await put('/api/v1/pages/b', { version: 1, fields: { summary: 'x' } });
      expect(r.status).toBe(200);
      expect((await r.json()).data).toMatchObject({ version: 2, draftContent: { summary: 'x' } });
      r = await put('/api/v1/pages/b', { version: 1, fields: { summary: 'y' } });
      expect(r.status).toBe(409);
      expect((await r.json()).error).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });
      // If-Match wins over the body.
      r = await put('/api/v1/pages/b', { version: 1, name: 'B2' }, '"2"');
      expect(r.status).toBe(200);
    });

    it('takes If-Match: * as any current version, leaving the body\'s version to count', async () => {
      await h.createPage({ name: 'Star', slug: 'star', fields: { title: 'T' } });
      let r = await put('/api/v1/pages/star', { name: 'Star 2' }, '*');
      expect(r.status).toBe(200);
      expect((await r.json()).data.version).toBe(2);
      r = await put('/api/v1/pages/star', { name: 'stale', version: 1 }, ' * ');
      expect(r.status).toBe(409);
      expect((await r.json()).error.details).toEqual({ currentVersion: 2 });
    });

    it('applies to the current version when neither is given', async () => {
      await h.createPage({ name: 'N', slug: 'n', fields: { title: 'T' } });
      for (let v = 2; v <= 4; v++) {
        const r = await put('/api/v1/pages/n', { name: `N${v}` });
        expect((await r.json()).data.version).toBe(v);
      }
    });

    it('refuses an expected version that is not a version number with 400', async () => {
      await h.createPage({ name: 'G', slug: 'g', fields: { title: 'T' } });
      for (const header of ['"abc"', 'yes', '"1", "2"', '**']) {
        const r = await put('/api/v1/pages/g', { name: 'x' }, header);
        expect(r.status, header).toBe(400);
        expect((await r.json()).error.code).toBe('VALIDATION_FAILED');
      }
      for (const version of ['1', 0, -1, 1.5, null, true]) {
        const r = await put('/api/v1/pages/g', { name: 'x', version });
        expect(r.status, JSON.stringify(version)).toBe(400);
        expect((await r.json()).error.code).toBe('VALIDATION_FAILED');
      }
      expect((await h.t.run('pages.get', { ref: { slug: 'g' } })).version).toBe(1);
    });

    it('works the same on collection items', async () => {
      await h.createItem('products', { name: 'P', slug: 'p', fields: { price: 1 } });
      let r = await h.write('PUT', '/api/v1/collections/products/p', { fields: { price: 2 } }, { headers: { 'if-match': '"1"' } });
      expect(r.status).toBe(200);
      r = await h.write('PUT', '/api/v1/collections/products/p', { fields: { price: 3 } }, { headers: { 'if-match': '"1"' } });
      expect(r.status).toBe(409);
      expect((await r.json()).error).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });
      r = await h.write('PUT', '/api/v1/collections/products/p', { fields: { price: 3 }, version: 2 });
      expect(r.status).toBe(200);
      expect((await r.json()).data.version).toBe(3);
    });

    it('does not change the version on publish and unpublish; each stores a snapshot', async () => {
      await h.createPage({ name: 'S', slug: 's', fields: { title: 'T' } });
      await put('/api/v1/pages/s', { name: 'S2' });
      let r = await h.write('POST', '/api/v1/pages/s/publish');
      expect((await r.json()).data.version).toBe(2);
      r = await h.write('POST', '/api/v1/pages/s/unpublish');
      expect((await r.json()).data.version).toBe(2);
      await put('/api/v1/pages/s', { name: 'S3' });
      r = await h.write('POST', '/api/v1/pages/s/publish');
      expect((await r.json()).data.version).toBe(3);
      const versions = await h.t.run('pages.versions', { ref: { slug: 's' } });
      expect(versions.map((v: any) => [v.version, v.status])).toEqual([[3, 'published'], [2, 'draft'], [2, 'published']]);
    });
  });

  describe('slug history', () => {
    it('keeps every old slug as a permanent redirect to the current one', async () => {
      const page = await h.createPage({ name: 'Hop', slug: 'hop-1', fields: { title: 'T' }, status: 'published' });
      await put('/api/v1/pages/hop-1', { slug: 'hop-2' });
      await put('/api/v1/pages/hop-2', { slug: 'hop-3' });
      for (const old of ['hop-1', 'hop-2']) {
        const body = await (await h.get(`/api/v1/pages/${old}`)).json();
        expect(body.redirect).toEqual({ from: old, to: 'hop-3', permanent: true });
        expect(body.data).toMatchObject({ id: page.id, slug: 'hop-3' });
      }
      // Moving back to an old slug makes it current again.
      await put('/api/v1/pages/hop-3', { slug: 'hop-1' });
      expect((await (await h.get('/api/v1/pages/hop-1')).json()).redirect).toBeNull();
      expect((await (await h.get('/api/v1/pages/hop-3')).json()).redirect).toEqual({ from: 'hop-3', to: 'hop-1', permanent: true });
    });

    it('lets a new page take an old slug: the live page wins over the redirect', async () => {
      const moved = await h.createPage({ name: 'Moved', slug: 'spot', fields: { title: 'T' }, status: 'published' });
      await put('/api/v1/pages/spot', { slug: 'elsewhere' });
      expect((await (await h.get('/api/v1/pages/spot')).json()).data.id).toBe(moved.id);
      const taker = await h.createPage({ name: 'Taker', slug: 'spot', fields: { title: 'T' }, status: 'published' });
      const body = await (await h.get('/api/v1/pages/spot')).json();
      expect(body.redirect).toBeNull();
      expect(body.data.id).toBe(taker.id);
    });

    it('addresses writes by the current slug only', async () => {
      await h.createPage({ name: 'W', slug: 'w-old', fields: { title: 'T' } });
      await put('/api/v1/pages/w-old', { slug: 'w-new' });
      expect((await put('/api/v1/pages/w-old', { name: 'x' })).status).toBe(404);
      expect((await put('/api/v1/pages/w-new', { name: 'x' })).status).toBe(200);
    });

    it('drops the redirects of a deleted page', async () => {
      await h.createPage({ name: 'D', slug: 'd-old', fields: { title: 'T' }, status: 'published' });
      await put('/api/v1/pages/d-old', { slug: 'd-new' });
      expect((await h.get('/api/v1/pages/d-old')).status).toBe(200);
      expect((await h.write('DELETE', '/api/v1/pages/d-new')).status).toBe(200);
      expect((await h.get('/api/v1/pages/d-old')).status).toBe(404);
      expect((await h.get('/api/v1/pages/d-new')).status).toBe(404);
    });

    it('shows no redirect to a page that is not published', async () => {
      await h.createPage({ name: 'U', slug: 'u-old', fields: { title: 'T' } });
      await put('/api/v1/pages/u-old', { slug: 'u-new' });
      expect((await h.get('/api/v1/pages/u-old')).status).toBe(404);
      const preview = await (await h.get('/api/v1/pages/u-old', { headers: { 'x-preview-key': h.keys.preview } })).json();
      expect(preview.redirect).toEqual({ from: 'u-old', to: 'u-new', permanent: true });
    });
  });
});
