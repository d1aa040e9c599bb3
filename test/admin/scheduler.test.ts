import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startJobs } from '../../src/background-jobs.js';
import { recordEvents, schema } from './content-support.js';
import { createAdminHarness, type AdminHarness } from './support.js';

describe('scheduled publishing', () => {
  let h: AdminHarness;
  let cookie: string;
  let events: ReturnType<typeof recordEvents>;
  const call = (method: string, path: string, body?: unknown) => h.call(method, path, { cookie, ...(body === undefined ? {} : { body }) });
  const inMinutes = (m: number) => new Date(h.clock.now().getTime() + m * 60_000).toISOString();

  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('schema.push', schema);
    const editor = await h.createUser('editor');
    cookie = await h.signIn(editor.email);
    events = recordEvents(h);
  });
  afterAll(async () => { await h.close(); });

  it('publishes what is due when the scheduler job runs, and emits *.published', async () => {
    const page = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'Later', slug: 'later', fields: { title: 'T' } })).json()).data;
    const item = (await (await call('POST', '/api/v1/admin/collection-items', { collectionTypeSlug: 'authors', name: 'Al', slug: 'al', fields: { bio: 'B' } })).json()).data;
    const notYet = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'Much later', slug: 'much-later', fields: { title: 'T' } })).json()).data;
    await call('POST', `/api/v1/admin/pages/${page.id}/schedule`, { publishAt: inMinutes(5) });
    await call('POST', `/api/v1/admin/collection-items/${item.id}/schedule`, { publishAt: inMinutes(5) });
    await call('POST', `/api/v1/admin/pages/${notYet.id}/schedule`, { publishAt: inMinutes(60) });
    events.take();

    // Nothing is due yet.
    expect(await h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' })).toEqual({ published: [], failed: [], unpublished: [] });
    expect(events.take()).toEqual([]);

    h.clock.advance(5 * 60_000);
    // The server's own job: its first pass runs at start.
    const done = new Promise<void>((resolve) => {
      const seen = new Set<string>();
      h.t.cms.events.on('event', (e) => {
        seen.add(e.kind);
        if (seen.has('page.published') && seen.has('collection_item.published')) resolve();
      });
    });
    const jobs = startJobs(h.t.cms);
    await done;
    await jobs.stop();

    const got = events.take();
    const pagePublished = got.find((e) => e.kind === 'page.published')!;
    const itemPublished = got.find((e) => e.kind === 'collection_item.published')!;
    expect(got).toHaveLength(2);
    expect(pagePublished.data).toMatchObject({ id: page.id, status: 'published', publishAt: null, publishedContent: { title: 'T' } });
    expect(itemPublished.data).toMatchObject({ id: item.id, status: 'published', publishAt: null });

    const reread = (await (await call('GET', `/api/v1/admin/pages/${page.id}`)).json()).data;
    expect(reread).toMatchObject({ status: 'published', publishedAt: h.clock.now().toISOString(), publishAt: null });
    const waiting = (await (await call('GET', `/api/v1/admin/pages/${notYet.id}`)).json()).data;
    expect(waiting).toMatchObject({ status: 'draft', publishAt: inMinutes(55) });
  });

  it('unschedules an entry that cannot be published and publishes the rest', async () => {
    const broken = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'Broken', slug: 'broken', fields: { body: 'no title' } })).json()).data;
    const fine = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'Fine', slug: 'fine', fields: { title: 'ok' } })).json()).data;
    await call('POST', `/api/v1/admin/pages/${broken.id}/schedule`, { publishAt: inMinutes(1) });
    await call('POST', `/api/v1/admin/pages/${fine.id}/schedule`, { publishAt: inMinutes(2) });
    events.take();
    h.clock.advance(3 * 60_000);
    const result = await h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' });
    expect(result.published.map((e: { id: string }) => e.id)).not.toContain(broken.id);
    expect(result.published.map((e: { id: string }) => e.id)).toContain(fine.id);
    expect(result.failed).toEqual([{ kind: 'page', id: broken.id, slug: 'broken', error: { code: 'REQUIRED_FIELDS_MISSING', message: expect.any(String) } }]);
    expect(events.take().map((e) => [e.kind, e.data.id])).toEqual([['page.published', fine.id]]);
    const after = (await (await call('GET', `/api/v1/admin/pages/${broken.id}`)).json()).data;
    expect(after).toMatchObject({ status: 'draft', publishAt: null });
    // A second pass has nothing left to do.
    expect(await h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' })).toEqual({ published: [], failed: [], unpublished: [] });
  });

  it('unpublishes a published entry once its unpublishAt is due, once with two passes at a time, and emits *.unpublished', async () => {
    const page = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'Ending', slug: 'ending', fields: { title: 'T' } })).json()).data;
    await call('POST', `/api/v1/admin/pages/${page.id}/publish`);
    const item = (await (await call('POST', '/api/v1/admin/collection-items', { collectionTypeSlug: 'authors', name: 'Bo', slug: 'bo', fields: { bio: 'B' } })).json()).data;
    await call('POST', `/api/v1/admin/collection-items/${item.id}/publish`);
    const draft = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'Never live', slug: 'never-live', fields: { title: 'T' } })).json()).data;
    expect((await (await call('POST', `/api/v1/admin/pages/${page.id}/schedule`, { unpublishAt: inMinutes(5) })).json()).data).toMatchObject({ status: 'published', unpublishAt: inMinutes(5) });
    await call('POST', `/api/v1/admin/collection-items/${item.id}/schedule`, { unpublishAt: inMinutes(5) });
    await call('POST', `/api/v1/admin/pages/${draft.id}/schedule`, { unpublishAt: inMinutes(5) });
    events.take();
    expect(await h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' })).toEqual({ published: [], failed: [], unpublished: [] });

    h.clock.advance(5 * 60_000);
    // Two passes at the same moment (two servers on one database): each entry is unpublished once.
    const results = await Promise.all([1, 2].map(() => h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' })));
    const unpublished = results.flatMap((r) => r.unpublished as Array<{ kind: string; id: string }>).map((e) => e.id).sort();
    expect(unpublished).toEqual([page.id, item.id].sort());
    const got = events.take();
    expect(got.map((e) => e.kind).sort()).toEqual(['collection_item.unpublished', 'page.unpublished']);
    expect(got.find((e) => e.kind === 'page.unpublished')!.data).toMatchObject({ id: page.id, status: 'draft', unpublishAt: null, publishedContent: null });

    const reread = (await (await call('GET', `/api/v1/admin/pages/${page.id}`)).json()).data;
    expect(reread).toMatchObject({ status: 'draft', unpublishAt: null, publishedAt: null });
    // A draft's due unpublish is cleared, with no event.
    expect((await (await call('GET', `/api/v1/admin/pages/${draft.id}`)).json()).data).toMatchObject({ status: 'draft', unpublishAt: null });
    expect(await h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' })).toEqual({ published: [], failed: [], unpublished: [] });
    expect(events.take()).toEqual([]);
  });

  it('publishes and later unpublishes an entry scheduled for both', async () => {
    const page = (await (await call('POST', '/api/v1/admin/pages', { pageTypeSlug: 'article', name: 'Window', slug: 'window', fields: { title: 'T' } })).json()).data;
    await call('POST', `/api/v1/admin/pages/${page.id}/schedule`, { publishAt: inMinutes(1), unpublishAt: inMinutes(10) });
    events.take();
    h.clock.advance(60_000);
    expect((await h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' })).published.map((e: { id: string }) => e.id)).toEqual([page.id]);
    expect((await (await call('GET', `/api/v1/admin/pages/${page.id}`)).json()).data).toMatchObject({ status: 'published', publishAt: null, unpublishAt: inMinutes(9) });
    h.clock.advance(9 * 60_000);
    expect((await h.t.run('content.publishDue', {}, { kind: 'system', job: 'scheduler' })).unpublished).toEqual([{ kind: 'page', id: page.id, slug: 'window' }]);
    expect(events.take().map((e) => e.kind)).toEqual(['page.published', 'page.unpublished']);
  });

  it('is for the server and the terminal, not for members', async () => {
    await expect(h.t.run('content.publishDue', {}, { kind: 'user', userId: 'u', email: 'e@example.test', role: 'owner' }))
      .rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});
