import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everyFieldSchema, writeEveryFieldSchemaFiles } from '../client/fixtures.js';
import { makeImage } from '../media/support.js';
import { runCli } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';
import { createTestCms, type TestCms } from '../helpers/engine.js';
import { serveOverSocket, type HttpClient } from '../helpers/http.js';

/** Validates a document as OpenAPI 3.1 with @seriousme/openapi-schema-validator (the official JSON Schemas). */
async function validate(doc: Record<string, unknown>): Promise<{ valid: boolean; errors: unknown }> {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  return { valid: result.valid, errors: result.errors };
}

/** `GET /api/v1/openapi.json` (issue 18): the document of the running server, over a socket. */
describe(`GET /api/v1/openapi.json (${testDriver})`, () => {
  let t: TestCms;
  let http: HttpClient;
  let pk: string;
  let doc: any;

  beforeAll(async () => {
    t = await createTestCms();
    await t.run('schema.push', {
      pageTypes: everyFieldSchema.pageTypes.map((definition) => ({ definition })),
      collections: everyFieldSchema.collections.map((definition) => ({ definition })),
      components: everyFieldSchema.components.map((definition) => ({ definition })),
    });
    pk = (await t.run('keys.create', { type: 'public' })).key;
    http = await serveOverSocket(t.cms);
    const r = await http.fetch('/api/v1/openapi.json', { headers: { 'x-api-key': pk } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toContain('application/json');
    doc = await r.json();
  });
  afterAll(async () => { await http.close(); await t.close(); });

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const { valid, errors } = await validate(doc);
    expect(errors).toBeUndefined();
    expect(valid).toBe(true);
  });

  it('needs an API key: without one it answers the contract\'s 401', async () => {
    const r = await http.fetch('/api/v1/openapi.json');
    expect(r.status).toBe(401);
    expect(((await r.json()) as any).error.code).toBe('UNAUTHORIZED');
  });

  it('lists the public and admin routes with their parameters and security', () => {
    const get = doc.paths['/api/v1/collections/{type}/{slug}'].get;
    expect(get.security).toEqual([{ apiKey: [] }, { previewKey: [] }, { apiKeyQuery: [] }, { previewKeyQuery: [] }]);
    // Media metadata has no drafts: a preview key alone is refused there, so it is not offered.
    expect(doc.paths['/api/v1/media/{id}'].get.security).toEqual([{ apiKey: [] }, { apiKeyQuery: [] }]);
    // Writes need a secret key, which never goes in a URL.
    expect(doc.paths['/api/v1/pages'].post.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/api/v1/media'].post.security).toEqual([{ apiKey: [] }]);
    // Routes that read the session themselves need one too; sign-in does not.
    for (const [path, method] of [['/api/v1/admin/auth/me', 'get'], ['/api/v1/admin/auth/logout', 'post'], ['/api/v1/admin/projects', 'get']] as const) {
      expect(doc.paths[path][method].security, path).toEqual([{ session: [] }]);
    }
    expect(doc.paths['/api/v1/admin/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/admin/auth/login'].post.tags).toEqual(['auth']);
    expect(doc.paths['/api/v1/admin/auth/me'].get.tags).toEqual(['auth']);
    expect(doc.components.securitySchemes.previewKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-Preview-Key' });
    expect(get.parameters.filter((p: any) => p.in !== 'query').map((p: any) => [p.name, p.in, p.required])).toEqual([['type', 'path', true], ['slug', 'path', true], ['If-None-Match', 'header', false]]);
    expect(Object.keys(get.responses)).toEqual(['200', '304', '429', 'default']);
    const put = doc.paths['/api/v1/collections/{type}/{slug}'].put;
    expect(put.parameters.filter((p: any) => p.in === 'header').map((p: any) => [p.name, p.required])).toEqual([['Idempotency-Key', true], ['If-Match', false]]);
    expect(doc.paths['/api/v1/pages'].post.parameters.map((p: any) => [p.name, p.required])).toEqual([['Idempotency-Key', true]]);
    expect(doc.components.securitySchemes.previewKeyQuery).toEqual({ type: 'apiKey', in: 'query', name: 'preview' });
    expect(doc.paths['/api/v1/ai/seo'].post.parameters.map((p: any) => [p.name, p.required])).toEqual([['Idempotency-Key', false]]);
    expect(doc.paths['/api/v1/admin/members'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/healthz'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/_cli/run']).toBeUndefined();
    expect(doc.components.securitySchemes.apiKey).toEqual({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.components.securitySchemes.session).toEqual({ type: 'apiKey', in: 'cookie', name: 'cms_session' });
    expect(get.responses.default).toEqual({ $ref: '#/components/responses/Error' });
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toContain('VERSION_CONFLICT');
  });

  it('describes request bodies with the operations\' own zod schemas, less what the path gives', () => {
    const create = doc.paths['/api/v1/pages'].post.requestBody.content['application/json'].schema;
    expect(create.type).toBe('object');
    expect(Object.keys(doc.paths['/api/v1/pages'].post.responses)).toEqual(['201', '429', 'default']);
    expect(Object.keys(doc.paths['/api/v1/admin/members/{userId}'].put.responses)).toEqual(['200', 'default']);
    expect(create.properties).toHaveProperty('pageTypeSlug');
    expect(create.properties).toHaveProperty('slug');
    const addLocale = doc.paths['/api/v1/admin/locales'].post.requestBody.content['application/json'].schema;
    expect(addLocale.properties).toHaveProperty('code');
    const update = doc.paths['/api/v1/collections/{type}/{slug}'].put.requestBody.content['application/json'].schema;
    expect(update.properties).not.toHaveProperty('ref');
    expect(update.properties).not.toHaveProperty('collection');
    // The path names the entry; a slug in the body is its new slug.
    expect(update.properties).toHaveProperty('slug');
    expect(doc.paths['/api/v1/pages/{slug}'].put.requestBody.content['application/json'].schema.properties).toHaveProperty('slug');
    expect(doc.paths['/api/v1/admin/pages/{id}'].put.requestBody.content['application/json'].schema.properties).toHaveProperty('slug');
    // Publishing takes no body.
    expect(doc.paths['/api/v1/pages/{slug}/publish'].post.requestBody.required).toBe(false);
    // Uploads are multipart forms answered with 201.
    for (const [path, statuses] of [['/api/v1/media', ['201', '429', 'default']], ['/api/v1/admin/media/upload', ['201', 'default']], ['/api/v1/admin/media/bulk-upload', ['201', 'default']]] as const) {
      const upload = doc.paths[path].post;
      expect(Object.keys(upload.responses), path).toEqual(statuses);
      expect(Object.keys(upload.requestBody.content), path).toEqual(['multipart/form-data']);
    }
    expect(doc.paths['/api/v1/admin/media/bulk-upload'].post.requestBody.content['multipart/form-data'].schema.properties.files.type).toBe('array');
    // A type's routes take its definition as the body.
    const typeBody = doc.paths['/api/v1/admin/page-types'].post.requestBody.content['application/json'].schema;
    expect(typeBody).toEqual({ $ref: '#/components/schemas/TypeDefinition' });
    expect(doc.components.schemas.TypeDefinition.properties).toHaveProperty('fields');
  });

  it('serves /api/docs: a Scalar reference page from node_modules, with no inline script and a strict CSP', async () => {
    const page = await http.fetch('/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("connect-src 'self';");
    const html = await page.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map((m) => m[1]!.trim())).toEqual(['src="/api/docs/scalar.js"', 'src="/api/docs/init.js"']);
    expect(scripts.every((m) => m[2] === '')).toBe(true);
    const scalar = await http.fetch('/api/docs/scalar.js');
    expect(scalar.status).toBe(200);
    expect(scalar.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await scalar.text()).toContain('createApiReference');
    const init = await (await http.fetch('/api/docs/init.js')).text();
    expect(init).toContain("fetch('/api/v1/openapi.json'");
    expect(init).not.toContain('openapi.json?api_key');
    expect((await http.fetch('/api/docs/nothing.js')).status).toBe(404);
    // The page's way in: the key as a query parameter.
    const viaQuery = await http.fetch(`/api/v1/openapi.json?api_key=${encodeURIComponent(pk)}`);
    expect(viaQuery.status).toBe(200);
    expect(((await viaQuery.json()) as any).components.schemas.ProductsItem).toBeDefined();
  });

  it('has the project\'s content types as component schemas', () => {
    const s = doc.components.schemas;
    expect(s.ProductsItem.properties.fields).toEqual({ $ref: '#/components/schemas/ProductsItemFields' });
    expect(s.ProductsItem.properties.type).toEqual({ const: 'products' });
    expect(s.ProductsItemFields.required).toEqual(['title']);
    expect(s.ProductsItemFields.properties.category.anyOf[0]).toEqual({ type: 'string', enum: ['lamps', 'chairs'] });
    expect(s.ProductsItemFields.properties.price).toMatchObject({ anyOf: [{ type: 'number' }, { type: 'null' }] });
    expect(s.LandingPagePage.properties.seo).toEqual({ $ref: '#/components/schemas/CmsSeo' });
    expect(s.HeroComponent.properties._type).toEqual({ const: 'hero' });
    expect(s.HeroComponent.required).toEqual(['_type', 'heading']);
    // The public reads answer in these types.
    const list = doc.paths['/api/v1/collections/{type}'].get.responses['200'].content['application/json'].schema;
    expect(list.properties.data.items.oneOf).toEqual([{ $ref: '#/components/schemas/MakersItem' }, { $ref: '#/components/schemas/ProductsItem' }]);
    const single = doc.paths['/api/v1/pages/{slug}'].get.responses['200'].content['application/json'].schema;
    expect(single.properties.data.oneOf).toEqual([{ $ref: '#/components/schemas/LandingPagePage' }]);
    expect(single.required).toEqual(['data', 'redirect']);
  });

  it('describes what the public writes answer, and their answers match it', async () => {
    const sk = (await t.run('keys.create', { type: 'secret', permissions: ['content:write'] })).key;
    // The document as a JSON Schema resource: each answer is checked against its route's own schema.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', ...doc });
    const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    let n = 0;
    const check = async (method: string, path: string, status: number, body?: unknown) => {
      const r = await http.fetch(path, {
        method, headers: { 'x-api-key': sk, 'idempotency-key': `openapi-${++n}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      expect(r.status, `${method} ${path}`).toBe(status);
      const answer: any = await r.json();
      const template = path.replace(/^\/api\/v1\/pages\/[^/]+/, '/api/v1/pages/{slug}').replace(/^\/api\/v1\/collections\/[^/]+(\/[^/]+)?/, (_m, slug) => `/api/v1/collections/{type}${slug ? '/{slug}' : ''}`);
      const responses = doc.paths[template][method.toLowerCase()].responses;
      expect(responses[String(status)].content, `${method} ${template}`).toBeDefined();
      const validate = ajv.getSchema(`doc#/${pointer('paths', template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema')}`)!;
      expect(validate(answer), `${method} ${template}: ${JSON.stringify(validate.errors)}`).toBe(true);
      return answer;
    };
    const created = await check('POST', '/api/v1/pages', 201, { pageTypeSlug: 'landing-page', name: 'Open', slug: 'open-api', fields: { title: 'Open' } });
    expect(created.data).toMatchObject({ status: 'draft', version: 1, publishedContent: null });
    await check('PUT', '/api/v1/pages/open-api', 200, { fields: { summary: 'Now with a summary' } });
    await check('POST', '/api/v1/pages/open-api/publish', 200);
    await check('POST', '/api/v1/pages/open-api/unpublish', 200);
    await check('DELETE', '/api/v1/pages/open-api', 200);
    await check('POST', '/api/v1/collections/makers', 201, { name: 'Maker', slug: 'maker-api', fields: { country: 'NL' } });
    await check('PUT', '/api/v1/collections/makers/maker-api', 200, { fields: { country: 'BE' } });
    await check('POST', '/api/v1/collections/makers/maker-api/publish', 200);
    await check('POST', '/api/v1/collections/makers/maker-api/unpublish', 200);
    await check('DELETE', '/api/v1/collections/makers/maker-api', 200);
    // A shape the document does not allow fails the check: the schemas are not "anything".
    const validatePage = ajv.getSchema('doc#/components/schemas/CmsPageWrite')!;
    expect(validatePage({ ...created.data, version: 'one' })).toBe(false);
    expect(validatePage({ ...created.data, status: 'archived' })).toBe(false);
  });

  it('describes what the blog\'s reads and media\'s public routes answer, and their answers match it', async () => {
    const sk = (await t.run('keys.create', { type: 'secret', permissions: ['media:write'] })).key;
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'doc', ...doc });
    const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
    const matches = (template: string, method: string, status: number, answer: unknown) => {
      const at = pointer('paths', template, method, 'responses', String(status), 'content', 'application/json', 'schema');
      const validate = ajv.getSchema(`doc#/${at}`);
      expect(validate, `${method} ${template} has a schema`).toBeDefined();
      expect(validate!(answer), `${method} ${template}: ${JSON.stringify(validate!.errors)}`).toBe(true);
    };
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await makeImage('png', 3, 2))], { type: 'image/png' }), 'cover.png');
    form.append('altText', 'A cover');
    const uploaded = await http.fetch('/api/v1/media', { method: 'POST', headers: { 'x-api-key': sk, 'idempotency-key': 'openapi-upload' }, body: form });
    expect(uploaded.status).toBe(201);
    const media = ((await uploaded.json()) as any).data;
    matches('/api/v1/media', 'post', 201, { data: media });
    const author = await t.run('blog.authors.create', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', profileImageId: media.id, links: { site: 'https://example.com' } });
    await t.run('blog.categories.create', { name: 'News' });
    await t.run('blog.tags.create', { name: 'Engines' });
    await t.run('blog.posts.create', {
      title: 'Analytical', status: 'published', summary: 'On engines', body: '<p>Notes</p>', featuredImageId: media.id,
      author: author.slug, categories: ['news'], tags: ['engines'], seo: { metaTitle: 'Analytical', ogImageId: media.id },
    });
    await t.run('blog.posts.create', { title: 'Bare draft is hidden' });
    await t.run('blog.posts.create', { title: 'Bare', status: 'published' });
    const read = async (path: string) => {
      const r = await http.fetch(path, { headers: { 'x-api-key': pk } });
      expect(r.status, path).toBe(200);
      return r.json();
    };
    const reads: Array<[string, string]> = [
      ['/api/v1/blog/posts', '/api/v1/blog/posts'], ['/api/v1/blog/posts', '/api/v1/blog/posts?media=url'], ['/api/v1/blog/posts', '/api/v1/blog/posts?fields=title'],
      ['/api/v1/blog/posts/{slug}', '/api/v1/blog/posts/analytical'], ['/api/v1/blog/posts/{slug}', '/api/v1/blog/posts/bare'],
      ['/api/v1/blog/categories', '/api/v1/blog/categories'], ['/api/v1/blog/tags', '/api/v1/blog/tags'],
      ['/api/v1/blog/authors', '/api/v1/blog/authors'], ['/api/v1/blog/authors', '/api/v1/blog/authors?media=url'],
      ['/api/v1/media/{id}', `/api/v1/media/${media.id}`],
    ];
    for (const [template, path] of reads) matches(template, 'get', 200, await read(path));
    // The answers hold what the schemas describe (not empty lists the schemas would pass anyway).
    const posts: any = await read('/api/v1/blog/posts');
    expect(posts.data.map((p: any) => p.slug).sort()).toEqual(['analytical', 'bare']);
    expect(posts.data.find((p: any) => p.slug === 'analytical')).toMatchObject({ author: { slug: author.slug }, categories: [{ slug: 'news' }], featuredImage: { _url: expect.stringContaining(media.filename) } });
    expect(((await read('/api/v1/blog/authors')) as any).data[0]).not.toHaveProperty('email');
    // A shape the document does not allow fails the check.
    const validatePost = ajv.getSchema('doc#/components/schemas/CmsBlogPost')!;
    const post = posts.data[0];
    expect(validatePost({ ...post, status: 'archived' })).toBe(false);
    expect(validatePost({ ...post, categories: [{ id: 'x' }] })).toBe(false);
    const { featuredImage: _left, ...withoutImage } = post;
    expect(validatePost(withoutImage)).toBe(false);
  });

  it('describes the query parameters of the public reads, and the server reads each by the name it gives', async () => {
    const sk = (await t.run('keys.create', { type: 'secret', permissions: ['content:write'] })).key;
    const write = (path: string, body: unknown) => http.fetch(path, {
      method: 'POST', headers: { 'x-api-key': sk, 'idempotency-key': `query-${path}-${JSON.stringify(body)}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect((await write('/api/v1/pages', { pageTypeSlug: 'landing-page', name: 'Query', slug: 'query-page', fields: { title: 'Query' }, status: 'published' })).status).toBe(201);
    const maker = await write('/api/v1/collections/makers', { name: 'Query maker', slug: 'query-maker', fields: { country: 'NL' }, status: 'published' });
    expect(maker.status).toBe(201);
    const makerId = ((await maker.json()) as any).data.id;
    const product = { name: 'Query product', slug: 'query-product', fields: { title: 'Lamp', maker: { _ref: makerId, _type: 'collectionItem' } }, status: 'published' };
    expect((await write('/api/v1/collections/products', product)).status).toBe(201);
    const queryOf = (template: string) => doc.paths[template].get.parameters.filter((p: any) => p.in === 'query');
    const names = (template: string) => queryOf(template).map((p: any) => p.name);
    expect(names('/api/v1/pages')).toEqual(['page', 'limit', 'sort', 'fields', 'media', 'refTypes', 'locale', 'pageType']);
    expect(names('/api/v1/pages/{slug}')).toEqual(['fields', 'media', 'refTypes', 'locale']);
    expect(names('/api/v1/collections/{type}')).toEqual(['page', 'limit', 'sort', 'fields', 'media', 'refTypes', 'locale', 'filter']);
    expect(names('/api/v1/blog/posts')).toEqual(['page', 'limit', 'sort', 'fields', 'media', 'locale', 'category', 'tag', 'author']);
    expect(names('/api/v1/blog/authors')).toEqual(['page', 'limit', 'media', 'locale']);
    expect(names('/api/v1/media/{project}/{file}')).toEqual(['w', 'h', 'fit', 'format', 'q']);
    // The filter is a deep object: filter[fields.price][gt]=10.
    expect(queryOf('/api/v1/collections/{type}').find((p: any) => p.name === 'filter')).toMatchObject({ style: 'deepObject', explode: true });

    const read = async (path: string) => {
      const r = await http.fetch(path, { headers: { 'x-api-key': pk } });
      return { status: r.status, body: (await r.json()) as any };
    };
    const reads: Record<string, string> = {
      '/api/v1/pages': '/api/v1/pages', '/api/v1/pages/{slug}': '/api/v1/pages/query-page',
      '/api/v1/collections/{type}': '/api/v1/collections/makers', '/api/v1/collections/{type}/{slug}': '/api/v1/collections/makers/query-maker',
      '/api/v1/blog/posts': '/api/v1/blog/posts', '/api/v1/blog/categories': '/api/v1/blog/categories',
      '/api/v1/blog/tags': '/api/v1/blog/tags', '/api/v1/blog/authors': '/api/v1/blog/authors',
    };
    let checked = 0;
    for (const [template, path] of Object.entries(reads)) {
      expect((await read(path)).status, path).toBe(200);
      for (const p of queryOf(template)) {
        // A value outside what the document allows is refused naming the parameter: the server
        // reads it by that name, within the bounds the document gives.
        const outside = p.schema.type === 'integer' ? [String(p.schema.minimum - 1), String(p.schema.maximum + 1)]
          : p.name === 'sort' ? ['nope'] : p.name === 'locale' ? ['xx'] : [];
        for (const value of outside) {
          const r = await read(`${path}?${p.name}=${value}`);
          expect(r.status, `${path}?${p.name}=${value}`).toBe(400);
          expect(r.body.error.details.parameter).toBe(p.name);
          checked++;
        }
        if (p.schema.type === 'integer') expect((await read(`${path}?${p.name}=${p.schema.maximum}`)).status).toBe(200);
        // Every sort key the description names is one the server sorts by.
        if (p.name === 'sort') {
          const keys = [...String(p.description).matchAll(/`([A-Za-z_]+)`/g)].map((m) => m[1]!);
          expect(keys.length, template).toBeGreaterThanOrEqual(5);
          for (const key of keys) for (const sort of [key, `-${key}`]) expect((await read(`${path}?sort=${sort}`)).status, `${path}?sort=${sort}`).toBe(200);
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(30);
    // The parameters that refuse nothing change the answer.
    expect((await read('/api/v1/pages/query-page?fields=nothing')).body.data.fields).toEqual({});
    const refParameter = queryOf('/api/v1/pages/{slug}').find((p: any) => p.name === 'refTypes');
    expect(refParameter.schema).toEqual({ type: 'boolean', default: true });
    expect((await read('/api/v1/collections/products/query-product')).body.data.fields.maker._type).toBe('makers');
    expect((await read('/api/v1/collections/products/query-product?refTypes=false')).body.data.fields.maker).not.toHaveProperty('_type');
    expect((await read('/api/v1/pages?pageType=nope')).body.pagination.total).toBe(0);
    expect((await read('/api/v1/pages?pageType=landing-page')).body.pagination.total).toBeGreaterThan(0);
    expect((await read('/api/v1/collections/makers?filter[name][contains]=query')).body.data.map((d: any) => d.slug)).toEqual(['query-maker']);
    expect((await read('/api/v1/collections/makers?filter[id]=1')).body.error.code).toBe('INVALID_FILTER_FIELD');
  });

  it('names the headers each answer carries, and the answers carry them', async () => {
    const sk = (await t.run('keys.create', { type: 'secret', permissions: ['content:write'] })).key;
    const documented = (template: string, method: string, status: string) => {
      const response = doc.paths[template][method].responses[status];
      return Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
    };
    // Every header named anywhere is described once, under components.headers.
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) {
        for (const [status, response] of Object.entries<any>(op.responses)) {
          const headers = response.$ref ? doc.components.responses[response.$ref.split('/').at(-1)].headers : response.headers;
          for (const ref of Object.values<any>(headers ?? {})) expect(doc.components.headers[ref.$ref.split('/').at(-1)], `${method} ${path} ${status}`).toBeDefined();
        }
      }
    }
    const carries = (r: Response, names: string[]) => { for (const name of names) expect(r.headers.get(name), name).not.toBeNull(); };
    const list = await http.fetch('/api/v1/pages', { headers: { 'x-api-key': pk } });
    expect(list.status).toBe(200);
    const listHeaders = ['etag', 'cache-control', 'vary', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id'];
    carries(list, listHeaders);
    expect(documented('/api/v1/pages', 'get', '200')).toEqual(expect.arrayContaining(listHeaders));

    const create = () => http.fetch('/api/v1/pages', {
      method: 'POST', headers: { 'x-api-key': sk, 'idempotency-key': 'headers-1', 'content-type': 'application/json' },
      body: JSON.stringify({ pageTypeSlug: 'landing-page', name: 'Headers', slug: 'headers-page', fields: { title: 'Headers' }, status: 'published' }),
    });
    const first = await create();
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await create();
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const writeHeaders = ['idempotent-replayed', 'cache-control', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'x-request-id'];
    carries(replay, writeHeaders);
    expect(documented('/api/v1/pages', 'post', '201')).toEqual(expect.arrayContaining(writeHeaders));

    const one = await http.fetch('/api/v1/pages/headers-page', { headers: { 'x-api-key': pk } });
    const etag = one.headers.get('etag')!;
    const again = await http.fetch('/api/v1/pages/headers-page', { headers: { 'x-api-key': pk, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    carries(again, ['etag', 'ratelimit-remaining']);
    expect(documented('/api/v1/pages/{slug}', 'get', '304')).toEqual(expect.arrayContaining(['etag', 'ratelimit-remaining']));

    // Media metadata answers If-None-Match too, and says so.
    expect(doc.paths['/api/v1/media/{id}'].get.responses['304']).toBeDefined();
    expect(doc.paths['/api/v1/media/{id}'].get.parameters.map((p: any) => p.name)).toContain('If-None-Match');
    // Every route a key calls may answer 429, with Retry-After (test/http/rate-limit.test.ts sends one).
    expect(doc.paths['/api/v1/pages'].get.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    expect(Object.keys(doc.components.responses.RateLimited.headers)).toContain('Retry-After');
    expect(doc.paths['/api/v1/admin/pages'].get.responses['429']).toBeUndefined();
  });
});

const cliTimeout = 180_000;
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_PASSWORD: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined };

/** `cms openapi [--out FILE]`: the built CLI as a child process. */
describe(`cms openapi (${testDriver})`, { timeout: cliTimeout }, () => {
  let root: string;
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const cli = (args: string[], cwd?: string) => runCli(args, { cwd: cwd ?? dir, env: { ...cleanEnv, DATABASE_URL: database.url }, timeoutMs: cliTimeout });

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-openapi-cli-'));
    dir = join(root, 'site');
    database = await createTestDatabase();
    const init = await cli(['init', 'site', '--yes'], root);
    expect(init.code, init.stderr).toBe(0);
    writeEveryFieldSchemaFiles(dir);
    const push = await cli(['schema', 'push']);
    expect(push.code, push.stderr).toBe(0);
  });
  afterAll(async () => {
    await database.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('prints a valid document, and --out writes the same bytes to a file', async () => {
    const printed = await cli(['openapi']);
    expect(printed.code, printed.stderr).toBe(0);
    const doc = JSON.parse(printed.stdout);
    expect((await validate(doc)).valid).toBe(true);
    expect(doc.paths['/api/v1/pages/{slug}'].get.operationId).toBe('delivery.pages.get');
    expect(doc.components.schemas.LandingPagePageFields.properties.theme.anyOf[0]).toEqual({ type: 'string', enum: ['light', 'dark'] });

    const written = await cli(['openapi', '--out', 'api/openapi.json']);
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toMatch(/^Wrote api\/openapi\.json \(\d+ bytes\)\.\n$/);
    expect(readFileSync(join(dir, 'api', 'openapi.json'), 'utf8')).toBe(printed.stdout);
  });
});
