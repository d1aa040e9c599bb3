import { z } from 'zod';
import { errorCodes } from '../core/errors.js';
import { operationOf } from '../core/registry.js';
import type { JsonSchema } from '../core/types/json-schema.js';
import { pageSortFields, itemSortFields } from '../core/content/delivery.js';
import { postSortFields } from '../core/blog/query.js';
import { filterOperators, maxFilterConditions, maxPage } from '../core/content/query.js';
import { sessionCookieName } from './auth.js';
import { maxTransformSide, transformFits, transformFormats } from '../media/transform.js';
import { previewCacheControl, publicCacheControl, publicVary } from './cache.js';
import { json } from './response.js';
import type { RouteDef } from './route.js';

/*
 * The OpenAPI 3.1 description of the HTTP API (docs/openapi.md), made from what the server runs:
 * the route table (method, path, who may call it) and each route's operation's zod input schema,
 * turned into JSON Schema by zod itself; the project's content types are its component schemas
 * (`schema.jsonSchema`). Nothing is written twice. `cms openapi` prints the same document.
 */

type Doc = { [key: string]: unknown };

/**
 * A schema placed in the document: its `$defs` become component schemas named `<prefix>.<name>`
 * (a `#/$defs/…` reference inside an OpenAPI document would point at the document's root).
 */
function place(schema: JsonSchema, prefix: string, components: Record<string, JsonSchema>): JsonSchema {
  const { $schema: _dialect, $defs, ...rest } = schema;
  const rewrite = (s: unknown): JsonSchema => JSON.parse(JSON.stringify(s).replaceAll('"#/$defs/', `"#/components/schemas/${prefix}.`));
  if (isRecord($defs)) for (const [name, def] of Object.entries($defs)) components[`${prefix}.${name}`] = rewrite(def);
  return rewrite(rest);
}

/** An operation's input as JSON Schema (what a client sends, before defaults and transforms). */
function inputSchema(route: RouteDef, components: Record<string, JsonSchema>): JsonSchema | null {
  if (!route.op) return null;
  const named = route.op.bodySchema;
  if (named) {
    components[named.name] ??= place(named.schema(), named.name, components);
    return { $ref: `#/components/schemas/${named.name}` };
  }
  let schema: JsonSchema;
  try {
    schema = place(z.toJSONSchema(operationOf(route.op.name).input, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }), route.op.name, components);
  } catch {
    // A schema zod cannot describe (a recursive lazy type, a custom check) is described as any JSON.
    return {};
  }
  const properties = isRecord(schema.properties) ? schema.properties : null;
  if (route.op.body !== undefined) {
    const member = properties?.[route.op.body];
    return isRecord(member) ? member : {};
  }
  return schema;
}

const isRecord = (v: unknown): v is JsonSchema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The members of an input a route fills from its path: left out of the request body's schema. A
 * route whose input names its entry in `ref` fills `ref` from `:slug` or `:id`; a `slug` member is
 * then the body's own (an update's new slug).
 */
function withoutPathMembers(schema: JsonSchema, params: string[]): JsonSchema {
  if (!isRecord(schema.properties)) return schema;
  const fillsRef = 'ref' in schema.properties;
  const fromPath = params.filter((p) => !(fillsRef && (p === 'slug' || p === 'id')));
  const drop = new Set([...fromPath, 'ref', 'collection', 'collectionTypeSlug', 'kind']);
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([k]) => !drop.has(k)));
  const required = Array.isArray(schema.required) ? schema.required.filter((k) => typeof k === 'string' && !drop.has(k)) : undefined;
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/**
 * Who may call a route. Keys go in `X-API-Key` (a preview key also in `X-Preview-Key`, where the
 * route reads one); the query
 * string's `api_key` is for reads (a secret key there is refused), so writes list the header only.
 */
function securityOf(route: RouteDef): Array<Record<string, string[]>> {
  if (route.auth === 'session' || route.doc?.session) return [{ session: [] }];
  if (route.auth === 'none') return [];
  if (route.method !== 'GET') return [{ apiKey: [] }];
  // A read that looks at no preview key (media metadata) takes an API key only.
  return route.ignorePreviewKeys ? [{ apiKey: [] }, { apiKeyQuery: [] }] : [{ apiKey: [] }, { previewKey: [] }, { apiKeyQuery: [] }, { previewKeyQuery: [] }];
}

