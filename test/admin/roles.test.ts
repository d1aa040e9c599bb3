import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles, type Role } from '../../src/core/roles.js';
import { migrationRoutes } from '../../src/http/routes/migrations.js';
import { webhookRoutes } from '../../src/http/routes/webhooks.js';
import { schema } from './content-support.js';
import { createAdminHarness, type AdminHarness } from './support.js';

interface Probe {
  /** The class of route: which role it needs. */
  class: string;
  needs: Role;
  method: string;
  path: string;
  body?: (role: Role) => unknown;
}

const typeDef = (slug: string) => ({ slug, name: slug, fields: [{ name: 'title', label: 'Title', type: 'text' }] });

const missing = '00000000-0000-4000-8000-000000000000';
const has = (routes: Array<{ method: string; path: string }>, method: string, path: string) =>
  routes.some((r) => r.method === method && r.path === path);

/** One or more routes per class; every role is tried against every one. */
const probes: Probe[] = [
  { class: 'content read', needs: 'viewer', method: 'GET', path: '/api/v1/admin/pages' },
  { class: 'content read', needs: 'viewer', method: 'GET', path: '/api/v1/admin/collection-items?collection=authors' },
  { class: 'content read', needs: 'viewer', method: 'GET', path: `/api/v1/admin/pages/${missing}/versions` },
  { class: 'content read', needs: 'viewer', method: 'GET', path: '/api/v1/admin/media' },
  { class: 'content write', needs: 'editor', method: 'POST', path: '/api/v1/admin/pages', body: (r) => ({ pageTypeSlug: 'article', name: r, slug: `page-${r}` }) },
  { class: 'content write', needs: 'editor', method: 'POST', path: '/api/v1/admin/collection-items', body: (r) => ({ collectionTypeSlug: 'authors', name: r, slug: `item-${r}` }) },
  { class: 'content write', needs: 'editor', method: 'POST', path: '/api/v1/admin/pages/bulk-publish', body: () => ({ ids: [missing] }) },
  { class: 'content write', needs: 'editor', method: 'POST', path: `/api/v1/admin/pages/${missing}/clone`, body: () => ({}) },
  { class: 'content write', needs: 'editor', method: 'POST', path: `/api/v1/admin/collection-items/${missing}/schedule`, body: () => ({ publishAt: '2030-01-01T00:00:00Z' }) },
  { class: 'content write', needs: 'editor', method: 'PUT', path: `/api/v1/admin/media/${missing}`, body: () => ({ altText: 'x' }) },
  // Webhooks and migrations join the matrix as their routes exist.
  ...(has(webhookRoutes, 'GET', '/api/v1/admin/webhooks')
    ? [{ class: 'webhooks', needs: 'developer', method: 'GET', path: '/api/v1/admin/webhooks' } as Probe] : []),
  ...(has(webhookRoutes, 'POST', '/api/v1/admin/webhooks')
    ? [{ class: 'webhooks', needs: 'developer', method: 'POST', path: '/api/v1/admin/webhooks', body: () => ({ url: 'http://127.0.0.1:9/hook', events: ['page.created'] }) } as Probe] : []),
  ...(has(migrationRoutes, 'GET', '/api/v1/admin/migrations')
    ? [{ class: 'migrations', needs: 'developer', method: 'GET', path: '/api/v1/admin/migrations' } as Probe] : []),
  { class: 'schema read', needs: 'viewer', method: 'GET', path: '/api/v1/admin/page-types' },
  { class: 'schema read', needs: 'viewer', method: 'GET', path: '/api/v1/admin/components' },
  { class: 'schema', needs: 'developer', method: 'POST', path: '/api/v1/admin/page-types', body: (r) => typeDef(`type-${r}`) },
  { class: 'schema', needs: 'developer', method: 'POST', path: '/api/v1/admin/collection-types', body: (r) => typeDef(`list-${r}`) },
  { class: 'schema', needs: 'developer', method: 'PUT', path: '/api/v1/admin/components/shared', body: () => typeDef('shared') },
  { class: 'keys', needs: 'admin', method: 'GET', path: '/api/v1/admin/keys' },
  { class: 'keys', needs: 'admin', method: 'POST', path: '/api/v1/admin/keys', body: () => ({ type: 'public' }) },
  { class: 'members', needs: 'admin', method: 'GET', path: '/api/v1/admin/members' },
  { class: 'members', needs: 'admin', method: 'POST', path: '/api/v1/admin/members', body: () => ({ email: 'nobody@example.test', role: 'viewer' }) },
];

const allowed = (role: Role, needs: Role) => roles.indexOf(role) >= roles.indexOf(needs);

describe('role matrix', () => {
  let h: AdminHarness;
  const cookies = new Map<Role, string>();
  beforeAll(async () => {
    h = await createAdminHarness();
    await h.t.run('schema.push', schema);
    await h.t.run('types.create', { kind: 'components', definition: typeDef('shared') });
    for (const role of roles) {
      const user = await h.createUser(role);
      cookies.set(role, await h.signIn(user.email));
    }
  });
  afterAll(async () => { await h.close(); });

  for (const probe of probes) {
    for (const role of roles) {
      const ok = allowed(role, probe.needs);
      it(`${probe.class}: ${role} ${ok ? 'may' : 'may not'} ${probe.method} ${probe.path}`, async () => {
        const res = await h.call(probe.method, probe.path, { cookie: cookies.get(role)!, ...(probe.body ? { body: probe.body(role) } : {}) });
        const body = await res.json();
        if (ok) {
          // Allowed: the operation ran (probes naming nothing that exists answer 404).
          expect([200, 201, 404]).toContain(res.status);
          expect(body.error?.code).not.toBe('FORBIDDEN');
        } else {
          expect(res.status).toBe(403);
          expect(body.error.code).toBe('FORBIDDEN');
          expect(body.error.message).toContain(`needs the ${probe.needs} role`);
        }
      });
    }
  }

  it('answers 401 to every probe without a session', async () => {
    for (const probe of probes) {
      const res = await h.call(probe.method, probe.path, probe.body ? { body: probe.body('viewer') } : {});
      expect(res.status, `${probe.method} ${probe.path}`).toBe(401);
    }
  });
});
