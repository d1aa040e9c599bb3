import { CmsError } from '../../core/errors.js';
import type { OperationName } from '../../core/registry.js';
import { opRoute, type RequestContext, type RouteDef } from '../route.js';
import { readRoute } from './read-route.js';

const queryObject = (rc: RequestContext, names: string[]) => {
  const out: Record<string, string> = {};
  for (const name of names) {
    const v = rc.query.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
};

const jsonObject = async (rc: RequestContext): Promise<Record<string, unknown>> => {
  const body = await rc.body();
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CmsError('VALIDATION_FAILED', 'The request body must be a JSON object', [{ path: '(body)', message: 'must be an object' }]);
  }
  return body as Record<string, unknown>;
};

const admin = '/api/v1/admin/blog';
const asIs = { wrap: (r: unknown) => r };
const deleted = { wrap: (r: unknown) => ({ success: true, data: r }) };

/** CRUD under /api/v1/admin/blog/<plural> for authors, categories and tags. */
function adminCrud(plural: 'authors' | 'categories' | 'tags'): RouteDef[] {
  const base = `${admin}/${plural}`;
  const op = (verb: string) => `blog.${plural}.${verb}` as OperationName;
  return [
    opRoute('GET', base, 'session', op('list'), (rc) => queryObject(rc, ['page', 'limit']), asIs),
    opRoute('POST', base, 'session', op('create'), jsonObject, { status: 201 }),
    opRoute('GET', `${base}/:id`, 'session', op('get'), (rc) => ({ id: rc.params.id })),
    opRoute('PUT', `${base}/:id`, 'session', op('update'), async (rc) => ({ ...(await jsonObject(rc)), id: rc.params.id })),
    opRoute('DELETE', `${base}/:id`, 'session', op('delete'), (rc) => ({ id: rc.params.id }), deleted),
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
  opRoute('POST', `${admin}/posts`, 'session', 'blog.posts.create', jsonObject, { status: 201 }),
  opRoute('GET', `${admin}/posts/:id`, 'session', 'blog.posts.get', (rc) => ({ id: rc.params.id })),
  opRoute('PUT', `${admin}/posts/:id`, 'session', 'blog.posts.update', async (rc) => ({ ...(await jsonObject(rc)), id: rc.params.id })),
  opRoute('DELETE', `${admin}/posts/:id`, 'session', 'blog.posts.delete', (rc) => ({ id: rc.params.id, force: rc.query.get('force') === 'true' }), deleted),
  opRoute('POST', `${admin}/posts/:id/publish`, 'session', 'blog.posts.publish', (rc) => ({ id: rc.params.id })),
  opRoute('POST', `${admin}/posts/:id/unpublish`, 'session', 'blog.posts.unpublish', (rc) => ({ id: rc.params.id })),
  ...adminCrud('authors'),
  ...adminCrud('categories'),
  ...adminCrud('tags'),
];
