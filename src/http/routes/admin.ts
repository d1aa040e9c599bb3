import type { Actor } from '../../core/actor.js';
import { roles, type Role } from '../../core/roles.js';
import { typeDefinitionJsonSchema } from '../../core/schema/index.js';
import type { TypeKind } from '../../core/types/operations.js';
import { bodyObject, opRoute, pagedOpRoute, type RequestContext, type RouteDef } from '../route.js';
import { readSessionUser } from '../auth.js';
import { json } from '../response.js';

const admin = '/api/v1/admin';
/** A type's definition, as `schema push` validates it (the same zod schema, as JSON Schema). */
const definitionSchema = { name: 'TypeDefinition', schema: typeDefinitionJsonSchema };
const flag = (rc: RequestContext, name: string) => rc.query.get(name) === 'true';

/** Schema administration for signed-in members: the operations behind `cms schema`, one kind per path. */
function typeRoutes(path: string, kind: TypeKind): RouteDef[] {
  const base = `${admin}/${path}`;
  return [
    pagedOpRoute(base, 'session', 'types.list', () => ({ kind })),
    opRoute('POST', base, 'session', 'types.create', async (rc) => ({ kind, definition: await rc.body() }), { status: 201, body: 'definition', bodySchema: definitionSchema }),
    opRoute('GET', `${base}/:slug`, 'session', 'types.get', (rc) => ({ kind, slug: rc.params.slug })),
    opRoute('PUT', `${base}/:slug`, 'session', 'types.update', async (rc) => ({ kind, slug: rc.params.slug, definition: await rc.body() }), { body: 'definition', bodySchema: definitionSchema }),
    opRoute('DELETE', `${base}/:slug`, 'session', 'types.delete', (rc) => ({ kind, slug: rc.params.slug, force: flag(rc, 'force') }),
      { wrap: (r) => r }),
  ];
}

const highest = (list: Role[]): Role | null =>
  list.reduce<Role | null>((best, r) => (best === null || roles.indexOf(r) > roles.indexOf(best) ? r : best), null);

export const adminRoutes: RouteDef[] = [
  // Members (admin and above; the last owner stays).
  pagedOpRoute(`${admin}/members`, 'session', 'members.list', () => ({})),
  opRoute('GET', `${admin}/members/directory`, 'session', 'members.directory', () => ({})),
  opRoute('POST', `${admin}/members`, 'session', 'members.add', async (rc) => {
    const b = await bodyObject(rc);
    return { email: b.email, role: b.role };
  }, { status: 201 }),
  opRoute('PUT', `${admin}/members/:userId`, 'session', 'members.update', async (rc) => ({ userId: rc.params.userId, role: (await bodyObject(rc)).role })),
  opRoute('DELETE', `${admin}/members/:userId`, 'session', 'members.remove', (rc) => ({ userId: rc.params.userId }), { wrap: (r) => r }),

  // API keys (admin and above): the whole key is in the create answer only.
  pagedOpRoute(`${admin}/keys`, 'session', 'keys.list', (rc) => ({ includeRevoked: flag(rc, 'includeRevoked') })),
  opRoute('POST', `${admin}/keys`, 'session', 'keys.create', (rc) => rc.body(), { status: 201 }),
  opRoute('DELETE', `${admin}/keys/:id`, 'session', 'keys.revoke', (rc) => ({ id: rc.params.id })),

  // Locales (admin and above change them; every member reads them).
  opRoute('GET', `${admin}/settings`, 'session', 'settings.get', () => ({})),
  opRoute('GET', `${admin}/locales`, 'session', 'locales.list', () => ({})),
  opRoute('POST', `${admin}/locales`, 'session', 'locales.add', (rc) => bodyObject(rc), { status: 201 }),
  opRoute('PUT', `${admin}/locales/:code`, 'session', 'locales.update', async (rc) => ({ ...(await bodyObject(rc)), code: rc.params.code })),
  opRoute('DELETE', `${admin}/locales/:code`, 'session', 'locales.remove', (rc) => ({ code: rc.params.code })),
  opRoute('POST', `${admin}/locales/:code/default`, 'session', 'locales.setDefault', (rc) => ({ code: rc.params.code })),

  ...typeRoutes('page-types', 'pageTypes'),
  ...typeRoutes('collection-types', 'collections'),
  ...typeRoutes('components', 'components'),
  {
    // `cms types` over HTTP: the project's TypeScript declarations as a file (docs/client.md).
    method: 'GET', path: `${admin}/types.ts`, auth: 'session',
    async handle(rc) {
      const { text } = await rc.run('schema.typescript', {});
      return new Response(text, { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-disposition': 'inline; filename="cms-types.ts"' } });
    },
  },

  {
    // The user's projects: needed before a project is chosen, so no X-Project is required here.
    method: 'GET', path: `${admin}/projects`, auth: 'none', doc: { session: true },
    async handle(rc) {
      const user = await readSessionUser(rc.cms, rc.headers);
      if (user.memberships.length === 0) return json({ data: [] });
      const actor: Actor = { kind: 'user', userId: user.userId, email: user.email, role: highest(user.memberships.map((m) => m.role)) };
      return json({ data: await rc.cms.run('projects.list', {}, { actor }) });
    },
  },
];
