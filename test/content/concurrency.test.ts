import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, like } from 'drizzle-orm';
import { media, pages, webhookDeliveries, webhooks } from '../../src/db/schema/index.js';
import { createCms, type Cms } from '../../src/runtime.js';
import { testDriver } from '../helpers/db.js';
import { serveOverSocket } from '../helpers/http.js';
import { createContentHarness, type ContentHarness, type JsonResponse } from './support.js';

/** Writes racing each other over real sockets: versions and idempotency keys hold. */
describe('concurrency', () => {
  let h: ContentHarness;

  beforeAll(async () => {
    h = await createContentHarness();
  });
  afterAll(async () => { await h.close(); });

  /** The live pages whose slug starts so, however many pages the tests before made. */
  const pagesNamed = (slugPrefix: string) => h.t.cms.db.select({ id: pages.id, slug: pages.slug }).from(pages)
    .where(and(like(pages.slug, `${slugPrefix}%`), isNull(pages.deletedAt)));

  it('10 parallel PUTs with the same expected version: exactly one 200, nine 409 VERSION_CONFLICT', async () => {
    await h.createPage({ name: 'Race', slug: 'race', fields: { title: 'T' } });
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      h.write('PUT', '/api/v1/pages/race', { name: `Racer ${i}` }, { headers: { 'if-match': '"1"' } })));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses, JSON.stringify(bodies.filter((b) => b.error?.code !== 'VERSION_CONFLICT'))).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    const winner = bodies.find((_, i) => responses[i]!.status === 200);
    expect(winner.data.version).toBe(2);
    for (const [i, body] of bodies.entries()) {
      if (responses[i]!.status === 409) expect(body.error).toMatchObject({ code: 'VERSION_CONFLICT', details: { currentVersion: 2 } });
    }
    const page = await h.t.run('pages.get', { ref: { slug: 'race' } });
    expect(page).toMatchObject({ version: 2, name: winner.data.name });
  });

  it('a write naming media and an item, and their deletes, at once: never both (content never names what is gone)', async () => {
    const page = await h.createPage({ name: 'Names', slug: 'names', fields: { title: 'T' } });
    for (let round = 0; round < 12; round++) {
      const media = await h.t.run('media.upload', { data: new Uint8Array(Buffer.from(`file ${round}`)), filename: `f${round}.txt` });
      const item = await h.t.run('items.create', { collectionTypeSlug: 'products', name: `P${round}`, slug: `named-${round}` });
      const settle = (p: Promise<unknown>) => p.then(() => 'ok', (e: { code?: string }) => e.code ?? 'thrown');
      const [update, mediaDelete, itemDelete] = await Promise.all([
        settle(h.t.run('pages.update', { ref: { id: page.id }, fields: { hero: media.id, product: { _ref: item.id, _type: 'collectionItem' } } })),
        settle(h.t.run('media.delete', { id: media.id })),
        settle(h.t.run('items.delete', { ref: { id: item.id }, collection: 'products' })),
      ]);
      if (update === 'ok') expect([mediaDelete, itemDelete], `round ${round}`).toEqual(['HAS_REFERENCES', 'HAS_REFERENCES']);
      else expect(update, `round ${round}`).toBe('VALIDATION_FAILED');
      // What the page names exists: publishing it finds nothing gone.
      const draft = (await h.t.run('pages.get', { ref: { id: page.id } })).draftContent;
      if (update === 'ok') expect(draft).toMatchObject({ hero: media.id, product: { _ref: item.id } });
      await h.t.run('pages.update', { ref: { id: page.id }, fields: { hero: null, product: null } });
    }
  });

  it('10 parallel PUTs with the expected version in the body behave the same', async () => {
    await h.createItem('products', { name: 'Race item', slug: 'race-item', fields: { price: 0 } });
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      h.write('PUT', '/api/v1/collections/products/race-item', { version: 1, fields: { price: i + 1 } })));
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(9);
  });

  it('10 parallel PUTs without an expected version all apply, one version each', async () => {
    await h.createPage({ name: 'Many', slug: 'many-writers', fields: { title: 'T' } });
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      h.write('PUT', '/api/v1/pages/many-writers', { fields: { priority: i } })));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const versions = (await Promise.all(responses.map((r) => r.json()))).map((b) => b.data.version).sort((a, b) => a - b);
    expect(versions).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  /** Exactly one page: the others are refused while the first runs, or replay its answer. */
  const expectOneCreated = async (responses: JsonResponse[], slug: string) => {
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const created = bodies.filter((_, i) => responses[i]!.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const [i, r] of responses.entries()) {
      if (r.status === 201) {
        expect(bodies[i].data.id).toBe(created[0].data.id);
      } else {
        expect(r.status, JSON.stringify(bodies[i])).toBe(409);
        expect(bodies[i].error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
      }
    }
    // Every 201 but the first is a replay.
    expect(responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') !== 'true')).toHaveLength(1);
    expect(await pagesNamed(slug)).toHaveLength(1);
  };

  it('10 parallel POSTs sharing one Idempotency-Key create exactly one page', async () => {
    h.events.length = 0;
    const body = { pageTypeSlug: 'landing', name: 'Once', slug: 'parallel-once', fields: { title: 'T' } };
    const responses = await Promise.all(Array.from({ length: 10 }, () => h.write('POST', '/api/v1/pages', body, { idem: 'parallel-key' })));
    await expectOneCreated(responses, 'parallel-once');
    expect(h.events.filter((e) => e.kind === 'page.created')).toHaveLength(1);
    // Once the first has finished, a repeat is a replay.
    const later = await h.write('POST', '/api/v1/pages', body, { idem: 'parallel-key' });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });

  it('10 parallel POSTs with different keys and one slug: one page, nine SLUG_EXISTS', async () => {
    const body = { pageTypeSlug: 'landing', name: 'Slug race', slug: 'slug-race', fields: { title: 'T' } };
    const responses = await Promise.all(Array.from({ length: 10 }, () => h.write('POST', '/api/v1/pages', body)));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses, JSON.stringify(bodies.filter((b) => b.error?.code !== 'SLUG_EXISTS'))).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const b of bodies.filter((x) => x.error)) expect(b.error.code).toBe('SLUG_EXISTS');
    expect(await pagesNamed('slug-race')).toHaveLength(1);
  });

  it('10 parallel clones without a slug: ten drafts, each with its own free slug', async () => {
    await h.createPage({ name: 'Original', slug: 'original', fields: { title: 'T' } });
    const clones = await Promise.all(Array.from({ length: 10 }, () => h.t.run('pages.clone', { ref: { slug: 'original' } })));
    expect(clones.map((c) => c.slug).sort()).toEqual(['original-copy', ...Array.from({ length: 9 }, (_, i) => `original-copy-${i + 2}`)].sort());
    expect((await pagesNamed('original-copy')).length).toBe(10);
  });

  it('list totals move with every committed write, however many run at once', async () => {
    const total = async () => (await h.t.run('pages.list', { query: { limit: '1' } })).pagination.total;
    const before = await total();
    for (let round = 1; round <= 3; round++) {
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        h.write('POST', '/api/v1/pages', { pageTypeSlug: 'landing', name: `Burst ${round}-${i}`, slug: `burst-${round}-${i}`, fields: { title: 'T' } })));
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
      expect(await total()).toBe(before + 8 * round);
    }
  });

  /**
   * A second engine on the test's PostgreSQL database, served on its own socket, as a second
   * `cms serve` process would be (each holds the keys in flight only in itself); closed after.
   */
  async function withSecondServer(use: (other: Cms, otherHttp: { url: string }) => Promise<void>): Promise<void> {
    const other = await createCms(h.t.config);
    const otherHttp = await serveOverSocket(other);
    try {
      await use(other, otherHttp);
    } finally {
      await otherHttp.close();
      await other.close();
    }
  }

  if (testDriver === 'postgres') {
    it('one Idempotency-Key, one refused request, sent to two engines at once: one answer runs, every other replays it or finds the key in use', async () => {
      await withSecondServer(async (_other, otherHttp) => {
        for (let round = 0; round < 6; round++) {
          const send = (url: string) => fetch(`${url}/api/v1/pages/missing-${round}`, {
            method: 'PUT',
            headers: { 'x-api-key': h.keys.secret, 'idempotency-key': `refused-twice-${round}`, 'content-type': 'application/json' },
            body: JSON.stringify({ fields: { title: 'Nowhere' } }),
          });
          const responses = await Promise.all(Array.from({ length: 12 }, (_, i) => send(i % 2 ? otherHttp.url : h.http.url)));
          const answers = await Promise.all(responses.map(async (r) => ({
            status: r.status, replayed: r.headers.get('idempotent-replayed') === 'true', body: (await r.json()) as any,
          })));
          // Exactly one request ran; the 404 it stored is what every other one answers, marked as a
          // replay, unless it came while the key was still held.
          const ran = answers.filter((a) => a.status === 404 && !a.replayed);
          expect(ran.length, `round ${round}: ${JSON.stringify(answers.map((a) => [a.status, a.replayed, a.body.error?.code]))}`).toBe(1);
          for (const a of answers) {
            if (a.status === 409) expect(a.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
            else expect([a.status, a.body]).toEqual([404, ran[0]!.body]);
          }
        }
      });
    });

    it('a webhook deleted while writes run does not fail them: each write is stored, and the deleted webhook gets no delivery', async () => {
      await withSecondServer(async (_other, otherHttp) => {
        for (let round = 0; round < 6; round++) {
          const [hook] = await h.t.cms.db.insert(webhooks).values({
            projectId: h.projectId, url: 'http://127.0.0.1:9/hook', events: ['page.created'], secret: 'whsec_test',
          }).returning();
          const creates = Array.from({ length: 16 }, (_, i) => fetch(`${i % 2 ? otherHttp.url : h.http.url}/api/v1/pages`, {
            method: 'POST',
            headers: { 'x-api-key': h.keys.secret, 'idempotency-key': `hook-gone-${round}-${i}`, 'content-type': 'application/json' },
            body: JSON.stringify({ pageTypeSlug: 'landing', name: `Hook gone ${round}-${i}`, slug: `hook-gone-${round}-${i}`, fields: { title: 'T' } }),
          }));
          await new Promise((resolve) => setTimeout(resolve, 3 * round));
          await h.t.run('webhooks.delete', { id: hook!.id });
          const statuses = await Promise.all(creates.map(async (pending) => {
            const r = await pending;
            return [r.status, r.status === 201 ? '' : await r.text()];
          }));
          expect(statuses, `round ${round}`).toEqual(Array(16).fill([201, '']));
          expect(await pagesNamed(`hook-gone-${round}-`)).toHaveLength(16);
          const left = await h.t.cms.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, hook!.id));
          expect(left).toEqual([]);
        }
      });
    });

    it('blog posts naming an author, category or tag deleted at the same time: each post is written or refused at its path, never a 500', async () => {
      const seen = new Set<string>();
      for (let round = 0; round < 9; round++) {
        const kind = (['categories', 'tags', 'authors'] as const)[round % 3]!;
        const author = await h.t.run('blog.authors.create', { slug: `race-author-${round}`, firstName: 'Race' });
        const category = await h.t.run('blog.categories.create', { name: `Race ${round}`, slug: `race-cat-${round}` });
        const tag = await h.t.run('blog.tags.create', { name: `Race ${round}`, slug: `race-tag-${round}` });
        const posts = Array.from({ length: 20 }, (_, i) => h.t.run('blog.posts.create', {
          title: `Race ${round} ${i}`, slug: `race-post-${round}-${i}`, author: author.slug, categories: [category.slug], tags: [tag.slug],
        }).then(() => 'written', (e) => `${e.code} at ${(e.details ?? []).map((d: { path: string }) => d.path).join(',')}`));
        await new Promise((resolve) => setTimeout(resolve, 2 * round));
        const gone = kind === 'categories' ? category : kind === 'tags' ? tag : author;
        await h.t.run(`blog.${kind}.delete`, { id: gone.id });
        const refused = `VALIDATION_FAILED at ${kind === 'categories' ? 'categories[0]' : kind === 'tags' ? 'tags[0]' : 'author'}`;
        for (const outcome of await Promise.all(posts)) {
          expect([refused, 'written'], `round ${round}`).toContain(outcome);
          seen.add(outcome);
        }
      }
      expect(seen).toContain('written');
    });

    it('a collection type deleted with force while items of it are created: the delete goes through, each create is written (and deleted with it) or refused, never a 500', async () => {
      const seen = new Set<number>();
      for (let round = 0; round < 6; round++) {
        const slug = `race-type-${round}`;
        await h.t.run('types.create', { kind: 'collections', definition: { slug, name: `Race ${round}`, fields: [{ name: 'title', type: 'text' }] } });
        const creates = Array.from({ length: 20 }, (_, i) => h.write('POST', `/api/v1/collections/${slug}`, { name: `Item ${i}`, slug: `item-${i}`, fields: { title: 'T' } }));
        await new Promise((resolve) => setTimeout(resolve, 3 * round));
        expect(await h.t.run('types.delete', { kind: 'collections', slug, force: true })).toEqual({ success: true });
        for (const r of await Promise.all(creates)) {
          const body = await r.json();
          expect([201, 404, 409], `round ${round}: ${JSON.stringify(body)}`).toContain(r.status);
          if (r.status === 409) expect(body.error.code).toBe('CONFLICT');
          seen.add(r.status);
        }
        expect((await h.t.run('types.list', { kind: 'collections' })).map((t: { slug: string }) => t.slug)).not.toContain(slug);
      }
      expect(seen).toContain(201);
    });

    it('two folders renamed onto one new name at once: one rename goes through, the other is refused as renaming onto an existing folder', async () => {
      for (let round = 0; round < 6; round++) {
        for (const folder of ['a', 'b']) {
          await h.t.run('media.upload', { data: Buffer.from(`${folder} ${round}`).toString('base64'), filename: `${folder}.txt`, folder: `race-${folder}-${round}` });
        }
        const outcomes = await Promise.all(['a', 'b'].map((folder) => h.t.run('media.renameFolder', { name: `race-${folder}-${round}`, to: `race-z-${round}` })
          .then(() => 'renamed', (e) => `${e.code} at ${(e.details ?? []).map((d: { path: string }) => d.path).join(',')}`)));
        expect(outcomes.sort(), `round ${round}`).toEqual(['VALIDATION_FAILED at to', 'renamed']);
        const folders = (await h.t.run('media.folders', {})).map((f: { name: string }) => f.name).filter((n: string) => n.endsWith(`-${round}`));
        expect(folders.length, JSON.stringify(folders)).toBe(2);
        expect(folders).toContain(`race-z-${round}`);
      }
    });

    it('files moved into a folder while it is renamed: every file ends in a folder the folder list shows', async () => {
      const upload = (name: string, folder: string | null) => h.t.run('media.upload', { data: Buffer.from(name).toString('base64'), filename: `${name}.txt`, ...(folder ? { folder } : {}) });
      for (let round = 0; round < 8; round++) {
        await upload(`in-x-${round}`, `move-x-${round}`);
        const loose = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(`loose-${round}-${i}`, null)));
        await Promise.all([
          h.t.run('media.renameFolder', { name: `move-x-${round}`, to: `move-y-${round}` }),
          ...loose.map((m: { id: string }) => h.t.run('media.move', { id: m.id, folder: `move-x-${round}` })),
        ]);
        const listed = new Set((await h.t.run('media.folders', {})).map((f: { name: string }) => f.name));
        const used = await h.t.cms.db.selectDistinct({ folder: media.folder }).from(media).where(like(media.folder, `move-%-${round}`));
        for (const { folder } of used) expect(listed, `round ${round}: files in ${folder}`).toContain(folder);
      }
    });

    it('writes committed by another engine at once each move the revision this engine reads (no NOTIFY awaited)', async () => {
      await withSecondServer(async (_other, otherHttp) => {
        const total = async () => (await h.t.run('pages.list', { query: { limit: '1' } })).pagination.total;
        const before = await total();
        for (let round = 1; round <= 3; round++) {
          const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => fetch(`${otherHttp.url}/api/v1/pages`, {
            method: 'POST',
            headers: { 'x-api-key': h.keys.secret, 'idempotency-key': `other-burst-${round}-${i}`, 'content-type': 'application/json' },
            body: JSON.stringify({ pageTypeSlug: 'landing', name: `Other ${round}-${i}`, slug: `other-burst-${round}-${i}`, fields: { title: 'T' } }),
          })));
          expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
          expect(await total()).toBe(before + 8 * round);
        }
      });
    });

    it('a locale added through one engine is known to the other one, which has been writing pages meanwhile', async () => {
      await withSecondServer(async (other, otherHttp) => {
        const create = (slug: string, extra: object = {}) => fetch(`${otherHttp.url}/api/v1/pages`, {
          method: 'POST',
          headers: { 'x-api-key': h.keys.secret, 'idempotency-key': `locale-notice-${slug}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pageTypeSlug: 'landing', name: slug, slug, fields: { title: 'T' }, ...extra }),
        });
        try {
          // The other engine knows the project (its writes keep it), with one locale.
          for (const slug of ['before-1', 'before-2']) expect((await create(slug)).status).toBe(201);
          const refused = await create('before-fr', { locale: 'fr' });
          expect(refused.status).toBe(400);
          const heard = new Promise<void>((resolve) => other.events.once('content-changed', () => resolve()));
          await h.t.run('locales.add', { code: 'fr', name: 'Français' });
          await heard;
          const created = await create('after-fr', { locale: 'fr' });
          expect(created.status, JSON.stringify(await created.clone().json())).toBe(201);
        } finally {
          await h.t.run('locales.remove', { code: 'fr' }).catch(() => {});
        }
      });
    });

    it('one Idempotency-Key sent to two engines on the same database at once creates one page', async () => {
      await withSecondServer(async (_other, otherHttp) => {
        const body = JSON.stringify({ pageTypeSlug: 'landing', name: 'Two engines', slug: 'two-engines', fields: { title: 'T' } });
        const send = (url: string) => fetch(`${url}/api/v1/pages`, {
          method: 'POST',
          headers: { 'x-api-key': h.keys.secret, 'idempotency-key': 'two-engines-key', 'content-type': 'application/json' },
          body,
        }) as Promise<JsonResponse>;
        const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => send(i % 2 ? otherHttp.url : h.http.url)));
        await expectOneCreated(responses, 'two-engines');
      });
    });
  }
});
