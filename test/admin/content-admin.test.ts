import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordEvents, schema } from './content-support.js';
import { createAdminHarness, type AdminHarness } from './support.js';

const pagesPath = '/api/v1/admin/pages';
const itemsPath = '/api/v1/admin/collection-items';

describe('admin content: pages', () => {
  let h: AdminHarness;
  let cookie: string;
  let editorId: string;
  let events: ReturnType<typeof recordEvents>;
  let n = 0;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    h.call(method, path, { cookie, ...(body === undefined ? {} : { body }), ...(headers ? { headers } : {}) });
  /** A fresh draft page; its events are taken away. */
  const newPage = async (fields: Record<string, unknown> = { title: 'Hello' }, extra: Record<string, unknown> = {}) => {
    const res = await call('POST', pagesPath, { pageTypeSlug: 'article', name: `Page ${++n}`, slug: `page-${n}`, fields, ...extra });
    expect(res.status).toBe(201);
    events.take();
    return (await res.json()).data;
  };

  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('schema.push', schema);
    const editor = await h.createUser('editor');
    editorId = editor.id;
    cookie = await h.signIn(editor.email);
    events = recordEvents(h);
  });
  beforeEach(() => { events.take(); });
  afterAll(async () => { await h.close(); });

  describe('create, read, update', () => {
    it('creates a draft (201) and emits page.created with the created object', async () => {
      const res = await call('POST', pagesPath, { pageTypeSlug: 'article', name: 'Welcome', slug: 'welcome', fields: { title: 'Hi' } });
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data).toMatchObject({ name: 'Welcome', slug: 'welcome', status: 'draft', version: 1, publishedAt: null, draftContent: { title: 'Hi' } });
      expect(events.take()).toEqual([{ kind: 'page.created', data }]);
    });

    it('creates published: page.created then page.published', async () => {
      const res = await call('POST', pagesPath, { pageTypeSlug: 'article', name: 'Live', slug: 'live', fields: { title: 'Hi' }, status: 'published' });
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data.status).toBe('published');
      const got = events.take();
      expect(got.map((e) => e.kind)).toEqual(['page.created', 'page.published']);
      expect(got[0]!.data).toMatchObject({ id: data.id, status: 'draft' });
      expect(got[1]!.data).toEqual(data);
    });

    it('reads one page by id, drafts included; 404 for an unknown id', async () => {
      const page = await newPage();
      const res = await call('GET', `${pagesPath}/${page.id}`);
      expect(res.status).toBe(200);
      expect((await res.json()).data).toEqual(page);
      expect((await call('GET', `${pagesPath}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
      expect((await call('GET', `${pagesPath}/not-an-id`)).status).toBe(404);
    });

    it('updates with the expected version (body or If-Match) and emits page.updated', async () => {
      const page = await newPage();
      const res = await call('PUT', `${pagesPath}/${page.id}`, { fields: { body: 'More' }, version: 1 });
      expect(res.status).toBe(200);
      const { data } = await res.json();
      expect(data).toMatchObject({ version: 2, draftContent: { title: 'Hello', body: 'More' } });
      expect(events.take()).toEqual([{ kind: 'page.updated', data }]);

      const viaHeader = await call('PUT', `${pagesPath}/${page.id}`, { name: 'Renamed' }, { 'content-type': 'application/json', 'if-match': '"2"' });
      expect(viaHeader.status).toBe(200);
      expect((await viaHeader.json()).data).toMatchObject({ version: 3, name: 'Renamed' });
    });

    it('refuses a stale version with 409 VERSION_CONFLICT and the current version', async () => {
      const page = await newPage();
      await call('PUT', `${pagesPath}/${page.id}`, { fields: { body: 'one' } });
      events.take();
      const res = await call('PUT', `${pagesPath}/${page.id}`, { fields: { body: 'two' }, version: 1 });
      expect(res.status).toBe(409);
      const body = await res.json();
      expect(body.error).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });
      expect(events.take()).toEqual([]);
    });

    it('validates content and slugs', async () => {
      const bad = await call('POST', pagesPath, { pageTypeSlug: 'article', name: 'X', slug: 'Bad Slug', fields: { title: 5 } });
      expect(bad.status).toBe(400);
      const page = await newPage();
      const taken = await call('POST', pagesPath, { pageTypeSlug: 'article', name: 'X', slug: page.slug });
      expect(taken.status).toBe(409);
      expect((await taken.json()).error.code).toBe('SLUG_EXISTS');
      expect((await call('POST', pagesPath, { pageTypeSlug: 'nope', name: 'X', slug: 'x-nope' })).status).toBe(404);
    });

    it('refuses a body that is not a JSON object with 400 VALIDATION_FAILED, and changes nothing', async () => {
      const page = await newPage();
      for (const body of ['null', '"text"', '5', '[1,2]', 'true']) {
        for (const [method, path] of [['PUT', ''], ['POST', '/clone'], ['POST', '/schedule'], ['POST', '/resolve-conflict']] as const) {
          const res = await call(method, `${pagesPath}/${page.id}${path}`, body);
          expect(res.status, `${method} ${path} ${body}`).toBe(400);
          expect((await res.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '(body)', message: 'must be an object' }] });
        }
      }
      expect((await (await call('GET', `${pagesPath}/${page.id}`)).json()).data).toEqual(page);
      expect(events.take()).toEqual([]);
      // No body at all is an empty object: a clone with every default.
      expect((await call('POST', `${pagesPath}/${page.id}/clone`)).status).toBe(201);
    });
  });

  describe('lists', () => {
    it('lists drafts and published pages with paging and sorting', async () => {
      const res = await call('GET', `${pagesPath}?limit=2&page=1&sort=slug`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.data).toHaveLength(2);
      expect(body.pagination).toMatchObject({ page: 1, limit: 2 });
      expect(body.pagination.total).toBeGreaterThanOrEqual(4);
      expect(body.pagination.totalPages).toBe(Math.ceil(body.pagination.total / 2));
      const all = await (await call('GET', `${pagesPath}?limit=100&sort=-slug`)).json();
      const slugs = all.data.map((p: { slug: string }) => p.slug);
      expect(slugs).toEqual([...slugs].sort().reverse());
      const statuses = new Set(all.data.map((p: { status: string }) => p.status));
      expect(statuses).toEqual(new Set(['draft', 'published']));
      expect(all.data[0]).toHaveProperty('draftContent');
    });

    it('filters by page type and refuses bad query parameters', async () => {
      const byType = await (await call('GET', `${pagesPath}?pageType=article&limit=100`)).json();
      expect(byType.data.length).toBe(byType.pagination.total);
      const none = await (await call('GET', `${pagesPath}?pageType=unknown`)).json();
      expect(none.data).toEqual([]);
      const bad = await call('GET', `${pagesPath}?limit=500`);
      expect(bad.status).toBe(400);
      expect((await bad.json()).error.code).toBe('INVALID_QUERY');
    });
  });

  describe('publish, unpublish, delete', () => {
    it('publishes and unpublishes with the object as event data', async () => {
      const page = await newPage();
      const pub = await call('POST', `${pagesPath}/${page.id}/publish`);
      expect(pub.status).toBe(200);
      const published = (await pub.json()).data;
      expect(published).toMatchObject({ status: 'published', publishedContent: { title: 'Hello' } });
      expect(events.take()).toEqual([{ kind: 'page.published', data: published }]);
      const un = await call('POST', `${pagesPath}/${page.id}/unpublish`);
      const unpublished = (await un.json()).data;
      expect(unpublished).toMatchObject({ status: 'draft', publishedAt: null });
      expect(events.take()).toEqual([{ kind: 'page.unpublished', data: unpublished }]);
    });

    it('refuses to publish with required fields empty', async () => {
      const page = await newPage({ body: 'no title' });
      const res = await call('POST', `${pagesPath}/${page.id}/publish`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatchObject({ code: 'REQUIRED_FIELDS_MISSING' });
      expect(events.take()).toEqual([]);
    });

    it('deletes with { id, name, slug } as event data; referenced pages need force', async () => {
      const page = await newPage();
      const res = await call('DELETE', `${pagesPath}/${page.id}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
      expect(events.take()).toEqual([{ kind: 'page.deleted', data: { id: page.id, name: page.name, slug: page.slug } }]);
      expect((await call('GET', `${pagesPath}/${page.id}`)).status).toBe(404);
    });
  });

  describe('versions and restore', () => {
    it('lists snapshots newest first and restores one as a new version', async () => {
      const page = await newPage({ title: 'First' });
      await call('POST', `${pagesPath}/${page.id}/publish`);
      await call('PUT', `${pagesPath}/${page.id}`, { name: 'Second name', fields: { title: 'Second', body: 'added' } });
      await call('POST', `${pagesPath}/${page.id}/publish`);
      events.take();

      const list = await call('GET', `${pagesPath}/${page.id}/versions`);
      expect(list.status).toBe(200);
      const versions = (await list.json()).data;
      expect(versions).toEqual([
        { version: 2, status: 'published', createdBy: `user:${editorId}`, createdAt: expect.any(String) },
        { version: 1, status: 'published', createdBy: `user:${editorId}`, createdAt: expect.any(String) },
      ]);

      const res = await call('POST', `${pagesPath}/${page.id}/versions/1/restore`);
      expect(res.status).toBe(200);
      const { data } = await res.json();
      expect(data).toMatchObject({ id: page.id, version: 3, name: page.name, draftContent: { title: 'First' }, status: 'published' });
      expect(data.draftContent).not.toHaveProperty('body');
      // The published content is left alone until the next publish.
      expect(data.publishedContent).toEqual({ title: 'Second', body: 'added' });
      expect(events.take()).toEqual([{ kind: 'page.updated', data }]);

      const after = (await (await call('GET', `${pagesPath}/${page.id}/versions`)).json()).data;
      expect(after.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
    });

    it('reads one stored version: its name, slug and fields as restore would bring them back', async () => {
      const page = await newPage({ title: 'First' });
      await call('POST', `${pagesPath}/${page.id}/publish`);
      await call('PUT', `${pagesPath}/${page.id}`, { name: 'Later', fields: { title: 'Later', body: 'more' } });
      const res = await call('GET', `${pagesPath}/${page.id}/versions/1`);
      expect(res.status).toBe(200);
      expect((await res.json()).data).toEqual({
        version: 1, status: 'published', createdBy: `user:${editorId}`, createdAt: expect.any(String),
        name: page.name, slug: page.slug, draftContent: { title: 'First' }, seo: {},
      });
      expect((await call('GET', `${pagesPath}/${page.id}/versions/9`)).status).toBe(404);
      expect((await call('GET', `${pagesPath}/${page.id}/versions/x`)).status).toBe(404);
    });

    it('answers 404 for a version that was never stored', async () => {
      const page = await newPage();
      expect((await call('POST', `${pagesPath}/${page.id}/versions/7/restore`)).status).toBe(404);
      expect((await call('POST', `${pagesPath}/${page.id}/versions/x/restore`)).status).toBe(404);
      expect(events.take()).toEqual([]);
    });
  });

  describe('resolve-conflict', () => {
    /** A page edited by someone else since version 1: body "theirs" at version 2. */
    const conflicted = async () => {
      const page = await newPage({ title: 'Base', body: 'base' });
      await call('PUT', `${pagesPath}/${page.id}`, { fields: { body: 'theirs' } });
      events.take();
      return page;
    };

    it('keeps mine: my fields over the current draft', async () => {
      const page = await conflicted();
      const res = await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 1, strategy: 'mine', fields: { title: 'Mine' } });
      expect(res.status).toBe(200);
      const { data } = await res.json();
      expect(data).toMatchObject({ version: 3, draftContent: { title: 'Mine', body: 'theirs' } });
      expect(events.take()).toEqual([{ kind: 'page.updated', data }]);
    });

    it('takes theirs: the current draft stays, recorded as a new version', async () => {
      const page = await conflicted();
      const res = await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 1, strategy: 'theirs' });
      const { data } = await res.json();
      expect(data).toMatchObject({ version: 3, draftContent: { title: 'Base', body: 'theirs' } });
      expect(events.take()).toEqual([{ kind: 'page.updated', data }]);
    });

    it('merges: the fields sent are laid over the current draft; fields not sent stay', async () => {
      const page = await conflicted();
      const res = await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 1, strategy: 'merge', fields: { title: 'Merged' } });
      const { data } = await res.json();
      expect(data).toMatchObject({ version: 3, draftContent: { title: 'Merged', body: 'theirs' } });
      expect(events.take()).toEqual([{ kind: 'page.updated', data }]);
    });

    it('merges three ways against a stored base version: a field sent as it was in the base keeps their change', async () => {
      // Version 1 is published, so its snapshot is the base; they change body (v2) while I change title.
      const page = await newPage({ title: 'Base', body: 'base' }, { status: 'published' });
      await call('PUT', `${pagesPath}/${page.id}`, { fields: { body: 'theirs' } });
      events.take();
      const res = await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 1, strategy: 'merge', fields: { title: 'Mine', body: 'base' } });
      expect(res.status).toBe(200);
      const { data } = await res.json();
      expect(data).toMatchObject({ version: 3, draftContent: { title: 'Mine', body: 'theirs' } });
      // mine, by contrast, takes every field sent.
      const mine = await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 1, strategy: 'mine', fields: { title: 'Mine', body: 'base' } });
      expect((await mine.json()).data.draftContent).toEqual({ title: 'Mine', body: 'base' });
    });

    it('validates the request', async () => {
      const page = await conflicted();
      expect((await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 1, strategy: 'mine' })).status).toBe(400);
      expect((await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 9, strategy: 'theirs' })).status).toBe(400);
      expect((await call('POST', `${pagesPath}/${page.id}/resolve-conflict`, { baseVersion: 1, strategy: 'both' })).status).toBe(400);
      expect(events.take()).toEqual([]);
    });
  });

  describe('clone', () => {
    it('clones into a new draft (201) with a free slug and emits page.created with the clone', async () => {
      const page = await newPage({ title: 'Original' }, { seo: { metaTitle: 'SEO' }, status: 'published' });
      const res = await call('POST', `${pagesPath}/${page.id}/clone`, {});
      expect(res.status).toBe(201);
      const { data } = await res.json();
      expect(data).toMatchObject({
        slug: `${page.slug}-copy`, name: `${page.name} (copy)`, status: 'draft', version: 1,
        draftContent: { title: 'Original' }, seo: { metaTitle: 'SEO' }, publishedContent: null,
      });
      expect(data.id).not.toBe(page.id);
      expect(events.take()).toEqual([{ kind: 'page.created', data }]);

      const second = await (await call('POST', `${pagesPath}/${page.id}/clone`, {})).json();
      expect(second.data.slug).toBe(`${page.slug}-copy-2`);
      const named = await call('POST', `${pagesPath}/${page.id}/clone`, { slug: 'chosen', name: 'Chosen' });
      expect((await named.json()).data).toMatchObject({ slug: 'chosen', name: 'Chosen' });
      const taken = await call('POST', `${pagesPath}/${page.id}/clone`, { slug: 'chosen' });
      expect(taken.status).toBe(409);
    });

    it('names a clone of a 255-character name "<name shortened> (copy)", counting characters as names are counted', async () => {
      const emoji = '😀'.repeat(255);
      const long = await newPage({ title: 'Long' }, { name: emoji });
      const clone = await call('POST', `${pagesPath}/${long.id}/clone`, {});
      expect(clone.status).toBe(201);
      expect((await clone.json()).data.name).toBe(`${'😀'.repeat(248)} (copy)`);
      const plain = await newPage({ title: 'Plain' }, { name: 'a'.repeat(255) });
      expect((await (await call('POST', `${pagesPath}/${plain.id}/clone`, {})).json()).data.name).toBe(`${'a'.repeat(248)} (copy)`);
      // A name given for the clone is held to the same rule: 255 characters, not 255 UTF-16 units.
      const named = await call('POST', `${pagesPath}/${plain.id}/clone`, { name: emoji });
      expect(named.status).toBe(201);
      expect((await named.json()).data.name).toBe(emoji);
      const tooLong = await call('POST', `${pagesPath}/${plain.id}/clone`, { name: `${emoji}😀` });
      expect(tooLong.status).toBe(400);
      expect((await tooLong.json()).error.details).toEqual([expect.objectContaining({ path: 'name' })]);
    });
  });

  describe('bulk', () => {
    it('publishes each item on its own, with { id } per event and a result per id', async () => {
      const a = await newPage();
      const b = await newPage({ body: 'no title' });
      const c = await newPage();
      const missing = '00000000-0000-4000-8000-000000000000';
      const res = await call('POST', `${pagesPath}/bulk-publish`, { ids: [a.id, b.id, missing, c.id] });
      expect(res.status).toBe(200);
      const { data } = await res.json();
      expect(data).toEqual([
        { id: a.id, ok: true },
        { id: b.id, ok: false, error: { code: 'REQUIRED_FIELDS_MISSING', message: expect.any(String), details: { fields: ['title'] } } },
        { id: missing, ok: false, error: { code: 'NOT_FOUND', message: expect.any(String) } },
        { id: c.id, ok: true },
      ]);
      expect(events.take()).toEqual([
        { kind: 'page.published', data: { id: a.id } },
        { kind: 'page.published', data: { id: c.id } },
      ]);
      expect((await (await call('GET', `${pagesPath}/${c.id}`)).json()).data.status).toBe('published');
      expect((await (await call('GET', `${pagesPath}/${b.id}`)).json()).data.status).toBe('draft');

      const un = await (await call('POST', `${pagesPath}/bulk-unpublish`, { ids: [a.id, c.id] })).json();
      expect(un.data).toEqual([{ id: a.id, ok: true }, { id: c.id, ok: true }]);
      expect(events.take()).toEqual([
        { kind: 'page.unpublished', data: { id: a.id } },
        { kind: 'page.unpublished', data: { id: c.id } },
      ]);
    });

    it('deletes in bulk with { id } events; referenced pages need force', async () => {
      const target = await newPage();
      const referrer = await h.t.run('items.create', { collectionTypeSlug: 'authors', name: 'Ref', slug: `ref-${n}`, fields: { bio: target.id } });
      const other = await newPage();
      events.take();
      const res = await (await call('POST', `${pagesPath}/bulk-delete`, { ids: [target.id, other.id] })).json();
      expect(res.data).toEqual([
        {
          id: target.id, ok: false,
          error: { code: 'HAS_REFERENCES', message: expect.any(String), details: { referrers: [{ id: referrer.id, slug: referrer.slug, type: 'collectionItem', typeSlug: 'authors' }] } },
        },
        { id: other.id, ok: true },
      ]);
      expect(events.take()).toEqual([{ kind: 'page.deleted', data: { id: other.id } }]);
      const forced = await (await call('POST', `${pagesPath}/bulk-delete`, { ids: [target.id], force: true })).json();
      expect(forced.data).toEqual([{ id: target.id, ok: true }]);
      expect(events.take()).toEqual([{ kind: 'page.deleted', data: { id: target.id } }]);
      expect(referrer.id).toBeTruthy();
    });

    it('validates the ids, after the role: a viewer is told 403 whatever the body', async () => {
      expect((await call('POST', `${pagesPath}/bulk-publish`, { ids: [] })).status).toBe(400);
      expect((await call('POST', `${pagesPath}/bulk-publish`, {})).status).toBe(400);
      const viewer = await h.signIn((await h.createUser('viewer')).email);
      for (const [action, body] of [['publish', { ids: [] }], ['delete', {}], ['unpublish', { ids: ['x'] }]] as const) {
        const res = await h.call('POST', `${pagesPath}/bulk-${action}`, { cookie: viewer, body });
        expect(res.status, action).toBe(403);
        expect((await res.json()).error.code, action).toBe('FORBIDDEN');
      }
    });
  });

  describe('autosave', () => {
    it('saves the draft as a new version and emits nothing', async () => {
      const page = await newPage();
      const res = await call('POST', `${pagesPath}/${page.id}/autosave`, { fields: { body: 'typing…' }, version: 1 });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toMatchObject({ version: 2, draftContent: { title: 'Hello', body: 'typing…' } });
      expect(events.take()).toEqual([]);
      const stale = await call('POST', `${pagesPath}/${page.id}/autosave`, { fields: { body: 'late' }, version: 1 });
      expect(stale.status).toBe(409);
    });
  });

  describe('scheduling', () => {
    it('schedules and unschedules without events', async () => {
      const page = await newPage();
      const at = new Date(h.clock.now().getTime() + 3600_000).toISOString();
      const res = await call('POST', `${pagesPath}/${page.id}/schedule`, { publishAt: at });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toMatchObject({ publishAt: at, status: 'draft', version: 1 });
      const off = await call('DELETE', `${pagesPath}/${page.id}/schedule`);
      expect(off.status).toBe(200);
      expect((await off.json()).data.publishAt).toBeNull();
      expect(events.take()).toEqual([]);
    });

    it('refuses a time in the past or not a time', async () => {
      const page = await newPage();
      const past = new Date(h.clock.now().getTime() - 1000).toISOString();
      expect((await call('POST', `${pagesPath}/${page.id}/schedule`, { publishAt: past })).status).toBe(400);
      expect((await call('POST', `${pagesPath}/${page.id}/schedule`, { publishAt: 'tomorrow' })).status).toBe(400);
    });

    it('schedules an unpublish, alone or after a publish, without events; DELETE clears both or one', async () => {
      const page = await newPage();
      const inHours = (n: number) => new Date(h.clock.now().getTime() + n * 3600_000).toISOString();
      const created = (await (await call('GET', `${pagesPath}/${page.id}`)).json()).data;
      expect(created).toMatchObject({ publishAt: null, unpublishAt: null });

      const off = await call('POST', `${pagesPath}/${page.id}/schedule`, { unpublishAt: inHours(2) });
      expect(off.status).toBe(200);
      expect((await off.json()).data).toMatchObject({ publishAt: null, unpublishAt: inHours(2), version: 1 });
      // Both at once; a time left out keeps its value.
      const both = await call('POST', `${pagesPath}/${page.id}/schedule`, { publishAt: inHours(1), unpublishAt: inHours(3) });
      expect((await both.json()).data).toMatchObject({ publishAt: inHours(1), unpublishAt: inHours(3) });
      const onlyPublish = await call('POST', `${pagesPath}/${page.id}/schedule`, { publishAt: inHours(2) });
      expect((await onlyPublish.json()).data).toMatchObject({ publishAt: inHours(2), unpublishAt: inHours(3) });
      expect((await (await call('GET', `${pagesPath}/${page.id}`)).json()).data).toMatchObject({ publishAt: inHours(2), unpublishAt: inHours(3) });

      const one = await call('DELETE', `${pagesPath}/${page.id}/schedule?which=unpublish`);
      expect(one.status).toBe(200);
      expect((await one.json()).data).toMatchObject({ publishAt: inHours(2), unpublishAt: null });
      await call('POST', `${pagesPath}/${page.id}/schedule`, { unpublishAt: inHours(4) });
      const wrongWhich = await call('DELETE', `${pagesPath}/${page.id}/schedule?which=later`);
      expect(wrongWhich.status).toBe(400);
      expect((await wrongWhich.json()).error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: 'which' })] });
      const all = await call('DELETE', `${pagesPath}/${page.id}/schedule`);
      expect((await all.json()).data).toMatchObject({ publishAt: null, unpublishAt: null });
      expect(events.take()).toEqual([]);
    });

    it('refuses an unpublish time in the past, not after the publish time, or no time at all, at the field', async () => {
      const page = await newPage();
      const inHours = (n: number) => new Date(h.clock.now().getTime() + n * 3600_000).toISOString();
      const refused = async (body: unknown, path: string) => {
        const res = await call('POST', `${pagesPath}/${page.id}/schedule`, body);
        expect(res.status).toBe(400);
        const { error } = await res.json();
        expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path })] });
        return error.details[0].message as string;
      };
      expect(await refused({ unpublishAt: inHours(-1) }, 'unpublishAt')).toMatch(/future/);
      expect(await refused({ unpublishAt: 'soon' }, 'unpublishAt')).toMatch(/ISO 8601/);
      expect(await refused({ publishAt: inHours(2), unpublishAt: inHours(1) }, 'unpublishAt')).toMatch(/after publishAt/);
      expect(await refused({ publishAt: inHours(2), unpublishAt: inHours(2) }, 'unpublishAt')).toMatch(/after publishAt/);
      await refused({}, 'publishAt');
      // Against the publish time already stored, too.
      await call('POST', `${pagesPath}/${page.id}/schedule`, { publishAt: inHours(5) });
      expect(await refused({ unpublishAt: inHours(4) }, 'unpublishAt')).toMatch(/after publishAt/);
      expect((await (await call('GET', `${pagesPath}/${page.id}`)).json()).data).toMatchObject({ publishAt: inHours(5), unpublishAt: null });
    });

    it('a manual unpublish clears the scheduled unpublish', async () => {
      const page = await newPage();
      expect((await call('POST', `${pagesPath}/${page.id}/publish`)).status).toBe(200);
      const at = new Date(h.clock.now().getTime() + 3600_000).toISOString();
      expect((await (await call('POST', `${pagesPath}/${page.id}/schedule`, { unpublishAt: at })).json()).data).toMatchObject({ status: 'published', unpublishAt: at });
      events.take();
      const res = await call('POST', `${pagesPath}/${page.id}/unpublish`);
      expect(res.status).toBe(200);
      expect((await res.json()).data).toMatchObject({ status: 'draft', unpublishAt: null });
      expect(events.take().map((e) => [e.kind, e.data.unpublishAt])).toEqual([['page.unpublished', null]]);
    });
  });
});