function delivered(route: RouteDef, content: ContentSchemas): Doc {
  const schema = deliveredSchema(route, content);
  const description = 'Success: the answer, as `{ data }` for most routes.';
  const headers = successHeaders(route);
  return { description, ...(Object.keys(headers).length ? { headers } : {}), ...(schema ? { content: { 'application/json': { schema } } } : {}) };
}

/** The project's content: its component schemas and the names of its page and item schemas. */
export interface ContentSchemas { schemas: Record<string, JsonSchema>; pages: string[]; items: string[] }

/** What the public reads and writes answer, the reads in the project's own types (docs/content-api.md). */
function deliveredSchema(route: RouteDef, content: ContentSchemas): JsonSchema | null {
  const op = route.op?.name;
  if (route.auth === 'key' && op && publicWrites[op]) return publicWrites[op];
  const read = route.auth === 'key' ? publicReads[docKey(route)] : undefined;
  if (read) return read;
  const names = op === 'delivery.pages.list' || op === 'delivery.pages.get' ? content.pages
    : op === 'delivery.items.list' || op === 'delivery.items.get' ? content.items : null;
  if (!names) return null;
  const entry: JsonSchema = names.length ? { oneOf: names.map((n) => ({ $ref: `#/components/schemas/${n}` })) } : {};
  return route.cachedRead?.single
    ? { type: 'object', required: ['data', 'redirect'], properties: { data: entry, redirect: { anyOf: [{ type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' }, permanent: { const: true } } }, { type: 'null' }] }, locale: localeMember } }
    : listOf(entry);
}

const timestamp = { type: 'string', format: 'date-time' };
const timestampOrNull = { anyOf: [timestamp, { type: 'null' }] };
const contentObject = { type: 'object', description: 'The content fields as saved (a draft may leave required fields empty: docs/content-api.md).' };

/**
 * A page or collection item as the public writes answer it: the contract's write shape, and what
 * the two add to it (the type's slug, scheduled times; an item's sort order).
 */
function writeShape(kind: 'page' | 'item'): JsonSchema {
  const typeMembers = kind === 'page'
    ? { pageTypeId: { type: 'string', format: 'uuid' }, pageTypeSlug: { type: 'string' } }
    : { collectionTypeId: { type: 'string', format: 'uuid' }, collectionTypeSlug: { type: 'string' } };
  const own = kind === 'page' ? { seo: { type: 'object', description: 'The SEO object as written (ogImageId, not ogImage).' } } : { sortOrder: { type: 'integer' } };
  const properties = {
    id: { type: 'string', format: 'uuid' },
    ...typeMembers,
    name: { type: 'string' },
    slug: { type: 'string' },
    status: { enum: ['draft', 'published'] },
    draftContent: contentObject,
    publishedContent: { anyOf: [contentObject, { type: 'null' }], description: 'null until published' },
    ...own,
    version: { type: 'integer', minimum: 1, description: '1 on creation; each update adds 1 (publishing does not)' },
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: timestampOrNull,
    publishAt: { ...timestampOrNull, description: 'when it is scheduled to be published, or null' },
    unpublishAt: { ...timestampOrNull, description: 'when it is scheduled to be unpublished, or null' },
  };
  return { type: 'object', required: Object.keys(properties), properties };
}

const wrapped = (data: JsonSchema): JsonSchema => ({ type: 'object', required: ['data'], properties: { data } });
const deletedSchema: JsonSchema = { type: 'object', required: ['success'], properties: { success: { const: true } } };
const pageWrite = wrapped({ $ref: '#/components/schemas/CmsPageWrite' });
const itemWrite = wrapped({ $ref: '#/components/schemas/CmsItemWrite' });

/** How the tables below name a route: its operation, or for a route without one its method and path. */
const docKey = (route: RouteDef): string => route.op?.name ?? `${route.method} ${route.path}`;
const localeMember = { type: 'string', description: 'There when the read asked for a locale.' };
const pagination: JsonSchema = {
  type: 'object', required: ['total', 'page', 'limit', 'totalPages'],
  properties: { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' }, totalPages: { type: 'integer' } },
};
const listOf = (item: JsonSchema): JsonSchema => ({
  type: 'object', required: ['data', 'pagination'],
  properties: { data: { type: 'array', items: item }, pagination, locale: localeMember },
});
const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullableString = { type: ['string', 'null'] };
const resolvedMedia = { anyOf: [schemaRef('CmsMedia'), { type: 'string', description: 'its URL, with `media=url`' }, { type: 'null' }] };

/** The blog's and media's public shapes (docs/media-and-blog.md), under components.schemas. */
const blogAndMediaSchemas: Record<string, JsonSchema> = {
  CmsBlogTerm: { type: 'object', required: ['id', 'slug', 'name'], properties: { id: { type: 'string', format: 'uuid' }, slug: { type: 'string' }, name: { type: 'string' } } },
  CmsBlogAuthor: {
    type: 'object', required: ['id', 'slug', 'firstName', 'lastName', 'title', 'bio', 'profileImage', 'links'],
    description: 'An author as the public API delivers it (never the email).',
    properties: {
      id: { type: 'string', format: 'uuid' }, slug: { type: 'string' }, firstName: { type: 'string' }, lastName: { type: 'string' },
      title: { type: 'string' }, bio: { type: 'string' }, profileImage: resolvedMedia,
      links: { type: 'object', additionalProperties: { type: 'string' }, description: 'Named links, such as `{ "twitter": "https://…" }`' },
    },
  },
  CmsBlogPost: {
    type: 'object', required: ['id', 'title', 'slug', 'seo', 'publishedAt', 'updatedAt', 'featuredImage'],
    description: 'A post as the public API delivers it; `fields=` leaves out members other than the required ones. With `locale=*`, `title`, `summary`, `body` and each SEO member are objects by locale code.',
    properties: {
      id: { type: 'string', format: 'uuid' }, title: { type: 'string' }, slug: { type: 'string' }, status: { enum: ['draft', 'published'] },
      summary: { type: 'string' }, body: { type: 'string', description: 'HTML' }, featuredImageId: { type: ['string', 'null'], format: 'uuid' },
      featuredImage: resolvedMedia, author: { anyOf: [schemaRef('CmsBlogAuthor'), { type: 'null' }] },
      categories: { type: 'array', items: schemaRef('CmsBlogTerm') }, tags: { type: 'array', items: schemaRef('CmsBlogTerm') },
      seo: schemaRef('CmsSeo'), publishedAt: timestampOrNull, createdAt: timestamp, updatedAt: timestamp,
      _fallbacks: { type: 'array', items: { type: 'string' }, description: 'With `locale` only: what came from another locale.' },
    },
  },
  CmsMediaFile: {
    type: 'object', required: ['id', 'filename', 'originalFilename', 'mimeType', 'size', 'folder', 'url', 'createdAt', 'updatedAt'],
    description: 'A media item: its record and the URL of its file.',
    properties: {
      id: { type: 'string', format: 'uuid' }, filename: { type: 'string', description: '`<sha256>.<extension>`' }, originalFilename: { type: 'string' },
      mimeType: { type: 'string' }, size: { type: 'integer' }, width: { type: 'integer' }, height: { type: 'integer' },
      altText: { type: 'string', description: 'absent when there is none' }, folder: nullableString, url: { type: 'string' },
      createdAt: timestamp, updatedAt: timestamp,
      deduplicated: { const: true, description: 'On an upload: the same bytes were already in the library, and this is that item.' },
    },
  },
};

/** The success bodies of the blog's public reads and of media's public routes, by `docKey`. */
const publicReads: Partial<Record<string, JsonSchema>> = {
  'blog.delivery.posts': listOf(schemaRef('CmsBlogPost')),
  'blog.delivery.post': { type: 'object', required: ['data'], properties: { data: schemaRef('CmsBlogPost'), locale: localeMember } },
  'blog.delivery.categories': listOf(schemaRef('CmsBlogTerm')),
  'blog.delivery.tags': listOf(schemaRef('CmsBlogTerm')),
  'blog.delivery.authors': listOf(schemaRef('CmsBlogAuthor')),
  // Routes without an operation, by method and path.
  'GET /api/v1/media/:id': wrapped(schemaRef('CmsMediaFile')),
  'POST /api/v1/media': wrapped(schemaRef('CmsMediaFile')),
};

/** The success bodies of the public writes, by operation (only where a key calls it: the admin routes answer their own). */
const publicWrites: Partial<Record<string, JsonSchema>> = {
  'pages.create': pageWrite, 'pages.update': pageWrite, 'pages.publish': pageWrite, 'pages.unpublish': pageWrite, 'pages.delete': deletedSchema,
  'items.create': itemWrite, 'items.update': itemWrite, 'items.publish': itemWrite, 'items.unpublish': itemWrite, 'items.delete': deletedSchema,
};

/**
 * The response headers, described once (`components.headers`) and named by the answers that carry
 * them (docs/content-api.md says the same in prose).
 */
const responseHeaderDocs: Record<string, Doc> = {
  'ETag': { description: 'The answer\'s entity tag. Single reads answer `304` to an `If-None-Match` that holds it; lists carry it but never answer `304`.', schema: { type: 'string' } },
  'Cache-Control': { description: `\`${publicCacheControl}\` for public reads; \`${previewCacheControl}\` for a preview key's; \`no-store\` on writes.`, schema: { type: 'string' } },
  'Vary': { description: `\`${publicVary}\``, schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed in the window (while rate limiting is on, as it is by default).', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window. Answers from the response cache and `304`s do not count.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window ends.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before asking again.', schema: { type: 'integer' } },
  'Idempotent-Replayed': { description: '`true` when the answer is the stored first answer to this `Idempotency-Key` (nothing ran again); absent otherwise.', schema: { const: 'true' } },
  'X-Request-Id': { description: 'The request\'s id, as logged: the `X-Request-Id` sent (printable, up to 128 characters) or a new UUID.', schema: { type: 'string' } },
};
const headerRefs = (names: string[]): Record<string, Doc> => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const rateLimitHeaders = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/** A public read that answers with an ETag (and `304` when single). */
const conditional = (route: RouteDef) => route.cachedRead !== undefined || route.doc?.conditional === true;

/** The headers of a route's success answer. */
function successHeaders(route: RouteDef): Record<string, Doc> {
  const names = ['X-Request-Id'];
  if (route.auth === 'key') names.push(...rateLimitHeaders);
  if (conditional(route)) names.push('ETag', 'Cache-Control', 'Vary');
  if (route.auth === 'key' && route.method !== 'GET') names.push('Cache-Control', 'Idempotent-Replayed');
  return headerRefs(names);
}

const queryParameter = (name: string, schema: Doc, description: string): Doc => ({ name, in: 'query', required: false, schema, description });
const paging = [
  queryParameter('page', { type: 'integer', minimum: 1, maximum: maxPage, default: 1 }, 'Page number; a page past the last gives empty `data` with the real `pagination.total`.'),
  queryParameter('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }, 'Entries per page.'),
];
const sortParameter = (keys: readonly string[], more = '') => queryParameter('sort', { type: 'string', default: '-publishedAt' },
  `Comma-separated keys, \`-\` for descending: ${keys.map((k) => `\`${k}\``).join(', ')}${more}. Ties go to the id.`);
const fieldsParameter = queryParameter('fields', { type: 'string' }, 'Field selection: `title,summary` keeps only those, `-body` leaves one out (docs/content-api.md).');
const mediaParameter = queryParameter('media', { enum: ['url', 'object'], default: 'object' }, '`url`: media as URL strings; `object` (or any other value): media objects.');
const refTypesParameter = queryParameter('refTypes', { type: 'boolean', default: true }, '`false` (or `0`, `no`) leaves `_type` off resolved collection items.');
const localeParameter = queryParameter('locale', { type: 'string' },
  'A locale code of the project (its localized values, falling back along the chain; `_fallbacks` on each entry) or `*` (each localized field an object with one member per locale). The answer then has `locale` beside `data`. Unknown: `400 INVALID_QUERY`.');
const filterParameter: Doc = {
  name: 'filter', in: 'query', required: false, style: 'deepObject', explode: true,
  schema: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'object', propertyNames: { enum: [...filterOperators] }, additionalProperties: { type: 'string' } }] } },
  description: `\`filter[<field>][<operator>]=<value>\`: \`<field>\` is \`name\`, \`slug\` or a content path \`fields.a.b\`; operators ${filterOperators.map((o) => `\`${o}\``).join(', ')} (\`eq\` when left out). At most ${maxFilterConditions} conditions; more are dropped.`,
};
const slugsParameter = (name: string, what: string) => queryParameter(name, { type: 'string' }, `${what} slugs, comma-separated (\`a,b\` matches either).`);

/** The query parameters of the public reads, by `docKey` (docs/content-api.md, docs/media-and-blog.md). */
const readQueryParameters: Partial<Record<string, Doc[]>> = {
  'delivery.pages.list': [...paging, sortParameter(pageSortFields), fieldsParameter, mediaParameter, refTypesParameter, localeParameter,
    queryParameter('pageType', { type: 'string' }, 'Only pages of this page type (its slug); `filter[pageTypeId]=<slug>` is the same. The page list takes no other filter.')],
  'delivery.pages.get': [fieldsParameter, mediaParameter, refTypesParameter, localeParameter],
  'delivery.items.list': [...paging, sortParameter(itemSortFields, ', or a content path `fields.a.b`'), fieldsParameter, mediaParameter, refTypesParameter, localeParameter, filterParameter],
  'delivery.items.get': [fieldsParameter, mediaParameter, refTypesParameter, localeParameter],
  'blog.delivery.posts': [...paging, sortParameter(postSortFields), fieldsParameter, mediaParameter, localeParameter,
    slugsParameter('category', 'Category'), slugsParameter('tag', 'Tag'), slugsParameter('author', 'Author')],
  'blog.delivery.post': [fieldsParameter, mediaParameter, localeParameter],
  'blog.delivery.categories': [...paging, localeParameter],
  'blog.delivery.tags': [...paging, localeParameter],
  'blog.delivery.authors': [...paging, mediaParameter, localeParameter],
  // A media file (no operation: named by method and path), with the image transforms of docs/media-and-blog.md.
  'GET /api/v1/media/:project/:file': [
    queryParameter('w', { type: 'integer', minimum: 1, maximum: maxTransformSide }, 'Width in pixels (an image); alone, the height keeps the proportions.'),
    queryParameter('h', { type: 'integer', minimum: 1, maximum: maxTransformSide }, 'Height in pixels (an image); alone, the width keeps the proportions.'),
    queryParameter('fit', { enum: [...transformFits], default: 'cover' }, 'How the image fits `w` × `h`, as in sharp.'),
    queryParameter('format', { enum: [...transformFormats] }, 'The format to send (the original\'s by default).'),
    queryParameter('q', { type: 'integer', minimum: 1, maximum: 100 }, 'Quality (JPEG, WebP, AVIF; palette quantisation for PNG).'),
  ],
};

/** The request headers a route reads: Idempotency-Key on public writes, If-Match on updates, If-None-Match on single reads. */
function headerParameters(route: RouteDef): Doc[] {
  const out: Doc[] = [];
  if (route.auth === 'key' && route.method !== 'GET') {
    const ai = route.path.startsWith('/api/v1/ai/');
    out.push({
      name: 'Idempotency-Key', in: 'header', required: !ai, schema: { type: 'string', minLength: 1, maxLength: 255 },
      description: ai
        ? 'Required with `"apply": true` (the request then writes).'
        : 'Required on every public write: a repeat with the same key and request replays the first answer (`Idempotent-Replayed: true`).',
    });
  }
  if (route.auth === 'key' && route.method === 'PUT') {
    out.push({ name: 'If-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'The version the update is for, as `"<version>"` (or `version` in the body); another is `409 VERSION_CONFLICT`.' });
  }
  if (route.cachedRead?.single || route.doc?.conditional) {
    out.push({ name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'An ETag of an earlier answer: `304` while it is still the answer.' });
  }
  return out;
}

function operationObject(route: RouteDef, operationIds: Set<string>, components: Record<string, JsonSchema>, content: ContentSchemas): Doc {
  const params = [...route.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  let operationId = route.op?.name ?? `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+/g, '_')}`;
  for (let n = 2; operationIds.has(operationId); n++) operationId = `${route.op?.name ?? operationId}_${n}`;
  operationIds.add(operationId);
  const tag = route.path.startsWith('/api/v1/admin/auth/') ? 'auth' : route.path.startsWith('/api/v1/admin') ? 'admin' : route.path.startsWith('/api/') ? 'public' : 'operating';
  const out: Doc = {
    operationId,
    tags: [tag],
    summary: `${route.method} ${route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`,
    ...(route.op ? { description: `Runs the \`${route.op.name}\` operation (the same as the CLI's).` } : {}),
    security: securityOf(route),
    responses: {
      [String(route.op?.status ?? route.doc?.status ?? 200)]: delivered(route, content),
      ...(route.cachedRead?.single || route.doc?.conditional ? { 304: { description: 'Not modified: the `If-None-Match` sent holds the answer\'s ETag', headers: headerRefs(['ETag', ...rateLimitHeaders]) } } : {}),
      ...(route.auth === 'key' ? { 429: { $ref: '#/components/responses/RateLimited' } } : {}),
      default: { $ref: '#/components/responses/Error' },
    },
  };
  const parameters: Doc[] = params.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
  parameters.push(...headerParameters(route));
  if (route.method === 'GET') parameters.push(...readQueryParameters[docKey(route)] ?? [], ...(route.doc?.paged ? paging : []));
  if (parameters.length) out.parameters = parameters;
  const input = ['POST', 'PUT', 'PATCH'].includes(route.method) ? inputSchema(route, components) : null;
  const form = route.doc?.form;
  if (form) {
    const file = { type: 'string', contentMediaType: 'application/octet-stream' };
    const text = { type: 'string' };
    const schema = {
      type: 'object',
      required: [form.files],
      properties: {
        [form.files]: form.many ? { type: 'array', items: file } : file,
        altText: text,
        folder: text,
        ...(form.many ? {} : { filename: { ...text, description: 'The name to keep (the file part\'s own name by default)' } }),
      },
    };
    out.requestBody = { required: true, content: { 'multipart/form-data': { schema } } };
  } else if (input) {
    const schema = route.op?.body || route.op?.bodySchema ? input : withoutPathMembers(input, params);
    // A body with nothing to send (publish, unpublish) may be left out.
    const empty = isRecord(schema.properties) && Object.keys(schema.properties).length === 0;
    out.requestBody = { required: !empty, content: { 'application/json': { schema } } };
  }
  return out;
}

/** The whole document: the routes of `cms serve` and the content types of the project. */
export function openApiDocument(content: ContentSchemas, routes: RouteDef[]): Doc {
  const paths: Record<string, Record<string, Doc>> = {};
  const operationIds = new Set<string>();
  const inputComponents: Record<string, JsonSchema> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    if (path.includes('*')) continue; // the admin app's files are not part of the API
    (paths[path] ??= {})[route.method.toLowerCase()] = operationObject(route, operationIds, inputComponents, content);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'cms API',
      version: '1',
      description: 'The public content API (/api/v1, API keys) and the admin API (/api/v1/admin, a signed-in session), generated from the routes and operations of this server.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    tags: [
      { name: 'public', description: 'Public API: an API key (public, preview or secret)' },
      { name: 'auth', description: 'Sign-in and session' },
      { name: 'admin', description: 'Admin API: a signed-in member and X-Project' },
      { name: 'operating', description: 'Health, readiness and metrics' },
    ],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        previewKey: { type: 'apiKey', in: 'header', name: 'X-Preview-Key' },
        apiKeyQuery: { type: 'apiKey', in: 'query', name: 'api_key' },
        previewKeyQuery: { type: 'apiKey', in: 'query', name: 'preview' },
        session: { type: 'apiKey', in: 'cookie', name: sessionCookieName },
      },
      responses: {
        Error: {
          description: 'An error: the contract\'s envelope',
          headers: headerRefs(['X-Request-Id']),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
        RateLimited: {
          description: '`RATE_LIMITED`: over the key\'s limit; `details.retryAfter` is the `Retry-After` header\'s seconds.',
          headers: headerRefs(['Retry-After', ...rateLimitHeaders, 'X-Request-Id']),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      headers: responseHeaderDocs,
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string', enum: [...errorCodes] }, message: { type: 'string' }, details: {} },
            },
          },
        },
        CmsPageWrite: writeShape('page'),
        ...blogAndMediaSchemas,
        CmsItemWrite: writeShape('item'),
        ...inputComponents,
        ...content.schemas,
      },
    },
  };
}

/**
 * `GET /api/v1/openapi.json`: any key of the project (public, preview or secret), since the
 * document holds the project's content types. `routes` is the server's whole route table.
 */
export function openApiRoute(routes: () => RouteDef[]): RouteDef {
  return {
    method: 'GET', path: '/api/v1/openapi.json', auth: 'key', op: { name: 'schema.jsonSchema' },
    async handle(rc) {
      return json(openApiDocument(await rc.run('schema.jsonSchema', {}), routes()));
    },
  };
}
