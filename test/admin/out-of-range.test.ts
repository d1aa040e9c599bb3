import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from './content-support.js';
import { createAdminHarness, type AdminHarness } from './support.js';

/**
 * Numbers and dates the database columns cannot hold are the caller's mistake: a 400 (or, for a
 * version in a path, 404: no such version), never a failed query answering 500.
 */
describe('values beyond what the columns hold', () => {
  let h: AdminHarness;
  let cookie: string;
  const call = (method: string, path: string, body?: unknown) => h.call(method, path, { cookie, ...(body === undefined ? {} : { body }) });

  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('schema.push', schema);
    cookie = await h.signIn((await h.createUser('admin')).email);
  });
  afterAll(async () => { await h.close(); });

  it('a sortOrder outside 32 bits is VALIDATION_FAILED on create and update', async () => {
    for (const sortOrder of [2_147_483_648, -2_147_483_649, 3e9]) {
      const res = await call('POST', '/api/v1/admin/collection-items', { collectionTypeSlug: 'authors', name: 'A', slug: `a-${sortOrder}`.replace('.', ''), sortOrder });
      expect(res.status, String(sortOrder)).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'sortOrder' }] });
    }
    const made = await call('POST', '/api/v1/admin/collection-items', { collectionTypeSlug: 'authors', name: 'B', slug: 'b', sortOrder: 2_147_483_647 });
    expect(made.status).toBe(201);
    const { data } = await made.json();
    const update = await call('PUT', `/api/v1/admin/collection-items/${data.id}`, { sortOrder: 2_147_483_648 });
    expect(update.status).toBe(400);
    expect((await (await call('GET', `/api/v1/admin/collection-items/${data.id}`)).json()).data).toMatchObject({ version: 1, sortOrder: 2_147_483_647 });
  });

  it('a version number past 32 bits in a path is NOT_FOUND, as any version never stored', async () => {
    const page = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'P', slug: 'p', fields: { title: 'T' } })).json()).data;
    for (const path of [`/api/v1/admin/pages/${page.id}/versions/2147483648`, `/api/v1/admin/pages/${page.id}/versions/99999999999`]) {
      const res = await call('GET', path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    }
    const restore = await call('POST', `/api/v1/admin/pages/${page.id}/versions/99999999999/restore`, {});
    expect(restore.status).toBe(404);
  });

  it('a blog post dated before the year 1000 is VALIDATION_FAILED (the year 0 failed the insert, 1–99 came back as 19xx or 20xx)', async () => {
    for (const publishedAt of ['0000-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '0999-12-31T23:00:00+02:00']) {
      const res = await call('POST', '/api/v1/admin/blog/posts', { title: 'T', slug: 'early', publishedAt });
      expect(res.status, publishedAt).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'publishedAt', message: 'must be in the year 1000 or later' }] });
    }
    const kept = await call('POST', '/api/v1/admin/blog/posts', { title: 'T', slug: 'kept', publishedAt: '1000-01-01T00:00:00Z' });
    expect(kept.status).toBe(201);
    expect((await kept.json()).data.publishedAt).toBe('1000-01-01T00:00:00.000Z');
  });
});