describe('admin content: collection items', () => {
  let h: AdminHarness;
  let cookie: string;
  let events: ReturnType<typeof recordEvents>;
  const call = (method: string, path: string, body?: unknown) => h.call(method, path, { cookie, ...(body === undefined ? {} : { body }) });
  const create = async (slug: string, fields: Record<string, unknown>, status?: string) => {
    const res = await call('POST', itemsPath, { collectionTypeSlug: 'authors', name: slug.toUpperCase(), slug, fields, ...(status ? { status } : {}) });
    expect(res.status).toBe(201);
    return (await res.json()).data;
  };

  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('schema.push', schema);
    const editor = await h.createUser('editor');
    cookie = await h.signIn(editor.email);
    events = recordEvents(h);
  });
  beforeEach(() => { events.take(); });
  afterAll(async () => { await h.close(); });

  it('creates with collectionTypeSlug and emits collection_item.created', async () => {
    const item = await create('ada', { bio: 'Mathematician', age: 36 });
    expect(item).toMatchObject({ collectionTypeSlug: 'authors', status: 'draft', version: 1 });
    expect(events.take()).toEqual([{ kind: 'collection_item.created', data: item }]);
  });

  it('lists a collection with drafts, paging, sorting and filters', async () => {
    await create('bob', { bio: 'Builder', age: 50 }, 'published');
    await create('cy', { bio: 'Cyclist', age: 20 });
    const all = await (await call('GET', `${itemsPath}?collection=authors&sort=slug`)).json();
    expect(all.data.map((i: { slug: string }) => i.slug)).toEqual(['ada', 'bob', 'cy']);
    const page2 = await (await call('GET', `${itemsPath}?collection=authors&sort=slug&limit=2&page=2`)).json();
    expect(page2.data.map((i: { slug: string }) => i.slug)).toEqual(['cy']);
    expect(page2.pagination).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
    const older = await (await call('GET', `${itemsPath}?collection=authors&filter[fields.age][gte]=30&sort=-slug`)).json();
    expect(older.data.map((i: { slug: string }) => i.slug)).toEqual(['bob', 'ada']);
    const contains = await (await call('GET', `${itemsPath}?collection=authors&filter[fields.bio][contains]=CYC`)).json();
    expect(contains.data.map((i: { slug: string }) => i.slug)).toEqual(['cy']);
    const badField = await call('GET', `${itemsPath}?collection=authors&filter[secret]=1`);
    expect((await badField.json()).error.code).toBe('INVALID_FILTER_FIELD');
    // Naming no collection lists every collection's items, as the pages list does every page type's.
    await h.t.run('types.create', { kind: 'collections', definition: { slug: 'venues', name: 'Venues', fields: [{ name: 'city', type: 'text' }] } });
    const venue = (await (await call('POST', itemsPath, { collectionTypeSlug: 'venues', name: 'Hall', slug: 'hall', fields: { city: 'Oslo' } })).json()).data;
    const every = await call('GET', `${itemsPath}?sort=slug`);
    expect(every.status).toBe(200);
    const listed = await every.json();
    expect(listed.data.map((i: { slug: string; collectionTypeSlug: string }) => `${i.collectionTypeSlug}/${i.slug}`))
      .toEqual(['authors/ada', 'authors/bob', 'authors/cy', 'venues/hall']);
    expect(listed.pagination).toEqual({ total: 4, page: 1, limit: 20, totalPages: 1 });
    expect((await (await call('GET', `${itemsPath}?filter[fields.city]=Oslo`)).json()).data).toEqual([venue]);
    await h.t.run('items.delete', { ref: { id: venue.id }, collection: 'venues' });
  });

  it('updates, publishes, unpublishes and deletes with the collection_item events', async () => {
    const item = await create('dee', { bio: 'Dancer' });
    events.take();
    const updated = (await (await call('PUT', `${itemsPath}/${item.id}`, { fields: { age: 30 }, version: 1 })).json()).data;
    expect(updated.version).toBe(2);
    const published = (await (await call('POST', `${itemsPath}/${item.id}/publish`)).json()).data;
    const unpublished = (await (await call('POST', `${itemsPath}/${item.id}/unpublish`)).json()).data;
    expect(await (await call('DELETE', `${itemsPath}/${item.id}`)).json()).toEqual({ success: true });
    expect(events.take()).toEqual([
      { kind: 'collection_item.updated', data: updated },
      { kind: 'collection_item.published', data: published },
      { kind: 'collection_item.unpublished', data: unpublished },
      { kind: 'collection_item.deleted', data: { id: item.id, name: item.name, slug: item.slug } },
    ]);
  });

  it('reads, clones, lists versions, restores, resolves, autosaves and schedules', async () => {
    const item = await create('eve', { bio: 'Engineer' }, 'published');
    const got = await call('GET', `${itemsPath}/${item.id}`);
    expect((await got.json()).data).toEqual(item);
    events.take();

    const clone = await call('POST', `${itemsPath}/${item.id}/clone`, {});
    expect(clone.status).toBe(201);
    const cloned = (await clone.json()).data;
    expect(cloned).toMatchObject({ slug: 'eve-copy', status: 'draft', draftContent: { bio: 'Engineer' } });
    expect(events.take()).toEqual([{ kind: 'collection_item.created', data: cloned }]);

    await call('PUT', `${itemsPath}/${item.id}`, { fields: { bio: 'Changed' } });
    events.take();
    const versions = (await (await call('GET', `${itemsPath}/${item.id}/versions`)).json()).data;
    expect(versions.map((v: { version: number; status: string }) => [v.version, v.status])).toEqual([[1, 'published']]);
    const restored = (await (await call('POST', `${itemsPath}/${item.id}/versions/1/restore`)).json()).data;
    expect(restored).toMatchObject({ version: 3, draftContent: { bio: 'Engineer' } });
    expect(events.take()).toEqual([{ kind: 'collection_item.updated', data: restored }]);

    const resolved = (await (await call('POST', `${itemsPath}/${item.id}/resolve-conflict`, { baseVersion: 2, strategy: 'mine', fields: { age: 40 } })).json()).data;
    expect(resolved).toMatchObject({ version: 4, draftContent: { bio: 'Engineer', age: 40 } });
    expect(events.take()).toEqual([{ kind: 'collection_item.updated', data: resolved }]);

    const saved = await call('POST', `${itemsPath}/${item.id}/autosave`, { fields: { age: 41 } });
    expect((await saved.json()).data).toMatchObject({ version: 5 });
    const at = new Date(h.clock.now().getTime() + 60_000).toISOString();
    expect((await (await call('POST', `${itemsPath}/${item.id}/schedule`, { publishAt: at })).json()).data.publishAt).toBe(at);
    expect((await (await call('DELETE', `${itemsPath}/${item.id}/schedule`)).json()).data.publishAt).toBeNull();
    expect(events.take()).toEqual([]);
  });

  it('runs bulk actions with { id } events', async () => {
    const a = await create('fay', { bio: 'F' });
    const b = await create('gus', { bio: 'G' });
    events.take();
    const pub = await (await call('POST', `${itemsPath}/bulk-publish`, { ids: [a.id, b.id] })).json();
    expect(pub.data).toEqual([{ id: a.id, ok: true }, { id: b.id, ok: true }]);
    const un = await (await call('POST', `${itemsPath}/bulk-unpublish`, { ids: [a.id] })).json();
    expect(un.data).toEqual([{ id: a.id, ok: true }]);
    const del = await (await call('POST', `${itemsPath}/bulk-delete`, { ids: [a.id, b.id] })).json();
    expect(del.data).toEqual([{ id: a.id, ok: true }, { id: b.id, ok: true }]);
    expect(events.take()).toEqual([
      { kind: 'collection_item.published', data: { id: a.id } },
      { kind: 'collection_item.published', data: { id: b.id } },
      { kind: 'collection_item.unpublished', data: { id: a.id } },
      { kind: 'collection_item.deleted', data: { id: a.id } },
      { kind: 'collection_item.deleted', data: { id: b.id } },
    ]);
  });
});
