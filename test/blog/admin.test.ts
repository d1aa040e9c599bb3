import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages, pageTypes, projects } from '../../src/db/schema/index.js';
import { testDriver } from '../helpers/db.js';
import { createManualClock } from '../helpers/engine.js';
import { createMediaHarness, makeImage, type MediaHarness } from '../media/support.js';

describe(`blog administration (${testDriver})`, () => {
  let h: MediaHarness;
  const clock = createManualClock(new Date('2026-04-01T00:00:00.000Z'));
  const adminJson = async (method: string, path: string, body?: unknown, cookie?: string) => {
    const res = await h.admin(method, `/api/v1/admin/blog${path}`, { ...(body !== undefined ? { body } : {}), ...(cookie ? { cookie } : {}) });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };

  beforeAll(async () => { h = await createMediaHarness({ clock }); });
  afterAll(async () => { await h.close(); });

  it('creates authors, categories and tags over the admin API, with slugs derived or given', async () => {
    const author = await adminJson('POST', '/authors', { firstName: 'Zoë', lastName: "O'Brien", email: 'zoe@example.test' });
    expect(author.status).toBe(201);
    expect(author.body.data).toMatchObject({ slug: 'zoe-o-brien', firstName: 'Zoë', email: 'zoe@example.test', links: {} });
    const cat = await adminJson('POST', '/categories', { name: 'Release Notes' });
    expect(cat.body.data).toEqual({ id: expect.any(String), slug: 'release-notes', name: 'Release Notes' });
    const tag = await adminJson('POST', '/tags', { name: 'TypeScript', slug: 'ts' });
    expect(tag.body.data.slug).toBe('ts');

    expect((await adminJson('POST', '/categories', { name: 'Release notes!' })).status).toBe(409);
    const bad = await adminJson('POST', '/tags', { name: 'x', slug: 'Not_A_Slug' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect((await adminJson('POST', '/tags', { name: '!!!' })).status).toBe(400);
    expect((await adminJson('POST', '/authors', {})).status).toBe(400);

    const list = await adminJson('GET', '/authors');
    expect(list.body.pagination).toEqual({ total: 1, page: 1, limit: 20, totalPages: 1 });
    expect((await adminJson('GET', '/categories/release-notes')).body.data.name).toBe('Release Notes');
    expect((await adminJson('GET', `/categories/${cat.body.data.id}`)).body.data.slug).toBe('release-notes');
    const renamed = await adminJson('PUT', `/tags/${tag.body.data.id}`, { name: 'TS', slug: 'typescript' });
    expect(renamed.body.data).toMatchObject({ name: 'TS', slug: 'typescript' });
    // An update with nothing in it answers the term as it is (it answered 500).
    for (const path of [`/tags/${tag.body.data.id}`, `/categories/${cat.body.data.id}`]) {
      const same = await adminJson('PUT', path, {});
      expect(same.status, path).toBe(200);
      expect(same.body.data, path).toEqual((await adminJson('GET', path)).body.data);
    }
    const updatedAuthor = await adminJson('PUT', '/authors/zoe-o-brien', { bio: 'Editor', links: { x: 'https://x.example/zoe' } });
    expect(updatedAuthor.body.data).toMatchObject({ bio: 'Editor', links: { x: 'https://x.example/zoe' }, email: 'zoe@example.test' });
  });

  it('creates a post with every member, stores HTML as given, and emits no events', async () => {
    const png = await makeImage('png', 8, 8);
    const media = await h.t.run('media.upload', { data: png.toString('base64'), filename: 'feature.png' });
    h.events.length = 0;
    clock.advance(1000);
    const res = await adminJson('POST', '/posts', {
      title: 'Hello, World', body: '<p onclick="x()">Hi</p><script>alert(1)</script>', summary: 'Greeting',
      featuredImageId: media.id, author: 'zoe-o-brien', categories: ['release-notes'], tags: ['typescript'],
      seo: { metaTitle: 'Hello', ogImageId: media.id },
    });
    expect(res.status).toBe(201);
    const post = res.body.data;
    expect(post).toMatchObject({
      title: 'Hello, World', slug: 'hello-world', status: 'draft', publishedAt: null, summary: 'Greeting',
      body: '<p onclick="x()">Hi</p><script>alert(1)</script>',
      featuredImageId: media.id,
      featuredImage: { _filename: 'feature.png', _mimeType: 'image/png', _width: 8, _height: 8 },
      author: { slug: 'zoe-o-brien', firstName: 'Zoë' },
      categories: [{ slug: 'release-notes', name: 'Release Notes' }],
      tags: [{ slug: 'typescript', name: 'TS' }],
      seo: { metaTitle: 'Hello', ogImageId: media.id },
      createdAt: '2026-04-01T00:00:01.000Z',
    });
    expect(h.events).toEqual([]);
  });

  it('refuses invalid posts: slug taken or malformed, unknown references, missing media, bodies over 1 MB', async () => {
    const taken = await adminJson('POST', '/posts', { title: 'Hello world' });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('SLUG_EXISTS');
    expect((await adminJson('POST', '/posts', { title: 'x', slug: 'a--b' })).status).toBe(400);
    expect((await adminJson('POST', '/posts', { title: 'x', status: 'scheduled' })).status).toBe(400);
    const refs = await adminJson('POST', '/posts', {
      title: 'Refs', author: 'nobody', categories: ['release-notes', 'nope'], tags: ['missing'],
      featuredImageId: '00000000-0000-4000-8000-000000000000',
    });
    expect(refs.status).toBe(400);
    expect(refs.body.error.details.map((i: { path: string }) => i.path)).toEqual(['author', 'categories[1]', 'tags[0]', 'featuredImageId']);
    // A repeat is no new problem, and each problem is named at its own place in the list as sent.
    const repeated = await adminJson('POST', '/posts', { title: 'Repeats', categories: ['nope', 'nope', 'release-notes', 'other'] });
    expect(repeated.body.error.details).toEqual([
      { path: 'categories[0]', message: 'no category "nope"' }, { path: 'categories[3]', message: 'no category "other"' },
    ]);
    const seo = await adminJson('POST', '/posts', { title: 'Seo', seo: { ogImage: 'x' } });
    expect(seo.status).toBe(400);
    const big = await adminJson('POST', '/posts', { title: 'Big', body: 'x'.repeat(1_048_577) });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('updates only what is given, merging SEO and replacing terms', async () => {
    clock.advance(1000);
    await adminJson('POST', '/categories', { name: 'Guides' });
    const res = await adminJson('PUT', '/posts/hello-world', { summary: 'Changed', categories: ['guides'], seo: { metaDescription: 'Desc', metaTitle: null } });
    expect(res.status).toBe(200);
    const post = res.body.data;
    expect(post).toMatchObject({ title: 'Hello, World', summary: 'Changed', updatedAt: '2026-04-01T00:00:02.000Z' });
    expect(post.categories.map((c: { slug: string }) => c.slug)).toEqual(['guides']);
    expect(post.tags.map((t: { slug: string }) => t.slug)).toEqual(['typescript']);
    expect(post.seo).toEqual({ metaDescription: 'Desc', ogImageId: post.featuredImageId });
    const cleared = await adminJson('PUT', '/posts/hello-world', { featuredImageId: null, author: null, tags: [] });
    expect(cleared.body.data).toMatchObject({ featuredImageId: null, featuredImage: null, author: null, tags: [] });
    expect((await adminJson('PUT', '/posts/hello-world', { slug: 'hello-again' })).body.data.slug).toBe('hello-again');
    expect((await adminJson('PUT', '/posts/hello-world', { summary: 'x' })).status).toBe(404);
    expect((await adminJson('PUT', '/posts/hello-again', { unknown: 1 })).status).toBe(400);
  });

  it('publishes and unpublishes, keeping a publishedAt set beforehand', async () => {
    clock.advance(1000);
    const published = await adminJson('POST', '/posts/hello-again/publish');
    expect(published.body.data).toMatchObject({ status: 'published', publishedAt: '2026-04-01T00:00:03.000Z' });
    const unpublished = await adminJson('POST', '/posts/hello-again/unpublish');
    expect(unpublished.body.data).toMatchObject({ status: 'draft', publishedAt: null });
    const dated = await adminJson('POST', '/posts', { title: 'Backdated', publishedAt: '2020-05-05T05:05:05Z' });
    const pub = await adminJson('POST', `/posts/${dated.body.data.id}/publish`);
    expect(pub.body.data).toMatchObject({ status: 'published', publishedAt: '2020-05-05T05:05:05.000Z' });
    const direct = await adminJson('POST', '/posts', { title: 'Direct', status: 'published' });
    expect(direct.body.data.publishedAt).toBe('2026-04-01T00:00:03.000Z');
    expect(h.events).toEqual([]);
  });

  it('lists posts for the admin with drafts, filters, search and sort', async () => {
    const all = await adminJson('GET', '/posts?sort=title');
    expect(all.body.data.map((p: { slug: string }) => p.slug)).toEqual(['backdated', 'direct', 'hello-again']);
    expect(all.body.pagination.total).toBe(3);
    const drafts = await adminJson('GET', '/posts?status=draft');
    expect(drafts.body.data.map((p: { slug: string }) => p.slug)).toEqual(['hello-again']);
    expect((await adminJson('GET', '/posts?search=DIRE')).body.data.map((p: { slug: string }) => p.slug)).toEqual(['direct']);
    expect((await adminJson('GET', '/posts?category=guides')).body.data.map((p: { slug: string }) => p.slug)).toEqual(['hello-again']);
    expect((await adminJson('GET', '/posts?limit=1000')).status).toBe(400);
    expect((await adminJson('GET', '/posts?sort=bogus')).status).toBe(400);
    expect((await adminJson('GET', '/posts/direct')).body.data.title).toBe('Direct');
  });

  it('refuses to delete a post that content references unless forced; its slug is free again', async () => {
    const post = (await adminJson('GET', '/posts/direct')).body.data;
    const db = h.t.cms.db;
    const [project] = await db.select().from(projects);
    const [type] = await db.insert(pageTypes).values({ projectId: project!.id, slug: 'home', name: 'Home' }).returning();
    const [page] = await db.insert(pages).values({
      projectId: project!.id, pageTypeId: type!.id, name: 'Home', slug: 'home', draftContent: { featured: { _ref: post.id, _type: 'blogPost' } },
    }).returning();
    const refused = await adminJson('DELETE', '/posts/direct');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'HAS_REFERENCES', details: { referrers: [{ id: page!.id, slug: 'home', type: 'page' }] } });
    const forced = await h.admin('DELETE', '/api/v1/admin/blog/posts/direct?force=true');
    expect(forced.status).toBe(200);
    expect(await forced.json()).toEqual({ success: true, data: { id: post.id, slug: 'direct' } });
    expect((await adminJson('GET', '/posts/direct')).status).toBe(404);
    expect((await adminJson('POST', '/posts', { title: 'Direct' })).status).toBe(201);
  });

  it("blocks deleting a post's featured image; forced, the post shows no image", async () => {
    const png = await makeImage('png', 9, 9, '#999999');
    const media = await h.t.run('media.upload', { data: png.toString('base64'), filename: 'blocked.png' });
    const post = (await adminJson('POST', '/posts', { title: 'With image', featuredImageId: media.id })).body.data;
    const refused = await h.admin('DELETE', `/api/v1/admin/media/${media.id}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.details.referrers).toEqual([{ id: post.id, slug: 'with-image', type: 'blogPost' }]);
    expect((await h.admin('DELETE', `/api/v1/admin/media/${media.id}?force=true`)).status).toBe(200);
    expect((await adminJson('GET', `/posts/${post.id}`)).body.data).toMatchObject({ featuredImageId: null, featuredImage: null });
  });

  it('removes deleted terms and authors from posts without deleting the posts', async () => {
    const before = (await adminJson('GET', '/posts/hello-again')).body.data;
    expect(before.categories).toHaveLength(1);
    await adminJson('PUT', '/posts/hello-again', { author: 'zoe-o-brien', tags: ['typescript'] });
    expect((await adminJson('DELETE', '/categories/guides')).status).toBe(200);
    expect((await adminJson('DELETE', '/tags/typescript')).status).toBe(200);
    expect((await adminJson('DELETE', '/authors/zoe-o-brien')).status).toBe(200);
    const after = (await adminJson('GET', '/posts/hello-again')).body.data;
    expect(after).toMatchObject({ categories: [], tags: [], author: null });
    expect((await adminJson('DELETE', '/tags/typescript')).status).toBe(404);
  });

  it('keeps writes to editors and the admin API to signed-in members', async () => {
    expect((await adminJson('GET', '/posts', undefined, h.viewerCookie)).status).toBe(200);
    expect((await adminJson('POST', '/posts', { title: 'Nope' }, h.viewerCookie)).status).toBe(403);
    expect((await adminJson('POST', '/tags', { name: 'Nope' }, h.viewerCookie)).status).toBe(403);
    expect((await h.fetch('/api/v1/admin/blog/posts')).status).toBe(401);
    // API keys read the public blog only.
    const { findKeyActor } = await import('../../src/core/keys/operations.js');
    const actor = (await findKeyActor(h.t.cms.db, h.keys.secret))!;
    await expect(h.t.cms.run('blog.posts.create', { title: 'Key' }, { actor })).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
