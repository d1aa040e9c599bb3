import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionItems, collectionTypes, pages, pageTypes, projects } from '../../src/db/schema/index.js';
import { testDriver } from '../helpers/db.js';
import { createManualClock } from '../helpers/engine.js';
import { createMediaHarness, makeImage, pathOf, samples, type MediaHarness } from './support.js';

describe(`media administration (${testDriver})`, () => {
  let h: MediaHarness;
  const ids: string[] = [];
  beforeAll(async () => {
    const clock = createManualClock();
    h = await createMediaHarness({ clock });
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      const res = await h.upload(Buffer.from(`file number ${i}\n`), `file-${i}.txt`, { folder: i < 3 ? 'docs' : 'misc' });
      ids.push((await res.json()).data.id);
    }
  });
  afterAll(async () => { await h.close(); });

  it('lists media newest first with paging and a folder filter', async () => {
    const page1 = await (await h.admin('GET', '/api/v1/admin/media?limit=2')).json();
    expect(page1.pagination).toEqual({ total: 5, page: 1, limit: 2, totalPages: 3 });
    expect(page1.data.map((m: { id: string }) => m.id)).toEqual([ids[4], ids[3]]);
    const page3 = await (await h.admin('GET', '/api/v1/admin/media?limit=2&page=3')).json();
    expect(page3.data.map((m: { id: string }) => m.id)).toEqual([ids[0]]);
    const docs = await (await h.admin('GET', '/api/v1/admin/media?folder=docs')).json();
    expect(docs.pagination.total).toBe(3);
    expect(docs.data.every((m: { folder: string }) => m.folder === 'docs')).toBe(true);
    const search = await (await h.admin('GET', '/api/v1/admin/media?search=FILE-4')).json();
    expect(search.data.map((m: { id: string }) => m.id)).toEqual([ids[4]]);
    const text = await (await h.admin('GET', '/api/v1/admin/media?type=text')).json();
    expect(text.pagination.total).toBe(5);
    expect((await (await h.admin('GET', '/api/v1/admin/media?type=image')).json()).pagination.total).toBe(0);
    for (const q of ['limit=0', 'limit=101', 'page=0', 'page=x']) {
      const res = await h.admin('GET', `/api/v1/admin/media?${q}`);
      expect(res.status, q).toBe(400);
      expect((await res.json()).error.code, q).toBe('INVALID_QUERY');
    }
  });

  it('gets one item and updates alt text and file name without an event', async () => {
    const got = await (await h.admin('GET', `/api/v1/admin/media/${ids[0]}`)).json();
    expect(got.data).toMatchObject({ id: ids[0], originalFilename: 'file-0.txt' });
    h.events.length = 0;
    const res = await h.admin('PUT', `/api/v1/admin/media/${ids[0]}`, { body: { altText: 'Described', filename: 'renamed.txt' } });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ altText: 'Described', originalFilename: 'renamed.txt', filename: got.data.filename, url: got.data.url });
    const cleared = await (await h.admin('PUT', `/api/v1/admin/media/${ids[0]}`, { body: { altText: null } })).json();
    expect(cleared.data).not.toHaveProperty('altText');
    expect(h.events).toEqual([]);
    expect((await h.admin('PUT', `/api/v1/admin/media/${ids[0]}`, { body: { filename: '' } })).status).toBe(400);
    expect((await h.admin('PUT', `/api/v1/admin/media/${ids[0]}`, { body: { altText: 'x' }, cookie: h.viewerCookie })).status).toBe(403);
    expect((await h.admin('GET', '/api/v1/admin/media/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('moves files between folders and renames folders without events', async () => {
    h.events.length = 0;
    const moved = await h.admin('POST', `/api/v1/admin/media/${ids[1]}/move`, { body: { folder: 'misc' } });
    expect(moved.status).toBe(200);
    expect((await moved.json()).data.folder).toBe('misc');
    const folders = await (await h.admin('GET', '/api/v1/admin/media/folders')).json();
    expect(folders.data).toEqual([{ name: 'docs', count: 2 }, { name: 'misc', count: 3 }]);

    const renamed = await h.admin('PUT', '/api/v1/admin/media/folders/misc', { body: { name: 'Other Stuff' } });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).data).toEqual({ name: 'Other Stuff', moved: 3 });
    const after = await (await h.admin('GET', `/api/v1/admin/media?folder=${encodeURIComponent('Other Stuff')}`)).json();
    expect(after.pagination.total).toBe(3);
    expect((await h.admin('PUT', '/api/v1/admin/media/folders/nope', { body: { name: 'x' } })).status).toBe(404);
    const clash = await h.admin('PUT', '/api/v1/admin/media/folders/docs', { body: { name: 'Other Stuff' } });
    expect(clash.status).toBe(400);
    expect((await h.admin('PUT', '/api/v1/admin/media/folders/docs', { body: { name: '../x' } })).status).toBe(400);

    const out = await (await h.admin('POST', `/api/v1/admin/media/${ids[1]}/move`, { body: { folder: null } })).json();
    expect(out.data.folder).toBeNull();
    const root = await (await h.admin('GET', '/api/v1/admin/media?folder=')).json();
    expect(root.data.map((m: { id: string }) => m.id)).toEqual([ids[1]]);
    expect(h.events).toEqual([]);
  });

  it('refuses to delete media that content uses unless forced, then emits media.deleted', async () => {
    const image = (await (await h.upload(await makeImage('png', 4, 4, '#abcdef'), 'hero.png')).json()).data;
    const db = h.t.cms.db;
    const [project] = await db.select().from(projects);
    const [pageType] = await db.insert(pageTypes).values({ projectId: project!.id, slug: 'landing', name: 'Landing' }).returning();
    const [page] = await db.insert(pages).values({
      projectId: project!.id, pageTypeId: pageType!.id, name: 'Home', slug: 'home',
      draftContent: { hero: { _media: image.id.toUpperCase() } },
    }).returning();
    const [collection] = await db.insert(collectionTypes).values({ projectId: project!.id, slug: 'team', name: 'Team' }).returning();
    const [item] = await db.insert(collectionItems).values({
      projectId: project!.id, collectionTypeId: collection!.id, name: 'Ann', slug: 'ann',
      draftContent: {}, publishedContent: { photo: image.id },
    }).returning();
    const seoOnly = (await (await h.upload(await makeImage('png', 4, 4, '#fedcba'), 'og.png')).json()).data;
    await db.insert(pages).values({ projectId: project!.id, pageTypeId: pageType!.id, name: 'About', slug: 'about', seo: { ogImageId: seoOnly.id } });

    const refused = await h.admin('DELETE', `/api/v1/admin/media/${image.id}`);
    expect(refused.status).toBe(409);
    const body = await refused.json();
    expect(body.error.code).toBe('HAS_REFERENCES');
    expect(body.error.details.referrers).toEqual(expect.arrayContaining([
      { id: page!.id, slug: 'home', type: 'page' },
      { id: item!.id, slug: 'ann', type: 'collectionItem' },
    ]));
    expect(body.error.details.referrers).toHaveLength(2);
    expect((await h.admin('DELETE', `/api/v1/admin/media/${seoOnly.id}`)).status).toBe(409);

    h.events.length = 0;
    const forced = await h.admin('DELETE', `/api/v1/admin/media/${image.id}?force=true`);
    expect(forced.status).toBe(200);
    const deleted = { id: image.id, filename: image.filename, originalFilename: 'hero.png' };
    expect((await forced.json())).toEqual({ success: true, data: deleted });
    expect(h.events).toEqual([{ projectId: project!.id, kind: 'media.deleted', data: deleted }]);
    expect((await h.fetch(pathOf(image.url))).status).toBe(404);
    expect((await h.admin('GET', `/api/v1/admin/media/${image.id}`)).status).toBe(404);
    expect((await h.admin('DELETE', `/api/v1/admin/media/${image.id}`)).status).toBe(404);
  });

  it('lets a deleted page stop counting as a reference', async () => {
    const doc = (await (await h.upload(samples.pdf, 'gone.pdf')).json()).data;
    const db = h.t.cms.db;
    const [project] = await db.select().from(projects);
    const [pageType] = await db.insert(pageTypes).values({ projectId: project!.id, slug: 'old', name: 'Old' }).returning();
    await db.insert(pages).values({
      projectId: project!.id, pageTypeId: pageType!.id, name: 'Old', slug: 'old', draftContent: { file: doc.id }, deletedAt: new Date(),
    });
    expect((await h.admin('DELETE', `/api/v1/admin/media/${doc.id}`)).status).toBe(200);
  });

  it('keeps viewers to reading', async () => {
    expect((await h.admin('GET', '/api/v1/admin/media', { cookie: h.viewerCookie })).status).toBe(200);
    expect((await h.admin('DELETE', `/api/v1/admin/media/${ids[2]}`, { cookie: h.viewerCookie })).status).toBe(403);
    expect((await h.admin('POST', `/api/v1/admin/media/${ids[2]}/move`, { body: { folder: 'x' }, cookie: h.viewerCookie })).status).toBe(403);
    expect((await h.fetch('/api/v1/admin/media')).status).toBe(401);
  });
});

