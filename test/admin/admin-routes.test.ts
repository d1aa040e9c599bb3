import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminHarness, type AdminHarness } from './support.js';

const article = {
  slug: 'article',
  name: 'Article',
  fields: [{ name: 'title', label: 'Title', type: 'text', required: true }],
};

describe('admin routes: members, keys, schema, projects', () => {
  let h: AdminHarness;
  let owner: { id: string; email: string };
  let cookie: string;
  beforeAll(async () => {
    h = await createAdminHarness();
    owner = await h.createUser('owner', { email: 'owner@example.test' });
    cookie = await h.signIn(owner.email);
  });
  afterAll(async () => { await h.close(); });

  describe('registry lists answer as every list does: { data, pagination }, page and limit 1–100 (default 20)', () => {
    it('webhooks, keys, members, page types, collection types, components, migrations and media folders', async () => {
      for (let i = 1; i <= 3; i++) {
        expect((await h.call('POST', '/api/v1/admin/webhooks', { cookie, body: { url: `http://127.0.0.1:9/hook-${i}`, events: ['page.created'] } })).status).toBe(201);
        expect((await h.call('POST', '/api/v1/admin/keys', { cookie, body: { type: 'public', name: `key ${i}` } })).status).toBe(201);
      }
      const firstTwo = await (await h.call('GET', '/api/v1/admin/webhooks?limit=2', { cookie })).json();
      expect(firstTwo.data).toHaveLength(2);
      expect(firstTwo.pagination).toEqual({ total: 3, page: 1, limit: 2, totalPages: 2 });
      const rest = await (await h.call('GET', '/api/v1/admin/webhooks?limit=2&page=2', { cookie })).json();
      expect(rest.data).toHaveLength(1);
      expect(rest.pagination).toEqual({ total: 3, page: 2, limit: 2, totalPages: 2 });
      expect(new Set([...firstTwo.data, ...rest.data].map((w: { id: string }) => w.id)).size).toBe(3);
      const keys = await (await h.call('GET', '/api/v1/admin/keys?limit=1&page=3', { cookie })).json();
      expect(keys.data).toHaveLength(1);
      expect(keys.pagination).toMatchObject({ page: 3, limit: 1 });
      for (const path of ['/api/v1/admin/webhooks', '/api/v1/admin/keys', '/api/v1/admin/members', '/api/v1/admin/page-types', '/api/v1/admin/collection-types',
        '/api/v1/admin/components', '/api/v1/admin/migrations', '/api/v1/admin/media/folders']) {
        const all = await h.call('GET', path, { cookie });
        expect(all.status, path).toBe(200);
        const body = await all.json();
        expect(Array.isArray(body.data), path).toBe(true);
        expect(body.pagination, path).toEqual({ total: body.data.length, page: 1, limit: 20, totalPages: Math.ceil(body.data.length / 20) });
        for (const bad of ['limit=0', 'limit=101', 'limit=abc', 'page=0', 'page=-1']) {
          const refused = await h.call('GET', `${path}?${bad}`, { cookie });
          expect(refused.status, `${path}?${bad}`).toBe(400);
          expect((await refused.json()).error, `${path}?${bad}`).toMatchObject({ code: 'INVALID_QUERY', details: { parameter: bad.split('=')[0] } });
        }
      }
    });
  });

  describe('members', () => {
    it('adds an existing user by email, changes the role, lists and removes', async () => {
      // A user of another project, added here by email.
      await h.t.run('projects.create', { slug: 'other' });
      const user = await h.createUser('viewer', { email: 'mia@example.test', project: 'other' });

      const added = await h.call('POST', '/api/v1/admin/members', { cookie, body: { email: 'MIA@example.test', role: 'editor' } });
      expect(added.status).toBe(201);
      expect((await added.json()).data).toMatchObject({ id: user.id, email: 'mia@example.test', role: 'editor' });

      const again = await h.call('POST', '/api/v1/admin/members', { cookie, body: { email: 'mia@example.test', role: 'editor' } });
      expect(again.status).toBe(409);

      const changed = await h.call('PUT', `/api/v1/admin/members/${user.id}`, { cookie, body: { role: 'developer' } });
      expect(changed.status).toBe(200);
      expect((await changed.json()).data).toMatchObject({ id: user.id, role: 'developer' });

      const list = await (await h.call('GET', '/api/v1/admin/members', { cookie })).json();
      expect(list.data.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
        ['mia@example.test', 'developer'], ['owner@example.test', 'owner'],
      ]);

      const removed = await h.call('DELETE', `/api/v1/admin/members/${user.id}`, { cookie });
      expect(removed.status).toBe(200);
      expect(await removed.json()).toEqual({ success: true });
      const after = await (await h.call('GET', '/api/v1/admin/members', { cookie })).json();
      expect(after.data.map((m: { email: string }) => m.email)).toEqual(['owner@example.test']);
      expect((await h.call('DELETE', `/api/v1/admin/members/${user.id}`, { cookie })).status).toBe(404);
    });

    it('names the members to any member (the user reference picker), without their roles; the full list stays an admin\'s', async () => {
      const writer = await h.createUser('editor', { email: 'writer@example.test' });
      const writerCookie = await h.signIn(writer.email);
      const directory = await h.call('GET', '/api/v1/admin/members/directory', { cookie: writerCookie });
      expect(directory.status).toBe(200);
      const names = (await directory.json()).data as Array<Record<string, unknown>>;
      expect(names.map((m) => m.email)).toEqual(expect.arrayContaining(['owner@example.test', 'writer@example.test']));
      for (const m of names) expect(Object.keys(m).sort()).toEqual(['email', 'id', 'name']);
      expect((await h.call('GET', '/api/v1/admin/members', { cookie: writerCookie })).status).toBe(403);
      expect((await h.call('GET', '/api/v1/admin/members/directory', {})).status).toBe(401);
      await h.call('DELETE', `/api/v1/admin/members/${writer.id}`, { cookie, body: {} });
    });

    it('refuses to add an email with no user, and an unknown role', async () => {
      const none = await h.call('POST', '/api/v1/admin/members', { cookie, body: { email: 'nobody@example.test', role: 'editor' } });
      expect(none.status).toBe(404);
      const badRole = await h.call('POST', '/api/v1/admin/members', { cookie, body: { email: 'owner@example.test', role: 'king' } });
      expect(badRole.status).toBe(400);
      expect((await badRole.json()).error.code).toBe('VALIDATION_FAILED');
    });

    it('keeps the last owner', async () => {
      const demote = await h.call('PUT', `/api/v1/admin/members/${owner.id}`, { cookie, body: { role: 'admin' } });
      expect(demote.status).toBe(409);
      const remove = await h.call('DELETE', `/api/v1/admin/members/${owner.id}`, { cookie });
      expect(remove.status).toBe(409);
      expect((await remove.json()).error.message).toMatch(/last owner/);
    });

    it('keeps the last owner when two owners remove or demote each other at once', async () => {
      for (const [round, method] of [[1, 'DELETE'], [2, 'PUT'], [3, 'DELETE'], [4, 'PUT']] as const) {
        const project = `owners-${round}`;
        await h.t.run('projects.create', { slug: project });
        const a = await h.createUser('owner', { project });
        const b = await h.createUser('owner', { project });
        const [ca, cb] = [await h.signIn(a.email), await h.signIn(b.email)];
        const body = method === 'PUT' ? { body: { role: 'admin' } } : {};
        const answers = await Promise.all([
          h.call(method, `/api/v1/admin/members/${b.id}`, { cookie: ca, project, ...body }),
          h.call(method, `/api/v1/admin/members/${a.id}`, { cookie: cb, project, ...body }),
        ]);
        // One goes through; the other is told it would take the last owner (409), or that its
        // sender is no longer an owner (403), depending on which reads first.
        expect(answers.filter((r) => r.status === 200), `${method} ${round}`).toHaveLength(1);
        const members = await h.t.cms.run('members.list', {}, { actor: { kind: 'terminal' }, project });
        expect(members.filter((m: { role: string }) => m.role === 'owner'), `${method} ${round}`).toHaveLength(1);
      }
    });

    it('lets only an owner make an owner', async () => {
      const admin = await h.createUser('admin');
      const adminCookie = await h.signIn(admin.email);
      const target = await h.createUser('viewer');
      const res = await h.call('PUT', `/api/v1/admin/members/${target.id}`, { cookie: adminCookie, body: { role: 'owner' } });
      expect(res.status).toBe(403);
      const ok = await h.call('PUT', `/api/v1/admin/members/${target.id}`, { cookie: adminCookie, body: { role: 'developer' } });
      expect(ok.status).toBe(200);
    });
  });

  describe('keys', () => {
    it('creates a key shown once, lists it without the key, and revokes it', async () => {
      const created = await h.call('POST', '/api/v1/admin/keys', { cookie, body: { type: 'secret', name: 'CI', permissions: ['content:write'] } });
      expect(created.status).toBe(201);
      const { data: key } = await created.json();
      expect(key).toMatchObject({ type: 'secret', name: 'CI', permissions: ['content:write'] });
      expect(key.key).toMatch(/^svc_sk_/);

      const list = await (await h.call('GET', '/api/v1/admin/keys', { cookie })).json();
      expect(list.data.map((k: { id: string }) => k.id)).toContain(key.id);
      expect(JSON.stringify(list)).not.toContain(key.key);

      const revoked = await h.call('DELETE', `/api/v1/admin/keys/${key.id}`, { cookie });
      expect(revoked.status).toBe(200);
      expect((await revoked.json()).data.revokedAt).toBe(h.clock.now().toISOString());
      const active = await (await h.call('GET', '/api/v1/admin/keys', { cookie })).json();
      expect(active.data.map((k: { id: string }) => k.id)).not.toContain(key.id);
      const all = await (await h.call('GET', '/api/v1/admin/keys?includeRevoked=true', { cookie })).json();
      expect(all.data.map((k: { id: string }) => k.id)).toContain(key.id);
      expect((await h.call('DELETE', `/api/v1/admin/keys/${key.id}`, { cookie })).status).toBe(404);
    });

    it('validates the key body', async () => {
      const res = await h.call('POST', '/api/v1/admin/keys', { cookie, body: { type: 'public', permissions: ['content:write'] } });
      expect(res.status).toBe(400);
    });
  });

  describe('schema administration', () => {
    const kinds = [
      ['page-types', 'article'],
      ['collection-types', 'author'],
      ['components', 'hero-banner'],
    ] as const;

    for (const [path, slug] of kinds) {
      it(`creates, reads, updates, lists and deletes under /admin/${path}`, async () => {
        const base = `/api/v1/admin/${path}`;
        const created = await h.call('POST', base, { cookie, body: { ...article, slug } });
        expect(created.status).toBe(201);
        expect((await created.json()).data).toMatchObject({ slug, name: 'Article', fields: [{ name: 'title', type: 'text' }] });

        expect((await h.call('POST', base, { cookie, body: { ...article, slug } })).status).toBe(409);

        const got = await h.call('GET', `${base}/${slug}`, { cookie });
        expect(got.status).toBe(200);
        expect((await got.json()).data.slug).toBe(slug);

        const updated = await h.call('PUT', `${base}/${slug}`, { cookie, body: { name: 'Renamed', fields: article.fields } });
        expect(updated.status).toBe(200);
        expect((await updated.json()).data).toMatchObject({ slug, name: 'Renamed' });

        const list = await (await h.call('GET', base, { cookie })).json();
        expect(list.data.map((d: { slug: string }) => d.slug)).toEqual([slug]);

        const removed = await h.call('DELETE', `${base}/${slug}`, { cookie });
        expect(removed.status).toBe(200);
        expect(await removed.json()).toEqual({ success: true });
        expect((await h.call('GET', `${base}/${slug}`, { cookie })).status).toBe(404);
      });
    }

    it('takes a select without choices (any text), refuses an empty choice list with the other problems, on create and update, for every kind', async () => {
      const bad = {
        slug: 'team',
        name: 'Team',
        fields: [
          { name: 'title', label: 'Title', type: 'text' },
          { name: 'bad-name', label: 'x', type: 'text' },
          { name: 'role', label: 'Role', type: 'select' },
          { name: 'people', label: 'People', type: 'repeater', options: { fields: [{ name: 'level', label: 'Level', type: 'select', options: { choices: [] } }] } },
        ],
      };
      const expectRefused = async (res: { status: number; json(): Promise<any> }) => {
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.error.code).toBe('VALIDATION_FAILED');
        expect(body.error.details.map((d: { path: string }) => d.path)).toEqual(['fields[1].name', 'fields[3].options.fields[0].options.choices']);
        expect(body.error.message).toContain('fields[3].options.fields[0].options.choices: must not be empty');
      };
      for (const [path] of kinds) {
        const base = `/api/v1/admin/${path}`;
        await expectRefused(await h.call('POST', base, { cookie, body: bad }));
        expect((await h.call('GET', `${base}/team`, { cookie })).status).toBe(404);
        const ok = await h.call('POST', base, { cookie, body: { ...article, slug: 'team' } });
        expect(ok.status).toBe(201);
        await expectRefused(await h.call('PUT', `${base}/team`, { cookie, body: { name: 'Team', fields: bad.fields } }));
        const kept = await (await h.call('GET', `${base}/team`, { cookie })).json();
        expect(kept.data.fields).toEqual(article.fields);
        const free = await h.call('PUT', `${base}/team`, { cookie, body: { fields: [{ name: 'role', label: 'Role', type: 'select' }] } });
        expect(free.status).toBe(200);
        expect((await (await h.call('GET', `${base}/team`, { cookie })).json()).data.fields).toEqual([{ name: 'role', label: 'Role', type: 'select' }]);
        expect((await h.call('DELETE', `${base}/team`, { cookie })).status).toBe(200);
      }
    });

    it('reports every schema problem at once', async () => {
      const res = await h.call('POST', '/api/v1/admin/page-types', {
        cookie, body: { slug: 'Bad Slug', name: 'x', fields: [{ name: '1st', label: 'x', type: 'nope' }] },
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.details.length).toBeGreaterThan(1);
    });

    it('keeps a component that is in use unless force=true', async () => {
      await h.call('POST', '/api/v1/admin/components', { cookie, body: { ...article, slug: 'quote' } });
      const page = await h.call('POST', '/api/v1/admin/page-types', {
        cookie,
        body: { slug: 'landing', name: 'Landing', fields: [{ name: 'q', label: 'Q', type: 'nestedComponent', options: { componentSlug: 'quote' } }] },
      });
      expect(page.status).toBe(201);
      const refused = await h.call('DELETE', '/api/v1/admin/components/quote', { cookie });
      expect(refused.status).toBe(409);
      expect((await refused.json()).error.code).toBe('HAS_REFERENCES');
      // Force is for content: types that name it are changed first, so the schemas stay valid.
      const forced = await h.call('DELETE', '/api/v1/admin/components/quote?force=true', { cookie });
      expect(forced.status).toBe(409);
      expect((await forced.json()).error).toMatchObject({ code: 'HAS_REFERENCES', details: { usedBy: [{ kind: 'pageTypes', slug: 'landing', path: 'fields[0].options.componentSlug' }] } });
      const changed = await h.call('PUT', '/api/v1/admin/page-types/landing', { cookie, body: { fields: [{ name: 'title', type: 'text' }] } });
      expect(changed.status).toBe(200);
      expect((await h.call('DELETE', '/api/v1/admin/components/quote', { cookie })).status).toBe(200);
      // Gone: named in quotes, as every other "not found" names a slug.
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const gone = await h.call(method, '/api/v1/admin/components/quote', { cookie, ...(method === 'PUT' ? { body: { fields: [] } } : {}) });
        expect(gone.status, method).toBe(404);
        expect((await gone.json()).error, method).toEqual({ code: 'NOT_FOUND', message: 'Component "quote" not found' });
      }
    });

    it('keeps a collection or page type that other types name, force or not', async () => {
      await h.call('POST', '/api/v1/admin/collection-types', { cookie, body: { slug: 'tgt', name: 'Target', fields: [{ name: 'title', type: 'text' }] } });
      await h.call('POST', '/api/v1/admin/page-types', { cookie, body: { slug: 'ptgt', name: 'Page target', fields: [{ name: 'title', type: 'text' }] } });
      const src = await h.call('POST', '/api/v1/admin/collection-types', {
        cookie,
        body: { slug: 'src', name: 'Source', fields: [
          { name: 'r', type: 'reference', options: { collectionType: 'tgt' } },
          { name: 'p', type: 'reference', options: { referenceType: 'page', pageType: 'ptgt' } },
        ] },
      });
      expect(src.status).toBe(201);
      for (const path of ['/api/v1/admin/collection-types/tgt', '/api/v1/admin/page-types/ptgt?force=true']) {
        const refused = await h.call('DELETE', path, { cookie });
        expect(refused.status, path).toBe(409);
        expect((await refused.json()).error).toMatchObject({ code: 'HAS_REFERENCES', message: expect.stringContaining('collections/src') });
      }
      expect((await h.call('DELETE', '/api/v1/admin/collection-types/src', { cookie })).status).toBe(200);
      expect((await h.call('DELETE', '/api/v1/admin/collection-types/tgt', { cookie })).status).toBe(200);
      expect((await h.call('DELETE', '/api/v1/admin/page-types/ptgt', { cookie })).status).toBe(200);
    });
  });

  describe('projects', () => {
    it('lists the signed-in user\'s projects with their roles, without X-Project', async () => {
      await h.t.run('projects.create', { slug: 'shop' });
      const user = await h.createUser('editor');
      await h.t.cms.run('members.add', { email: user.email, role: 'viewer' }, { actor: { kind: 'terminal' }, project: 'shop' });
      const c = await h.signIn(user.email);
      const res = await h.call('GET', '/api/v1/admin/projects', { cookie: c });
      expect(res.status).toBe(200);
      expect((await res.json()).data.map((p: { slug: string; role: string }) => [p.slug, p.role])).toEqual([['default', 'editor'], ['shop', 'viewer']]);
      expect((await h.call('GET', '/api/v1/admin/projects')).status).toBe(401);
    });
  });
});

