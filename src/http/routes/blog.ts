import type { OperationName } from '../../core/registry.js';
import { bodyObject, opRoute, type RequestContext, type RouteDef } from '../route.js';
import { readRoute } from './read-route.js';

const queryObject = (rc: RequestContext, names: string[]) => {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = rc.query.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
};

const admin = '/api/v1/admin/blog';
const asIs = { wrap: (r: unknown) => r };
const deleted = { wrap: (r: unknown) => ({ success: true, data: r }) };

type CrudVerb = 'list' | 'create' | 'get' | 'update' | 'delete';

/** The operations behind each taxonomy's admin paths, by verb (written out, so each name can be found). */
const taxonomyOperations = {
  authors: { list: 'blog.authors.list', create: 'blog.authors.create', get: 'blog.authors.get', update: 'blog.authors.update', delete: 'blog.authors.delete' },
  categories: { list: 'blog.categories.list', create: 'blog.categories.create', get: 'blog.categories.get', update: 'blog.categories.update', delete: 'blog.categories.delete' },
  tags: { list: 'blog.tags.list', create: 'blog.tags.create', get: 'blog.tags.get', update: 'blog.tags.update', delete: 'blog.tags.delete' },
} as const satisfies Record<string, Record<CrudVerb, OperationName>>;

/** CRUD under /api/v1/admin/blog/<plural> for authors, categories and tags. */
function adminCrud(plural: keyof typeof taxonomyOperations): RouteDef[] {
  const base = `${admin}/${plural}`;
  const op = taxonomyOperations[plural];
  return [
    opRoute('GET', base, 'session', op.list, (rc) => queryObject(rc, ['page', 'limit']), asIs),
    opRoute('POST', base, 'session', op.create, bodyObject, { status: 201 }),
    opRoute('GET', `${base}/:id`, 'session', op.get, (rc) => ({ id: rc.params.id })),
    opRoute('PUT', `${base}/:id`, 'session', op.update, async (rc) => ({ ...(await bodyObject(rc)), id: rc.params.id })),
    opRoute('DELETE', `${base}/:id`, 'session', op.delete, (rc) => ({ id: rc.params.id }), deleted),
  ];
}

export const blogRoutes: RouteDef[] = [
  readRoute('/api/v1/blog/posts', 'blog.delivery.posts', () => ({}), false),
  readRoute('/api/v1/blog/posts/:slug', 'blog.delivery.post', (rc) => ({ slug: rc.params.slug }), true),
  readRoute('/api/v1/blog/categories', 'blog.delivery.categories', () => ({}), false),
  readRoute('/api/v1/blog/tags', 'blog.delivery.tags', () => ({}), false),
  readRoute('/api/v1/blog/authors', 'blog.delivery.authors', () => ({}), false),

  opRoute('GET', `${admin}/posts`, 'session', 'blog.posts.list',
    (rc) => queryObject(rc, ['page', 'limit', 'status', 'search', 'category', 'tag', 'author', 'sort']), asIs),
  opRoute('POST', `${admin}/posts`, 'session', 'blog.posts.create', bodyObject, { status: 201 }),
  opRoute('GET', `${admin}/posts/:id`, 'session', 'blog.posts.get', (rc) => ({ id: rc.params.id })),
  opRoute('PUT', `${admin}/posts/:id`, 'session', 'blog.posts.update', async (rc) => ({ ...(await bodyObject(rc)), id: rc.params.id })),
  opRoute('DELETE', `${admin}/posts/:id`, 'session', 'blog.posts.delete', (rc) => ({ id: rc.params.id, force: rc.query.get('force') === 'true' }), deleted),
  opRoute('POST', `${admin}/posts/:id/publish`, 'session', 'blog.posts.publish', (rc) => ({ id: rc.params.id })),
  opRoute('POST', `${admin}/posts/:id/unpublish`, 'session', 'blog.posts.unpublish', (rc) => ({ id: rc.params.id })),
  ...adminCrud('authors'),
  ...adminCrud('categories'),
  ...adminCrud('tags'),
];