describe(`media fields against stored media (${testDriver})`, () => {
  let h: MediaHarness;
  beforeAll(async () => { h = await createMediaHarness(); });
  afterAll(async () => { await h.close(); });

  it('checks allowedMimeTypes and maxFileSize against the uploaded file, and blocks deleting used media', async () => {
    await h.t.run('types.create', {
      kind: 'pageTypes',
      definition: { slug: 'article', name: 'Article', fields: [
        { name: 'hero', type: 'image', options: { allowedMimeTypes: ['image/png'], maxFileSize: 1000 } },
      ] },
    });
    const small = await h.t.run('media.upload', { data: (await makeImage('png', 4, 4)).toString('base64'), filename: 'small.png' });
    const pdf = await h.t.run('media.upload', { data: samples.pdf.toString('base64'), filename: 'doc.pdf' });
    const large = await h.t.run('media.upload', { data: (await makeImage('png', 300, 300, '#000000')).toString('base64'), filename: 'large.png' });
    expect(large.size).toBeGreaterThan(1000);

    await expect(h.t.run('pages.create', { pageTypeSlug: 'article', name: 'A', slug: 'a', fields: { hero: pdf.id } }))
      .rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(h.t.run('pages.create', { pageTypeSlug: 'article', name: 'B', slug: 'b', fields: { hero: large.id } }))
      .rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const page = await h.t.run('pages.create', { pageTypeSlug: 'article', name: 'C', slug: 'c', fields: { hero: { id: small.id } } });
    expect(page.draftContent.hero).toEqual({ id: small.id });

    const refused = await h.admin('DELETE', `/api/v1/admin/media/${small.id}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.details.referrers).toEqual([{ id: page.id, slug: 'c', type: 'page' }]);
  });
  it('an image field without allowedMimeTypes takes a text file over HTTP; allowedMimeTypes image/* refuses it', async () => {
    await h.t.run('types.create', {
      kind: 'collections',
      definition: { slug: 'docs', name: 'Docs', fields: [
        { name: 'cover', type: 'image' },
        { name: 'attachment', type: 'media' },
        { name: 'shots', type: 'repeater', options: { fields: [{ name: 'shot', type: 'image', options: { allowedMimeTypes: ['image/*'] } }] } },
      ] },
    });
    const text = (await (await h.upload(samples.text, 'notes.txt')).json()).data;
    const png = (await (await h.upload(await makeImage('png', 2, 2), 'dot.png')).json()).data;
    expect(text.mimeType).toBe('text/plain');
    const post = (fields: unknown, slug: string) => h.fetch('/api/v1/collections/docs', {
      method: 'POST',
      headers: { 'x-api-key': h.keys.secret, 'idempotency-key': randomUUID(), 'content-type': 'application/json' },
      body: JSON.stringify({ name: slug, slug, fields }),
    });
    const refused = await post({ cover: text.id, attachment: text.id, shots: [{ shot: png.id }, { shot: { _media: text.id } }] }, 'refused');
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details).toEqual([
      { path: 'fields.shots[1].shot', message: 'media type text/plain is not allowed (allowed: image/*)' },
    ]);
    const accepted = await post({ cover: text.id, attachment: text.id, shots: [{ shot: { _media: png.id } }] }, 'accepted');
    expect(accepted.status).toBe(201);
    expect((await accepted.json()).data.draftContent).toMatchObject({ cover: text.id, attachment: text.id });
  });
});