describe('project selection with X-Project', () => {
  let h: AdminHarness;
  let cookie: string;
  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('projects.create', { slug: 'blog' });
    await h.t.run('projects.create', { slug: 'elsewhere' });
    const user = await h.createUser('admin', { email: 'two@example.test' });
    await h.t.cms.run('members.add', { email: user.email, role: 'viewer' }, { actor: { kind: 'terminal' }, project: 'blog' });
    cookie = await h.signIn(user.email);
  });
  afterAll(async () => { await h.close(); });

  it('asks a member of several projects to name one', async () => {
    const res = await h.call('GET', '/api/v1/admin/page-types', { cookie });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/X-Project/);
  });

  it('uses the role of the project named', async () => {
    expect((await h.call('GET', '/api/v1/admin/keys', { cookie, project: 'default' })).status).toBe(200);
    // Viewer in "blog": reading schema is fine, keys are not.
    expect((await h.call('GET', '/api/v1/admin/page-types', { cookie, project: 'blog' })).status).toBe(200);
    expect((await h.call('GET', '/api/v1/admin/keys', { cookie, project: 'blog' })).status).toBe(403);
  });

  it('keeps the projects apart', async () => {
    const created = await h.call('POST', '/api/v1/admin/keys', { cookie, project: 'default', body: { type: 'public' } });
    expect(created.status).toBe(201);
    const fromDefault = await (await h.call('GET', '/api/v1/admin/members', { cookie, project: 'default' })).json();
    expect(fromDefault.data).toHaveLength(1);
    const schemaInBlog = await (await h.call('GET', '/api/v1/admin/page-types', { cookie, project: 'blog' })).json();
    expect(schemaInBlog.data).toEqual([]);
  });

  it('refuses a project the user is not a member of, and an unknown one', async () => {
    const other = await h.call('GET', '/api/v1/admin/page-types', { cookie, project: 'elsewhere' });
    expect(other.status).toBe(403);
    expect((await other.json()).error.message).toMatch(/not a member/);
    expect((await h.call('GET', '/api/v1/admin/page-types', { cookie, project: 'nope' })).status).toBe(404);
  });

  it('needs no project for sign-in status', async () => {
    const me = await (await h.call('GET', '/api/v1/admin/auth/me', { cookie })).json();
    expect(me.data.memberships.map((m: { project: { slug: string }; role: string }) => [m.project.slug, m.role]))
      .toEqual([['blog', 'viewer'], ['default', 'admin']]);
  });
});

describe('CSRF on cookie-authenticated writes', () => {
  let h: AdminHarness;
  let cookie: string;
  beforeAll(async () => {
    h = await createAdminHarness();
    const owner = await h.createUser('owner');
    cookie = await h.signIn(owner.email);
  });
  afterAll(async () => { await h.close(); });

  const form = 'type=public';

  it('refuses a form-encoded write with the cookie and no Origin', async () => {
    const res = await h.call('POST', '/api/v1/admin/keys', { cookie, body: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(403);
    const body = await res.json();
    expect(body.error.code).toBe('FORBIDDEN');
    expect(body.error.message).toMatch(/application\/json.*Origin/);
  });

  it('refuses a text/plain body that happens to be JSON, and a foreign Origin', async () => {
    const plain = await h.call('POST', '/api/v1/admin/keys', { cookie, body: { type: 'public' }, headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(403);
    const foreign = await h.call('DELETE', '/api/v1/admin/members/00000000-0000-4000-8000-000000000000', {
      cookie, headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    // Nothing was written.
    const keys = await (await h.call('GET', '/api/v1/admin/keys', { cookie })).json();
    expect(keys.data).toEqual([]);
  });

  it('accepts the JSON content type', async () => {
    const res = await h.call('POST', '/api/v1/admin/keys', { cookie, body: { type: 'public' }, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(res.status).toBe(201);
  });

  it('accepts another content type with the base URL as Origin', async () => {
    const res = await h.call('POST', '/api/v1/admin/keys', {
      cookie, body: JSON.stringify({ type: 'public' }), headers: { 'content-type': 'text/plain', origin: h.t.config.baseUrl },
    });
    expect(res.status).toBe(201);
  });

  it('refuses a logout form from another site', async () => {
    const res = await h.call('POST', '/api/v1/admin/auth/logout', { cookie, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(403);
    expect((await h.call('GET', '/api/v1/admin/auth/me', { cookie })).status).toBe(200);
  });

  it('lets reads through without either', async () => {
    expect((await h.call('GET', '/api/v1/admin/keys', { cookie })).status).toBe(200);
  });
});
