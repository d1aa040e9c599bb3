/*
 * cms/client: a typed client of the public API (/api/v1) for browsers, edge runtimes and Node.
 * It uses only fetch, URL, URLSearchParams, FormData, AbortSignal and crypto.randomUUID (with a
 * fallback), and imports nothing: the architecture test keeps it that way. docs/client.md.
 */

// ---------------------------------------------------------------------------------------------
// Types of a project (the `CmsTypes` that `cms types` generates) and what reads deliver
// ---------------------------------------------------------------------------------------------

/** The shape of the generated `CmsTypes`: fields and localized field names per page type and collection. */
export interface CmsTypesShape {
  pageTypes: object;
  collections: object;
}

/** Used when no type parameter is given: every slug, every field, unknown values. */
export interface UntypedCms {
  pageTypes: Record<string, { fields: Record<string, unknown>; localized: string }>;
  collections: Record<string, { fields: Record<string, unknown>; localized: string }>;
}

type FieldsOf<E> = E extends { fields: infer F } ? F : Record<string, unknown>;
type LocalizedOf<E> = E extends { localized: infer L extends string } ? L : never;
type PageTypeName<T extends CmsTypesShape> = keyof T['pageTypes'] & string;
type CollectionName<T extends CmsTypesShape> = keyof T['collections'] & string;
type PageEntry<T extends CmsTypesShape, K> = K extends keyof T['pageTypes'] ? T['pageTypes'][K] : never;
type CollectionEntry<T extends CmsTypesShape, K> = K extends keyof T['collections'] ? T['collections'][K] : never;

export type MediaMode = 'object' | 'url';

/** A resolved media object inside content. */
export interface CmsMedia {
  _filename: string;
  _url: string;
  _mimeType: string;
  _width?: number;
  _height?: number;
  _altText?: string;
}

/** `media: 'url'` turns every resolved media object into its URL string. */
export type WithMediaUrls<V> = V extends { _url: string; _mimeType: string }
  ? string
  : V extends readonly (infer U)[]
    ? WithMediaUrls<U>[]
    : V extends object
      ? { [K in keyof V]: WithMediaUrls<V[K]> }
      : V;
type ApplyMedia<V, M> = M extends 'url' ? WithMediaUrls<V> : V;

/** `locale: '*'` gives each localized field as `{ <code>: value | null }`. */
type ApplyLocale<F, Lz extends PropertyKey, Loc> = Loc extends '*'
  ? { [K in keyof F]: K extends Lz ? Record<string, Exclude<F[K], undefined> | null> : F[K] }
  : F;

/** A field name, or `-name` to leave one out. */
export type FieldSelector<F> = (keyof F & string) | `-${keyof F & string}`;
/** `fields: ['a', 'b']` keeps a and b; `fields: ['-a']` keeps all but a; a plain name wins over exclusions. */
export type Selected<F, S extends string> = [S] extends [never]
  ? F
  : [Exclude<S, `-${string}`>] extends [never]
    ? Omit<F, S extends `-${infer N}` ? N : never>
    : Pick<F, Extract<Exclude<S, `-${string}`>, keyof F>>;

export interface CmsSeo {
  metaTitle: string | null;
  metaDescription: string | null;
  metaRobots: string | null;
  ogTitle: string | null;
  ogDescription: string | null;
  ogImage: CmsMedia | string | null;
  canonicalUrl: string | null;
}
export interface CmsPagination { total: number; page: number; limit: number; totalPages: number }
export interface CmsRedirect { from: string; to: string; permanent: true }

/** What a read with a locale adds to each entry. */
type Fallbacks<Loc> = [Loc] extends [undefined] ? unknown : { _fallbacks: string[] };
type EnvelopeLocale<Loc> = [Loc] extends [undefined] ? unknown : { locale: string };

/** A delivered page of page type K, as the read's options shape it. */
export type PageOf<T extends CmsTypesShape, K, S extends string = never, M = 'object', Loc = undefined> = K extends string ? {
  id: string;
  name: string;
  slug: string;
  type: K;
  fields: ApplyMedia<ApplyLocale<Selected<FieldsOf<PageEntry<T, K>>, S>, LocalizedOf<PageEntry<T, K>>, Loc>, M>;
  seo: ApplyMedia<ApplyLocale<CmsSeo, keyof CmsSeo, Loc>, M>;
  publishedAt: string | null;
  updatedAt: string;
} & Fallbacks<Loc> : never;

/** A delivered item of collection K. */
export type ItemOf<T extends CmsTypesShape, K, S extends string = never, M = 'object', Loc = undefined> = K extends string ? {
  id: string;
  name: string;
  slug: string;
  type: K;
  fields: ApplyMedia<ApplyLocale<Selected<FieldsOf<CollectionEntry<T, K>>, S>, LocalizedOf<CollectionEntry<T, K>>, Loc>, M>;
  publishedAt: string | null;
  updatedAt: string;
} & Fallbacks<Loc> : never;

export type ListOf<E, Loc = undefined> = { data: E[]; pagination: CmsPagination } & EnvelopeLocale<Loc>;
export type SingleOf<E, Loc = undefined> = { data: E; redirect: CmsRedirect | null } & EnvelopeLocale<Loc>;

// ---------------------------------------------------------------------------------------------
// Filters: only a type's own field names, with the operators its field type allows
// ---------------------------------------------------------------------------------------------

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Scalar = string | number | boolean;
type NumberOperator = 'eq' | 'ne' | 'gt' | 'lt' | 'gte' | 'lte' | 'in';
type TextOperator = 'eq' | 'ne' | 'contains' | 'in';
type BooleanOperator = 'eq' | 'ne';
export type FilterOperator = 'eq' | 'ne' | 'gt' | 'lt' | 'gte' | 'lte' | 'contains' | 'in';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The operators a field's delivered type allows; `never` for lists and objects (not filterable). */
export type OperatorsFor<V> = unknown extends V
  ? FilterOperator
  : [NonNullable<V>] extends [never]
    ? never
    : [NonNullable<V>] extends [number]
      ? NumberOperator
      : [NonNullable<V>] extends [boolean]
        ? BooleanOperator
        : [NonNullable<V>] extends [string]
          ? TextOperator
          : Same<NonNullable<V>, NonNullable<Json>> extends true ? FilterOperator : never;

type ValueFor<V, O> = O extends 'in'
  ? readonly ScalarOf<V>[]
  : O extends 'gt' | 'lt' | 'gte' | 'lte'
    ? number
    : O extends 'contains'
      ? string
      : ScalarOf<V>;
type ScalarOf<V> = NonNullable<V> extends Scalar ? NonNullable<V> : Scalar;

type Condition<V> = ScalarOf<V> | { [O in OperatorsFor<V>]?: ValueFor<V, O> };

/** `{ 'fields.price': { gt: 10 }, name: { contains: 'lamp' }, 'fields.category': 'lamps' }` (several conditions: AND). */
export type Filter<F> = {
  [K in keyof F & string as [OperatorsFor<F[K]>] extends [never] ? never : `fields.${K}`]?: Condition<F[K]>;
} & {
  name?: Condition<string>;
  slug?: Condition<string>;
};

// ---------------------------------------------------------------------------------------------
// Options, write shapes, blog and media
// ---------------------------------------------------------------------------------------------

type CoreSortKey = 'createdAt' | 'updatedAt' | 'publishedAt' | 'name' | 'slug';
type Sort<K extends string> = K | `-${K}`;

interface ReadOptionsBase<M extends MediaMode, Loc extends string | undefined> {
  /** `url` delivers media as URL strings. */
  media?: M;
  /** A locale code of the project, or `*` (every locale at once). */
  locale?: Loc;
  /** Read the latest drafts with the client's preview key. */
  preview?: boolean;
  signal?: AbortSignal;
}
export interface GetOptions<S extends string, M extends MediaMode, Loc extends string | undefined> extends ReadOptionsBase<M, Loc> {
  fields?: readonly S[];
}
export interface ListOptions<S extends string, M extends MediaMode, Loc extends string | undefined> extends GetOptions<S, M, Loc> {
  page?: number;
  limit?: number;
}

export interface WriteOptions {
  /** Sent as the Idempotency-Key; one is made for each write when not given. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}
export interface UpdateOptions extends WriteOptions {
  /** The version the entry is expected to be at (sent as If-Match); 409 VERSION_CONFLICT otherwise. */
  version?: number;
}

/** Field values as written: names are checked, values are validated by the server. */
export type WriteFields<F> = { [K in keyof F]?: unknown };

export interface SeoInput {
  metaTitle?: string | null;
  metaDescription?: string | null;
  metaRobots?: string | null;
  ogTitle?: string | null;
  ogDescription?: string | null;
  ogImageId?: string | null;
  canonicalUrl?: string | null;
}

interface WriteShapeBase {
  id: string;
  name: string;
  slug: string;
  status: 'draft' | 'published';
  draftContent: Record<string, unknown>;
  publishedContent: Record<string, unknown> | null;
  version: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  publishAt: string | null;
  unpublishAt: string | null;
  draftLocales?: Record<string, Record<string, unknown>>;
  publishedLocales?: Record<string, Record<string, unknown>> | null;
}
export interface PageWrite<K extends string = string> extends WriteShapeBase {
  pageTypeId: string;
  pageTypeSlug: K;
  seo: Record<string, unknown>;
  seoLocales?: Record<string, Record<string, unknown>>;
  publishedSeoLocales?: Record<string, Record<string, unknown>> | null;
}
export interface ItemWrite<K extends string = string> extends WriteShapeBase {
  collectionTypeId: string;
  collectionTypeSlug: K;
  sortOrder: number;
}

export interface CmsBlogTerm { id: string; slug: string; name: string }
export interface CmsBlogAuthor<M = 'object'> {
  id: string;
  slug: string;
  firstName: string;
  lastName: string;
  title: string | null;
  bio: string | null;
  profileImage: ApplyMedia<CmsMedia, M> | null;
  links: Record<string, string> | null;
}
export interface CmsBlogPost<M = 'object'> {
  id: string;
  title: string;
  slug: string;
  status: 'draft' | 'published';
  summary: string | null;
  body: string | null;
  featuredImageId: string | null;
  featuredImage: ApplyMedia<CmsMedia, M> | null;
  author: CmsBlogAuthor<M> | null;
  categories: CmsBlogTerm[];
  tags: CmsBlogTerm[];
  seo: ApplyMedia<CmsSeo, M>;
  publishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}
type BlogPostKey = Exclude<keyof CmsBlogPost, 'id' | 'title' | 'slug' | 'seo' | 'publishedAt' | 'updatedAt'>;
type AlwaysPost = 'id' | 'title' | 'slug' | 'seo' | 'publishedAt' | 'updatedAt';
export type BlogPostOf<S extends string, M, Loc> = Pick<CmsBlogPost<M>, AlwaysPost> & Selected<Omit<CmsBlogPost<M>, AlwaysPost>, S> & Fallbacks<Loc>;

/** The media object of `GET /api/v1/media/:id` and of uploads. */
export interface CmsMediaItem {
  id: string;
  filename: string;
  originalFilename: string;
  mimeType: string;
  size: number;
  width?: number;
  height?: number;
  altText?: string;
  folder: string | null;
  url: string;
  createdAt: string;
  updatedAt: string;
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** The codes the API answers with (docs/content-api.md, "Errors"). */
export const cmsErrorCodes = [
  'UNAUTHORIZED', 'INVALID_PREVIEW_KEY', 'FORBIDDEN', 'NOT_FOUND', 'INVALID_QUERY', 'INVALID_FILTER_FIELD',
  'INVALID_JSON_FIELD_PATH', 'VALIDATION_FAILED', 'REQUIRED_FIELDS_MISSING', 'IDEMPOTENCY_KEY_REQUIRED',
  'IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE', 'SLUG_EXISTS', 'VERSION_CONFLICT', 'HAS_REFERENCES',
  'PAYLOAD_TOO_LARGE', 'RATE_LIMITED', 'MIGRATION_STATE', 'CONFLICT', 'BAD_REQUEST', 'SERVER_BUSY', 'INTERNAL',
  'PUBLISH_FAILED', 'UNPUBLISH_FAILED', 'AI_NOT_CONFIGURED', 'AI_PROVIDER_ERROR', 'INVALID_ARCHIVE',
] as const;
export type CmsErrorCode = (typeof cmsErrorCodes)[number];

const isErrorCode = (code: unknown): code is CmsErrorCode =>
  typeof code === 'string' && cmsErrorCodes.some((c) => c === code);

/** An error answer of the API: its status, code, message and details as the server sent them. */
export class CmsApiError extends Error {
  readonly status: number;
  readonly code: CmsErrorCode;
  readonly details: unknown;

  constructor(status: number, code: CmsErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'CmsApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

// ---------------------------------------------------------------------------------------------
// The client
// ---------------------------------------------------------------------------------------------

export interface ClientConfig {
  /** Where the server is, e.g. `https://cms.example.com` (without /api/v1). */
  baseUrl: string;
  /** A public key (reads) or a secret key (reads and writes). */
  apiKey?: string;
  /** A preview key, sent on reads with `preview: true`. */
  previewKey?: string;
  /** Another fetch (a test double, a runtime's own). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
}

type QueryValue = string | number | boolean | undefined;

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Array<[string, QueryValue]>;
  json?: unknown;
  form?: FormData;
  preview?: boolean;
  write?: WriteOptions & { version?: number };
  signal?: AbortSignal | undefined;
}

/** A fresh Idempotency-Key: crypto.randomUUID where it exists, else a random v4 UUID from getRandomValues or Math.random. */
export function makeIdempotencyKey(): string {
  const c = globalThis.crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The filter as `filter[<field>][<op>]=<value>` query pairs (`in` lists joined by commas). */
function filterPairs(filter: object | undefined): Array<[string, QueryValue]> {
  const out: Array<[string, QueryValue]> = [];
  for (const [field, condition] of Object.entries(filter ?? {})) {
    if (condition === undefined) continue;
    if (typeof condition !== 'object' || condition === null) {
      out.push([`filter[${field}]`, String(condition)]);
      continue;
    }
    for (const [op, value] of Object.entries(condition)) {
      if (value === undefined) continue;
      out.push([`filter[${field}][${op}]`, Array.isArray(value) ? value.map(String).join(',') : String(value)]);
    }
  }
  return out;
}

const joined = (value: string | readonly string[] | undefined): string | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? value : value.join(',');

function readQuery(o: { fields?: readonly string[]; media?: string; locale?: string; page?: number; limit?: number; sort?: string | readonly string[] }): Array<[string, QueryValue]> {
  return [
    ['fields', o.fields ? o.fields.join(',') : undefined],
    ['media', o.media],
    ['locale', o.locale],
    ['page', o.page],
    ['limit', o.limit],
    ['sort', joined(o.sort)],
  ];
}

/**
 * The JSON answer, typed as the API documents it. The server's answers are not checked at run
 * time (that would mean shipping the schema to the browser): the generated types are the contract.
 */
function answerAs<T>(value: unknown): T {
  // A typed view of the parsed JSON: the API's documented shape (see the comment above).
  return value as T;
}

export function createClient<T extends CmsTypesShape = UntypedCms>(config: ClientConfig) {
  const base = config.baseUrl.replace(/\/+$/, '');
  const doFetch = config.fetch ?? ((input: string, init: RequestInit) => globalThis.fetch(input, init));

  async function call<R>(c: Call): Promise<R> {
    const url = new URL(`${base}${c.path}`);
    for (const [k, v] of c.query ?? []) if (v !== undefined) url.searchParams.append(k, String(v));
    const headers: Record<string, string> = { accept: 'application/json' };
    if (config.apiKey) headers['x-api-key'] = config.apiKey;
    if (c.preview) {
      if (!config.previewKey) throw new CmsApiError(0, 'BAD_REQUEST', 'preview: true needs a previewKey in createClient()');
      headers['x-preview-key'] = config.previewKey;
    }
    let body: string | FormData | undefined;
    if (c.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(c.json);
    } else if (c.form) body = c.form;
    if (c.write) {
      headers['idempotency-key'] = c.write.idempotencyKey ?? makeIdempotencyKey();
      if (c.write.version !== undefined) headers['if-match'] = `"${c.write.version}"`;
    }
    const init: RequestInit = { method: c.method, headers };
    if (body !== undefined) init.body = body;
    const signal = c.signal ?? c.write?.signal;
    if (signal) init.signal = signal;
    const res = await doFetch(url.toString(), init);
    const text = await res.text();
    let parsed: unknown = undefined;
    try { parsed = text ? JSON.parse(text) : undefined; } catch { parsed = undefined; }
    if (!res.ok) {
      const error = typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof parsed.error === 'object' && parsed.error !== null
        ? parsed.error : null;
      const code = error && 'code' in error && isErrorCode(error.code) ? error.code : res.status >= 500 ? 'INTERNAL' : 'BAD_REQUEST';
      const message = error && 'message' in error && typeof error.message === 'string' ? error.message : `HTTP ${res.status}`;
      throw new CmsApiError(res.status, code, message, error && 'details' in error ? error.details : undefined);
    }
    return answerAs<R>(parsed);
  }

  const seg = encodeURIComponent;

  function collection<K extends CollectionName<T>>(type: K) {
    type F = FieldsOf<CollectionEntry<T, K>>;
    const path = `/api/v1/collections/${seg(type)}`;
    return {
      list<S extends FieldSelector<F> = never, M extends MediaMode = 'object', Loc extends string | undefined = undefined>(
        options: ListOptions<S, M, Loc> & { filter?: Filter<F>; sort?: Sort<CoreSortKey | '_sortOrder' | `fields.${keyof F & string}`> | ReadonlyArray<Sort<CoreSortKey | '_sortOrder' | `fields.${keyof F & string}`>> } = {},
      ): Promise<ListOf<ItemOf<T, K, S, M, Loc>, Loc>> {
        return call({ method: 'GET', path, query: [...readQuery(options), ...filterPairs(options.filter)], preview: options.preview, signal: options.signal });
      },
      get<S extends FieldSelector<F> = never, M extends MediaMode = 'object', Loc extends string | undefined = undefined>(
        slug: string, options: GetOptions<S, M, Loc> = {},
      ): Promise<SingleOf<ItemOf<T, K, S, M, Loc>, Loc>> {
        return call({ method: 'GET', path: `${path}/${seg(slug)}`, query: readQuery(options), preview: options.preview, signal: options.signal });
      },
      async create(input: { name: string; slug: string; fields?: WriteFields<F>; sortOrder?: number; status?: 'draft' | 'published'; locale?: string }, options: WriteOptions = {}): Promise<ItemWrite<K>> {
        return (await call<{ data: ItemWrite<K> }>({ method: 'POST', path, json: input, write: options })).data;
      },
      async update(slug: string, input: { name?: string; slug?: string; fields?: WriteFields<F>; sortOrder?: number; locale?: string }, options: UpdateOptions = {}): Promise<ItemWrite<K>> {
        return (await call<{ data: ItemWrite<K> }>({ method: 'PUT', path: `${path}/${seg(slug)}`, json: input, write: options })).data;
      },
      async publish(slug: string, options: WriteOptions = {}): Promise<ItemWrite<K>> {
        return (await call<{ data: ItemWrite<K> }>({ method: 'POST', path: `${path}/${seg(slug)}/publish`, write: options })).data;
      },
      async unpublish(slug: string, options: WriteOptions = {}): Promise<ItemWrite<K>> {
        return (await call<{ data: ItemWrite<K> }>({ method: 'POST', path: `${path}/${seg(slug)}/unpublish`, write: options })).data;
      },
      delete(slug: string, options: WriteOptions & { force?: boolean } = {}): Promise<{ success: true }> {
        return call({ method: 'DELETE', path: `${path}/${seg(slug)}`, query: [['force', options.force ? 'true' : undefined]], write: options });
      },
    };
  }

  type AnyPageFields = FieldsOf<PageEntry<T, PageTypeName<T>>>;

  const pages = {
    list<K extends PageTypeName<T> = PageTypeName<T>, S extends FieldSelector<FieldsOf<PageEntry<T, K>>> = never, M extends MediaMode = 'object', Loc extends string | undefined = undefined>(
      options: ListOptions<S, M, Loc> & { pageType?: K; sort?: Sort<CoreSortKey> | ReadonlyArray<Sort<CoreSortKey>> } = {},
    ): Promise<ListOf<PageOf<T, K, S, M, Loc>, Loc>> {
      return call({ method: 'GET', path: '/api/v1/pages', query: [['pageType', options.pageType], ...readQuery(options)], preview: options.preview, signal: options.signal });
    },
    /** One page by slug (an old slug answers the page with `redirect` filled); narrow on `data.type`. */
    get<S extends FieldSelector<AnyPageFields> = never, M extends MediaMode = 'object', Loc extends string | undefined = undefined>(
      slug: string, options: GetOptions<S, M, Loc> = {},
    ): Promise<SingleOf<PageOf<T, PageTypeName<T>, S, M, Loc>, Loc>> {
      return call({ method: 'GET', path: `/api/v1/pages/${seg(slug)}`, query: readQuery(options), preview: options.preview, signal: options.signal });
    },
    async create<K extends PageTypeName<T>>(
      input: { pageTypeSlug: K; name: string; slug: string; fields?: WriteFields<FieldsOf<PageEntry<T, K>>>; seo?: SeoInput; status?: 'draft' | 'published'; locale?: string },
      options: WriteOptions = {},
    ): Promise<PageWrite<K>> {
      return (await call<{ data: PageWrite<K> }>({ method: 'POST', path: '/api/v1/pages', json: input, write: options })).data;
    },
    async update(slug: string, input: { name?: string; slug?: string; fields?: WriteFields<AnyPageFields>; seo?: SeoInput; locale?: string }, options: UpdateOptions = {}): Promise<PageWrite<PageTypeName<T>>> {
      return (await call<{ data: PageWrite<PageTypeName<T>> }>({ method: 'PUT', path: `/api/v1/pages/${seg(slug)}`, json: input, write: options })).data;
    },
    async publish(slug: string, options: WriteOptions = {}): Promise<PageWrite<PageTypeName<T>>> {
      return (await call<{ data: PageWrite<PageTypeName<T>> }>({ method: 'POST', path: `/api/v1/pages/${seg(slug)}/publish`, write: options })).data;
    },
    async unpublish(slug: string, options: WriteOptions = {}): Promise<PageWrite<PageTypeName<T>>> {
      return (await call<{ data: PageWrite<PageTypeName<T>> }>({ method: 'POST', path: `/api/v1/pages/${seg(slug)}/unpublish`, write: options })).data;
    },
    delete(slug: string, options: WriteOptions & { force?: boolean } = {}): Promise<{ success: true }> {
      return call({ method: 'DELETE', path: `/api/v1/pages/${seg(slug)}`, query: [['force', options.force ? 'true' : undefined]], write: options });
    },
  };

  type BlogSort = Sort<'createdAt' | 'updatedAt' | 'publishedAt' | 'title' | 'slug'>;
  type Paging = { page?: number; limit?: number; signal?: AbortSignal; preview?: boolean; locale?: string };
  const blog = {
    posts: {
      list<S extends FieldSelector<Pick<CmsBlogPost, BlogPostKey>> = never, M extends MediaMode = 'object', Loc extends string | undefined = undefined>(
        options: ListOptions<S, M, Loc> & { category?: string | readonly string[]; tag?: string | readonly string[]; author?: string | readonly string[]; sort?: BlogSort | readonly BlogSort[] } = {},
      ): Promise<ListOf<BlogPostOf<S, M, Loc>, Loc>> {
        const query: Array<[string, QueryValue]> = [...readQuery(options), ['category', joined(options.category)], ['tag', joined(options.tag)], ['author', joined(options.author)]];
        return call({ method: 'GET', path: '/api/v1/blog/posts', query, preview: options.preview, signal: options.signal });
      },
      get<S extends FieldSelector<Pick<CmsBlogPost, BlogPostKey>> = never, M extends MediaMode = 'object', Loc extends string | undefined = undefined>(
        slug: string, options: GetOptions<S, M, Loc> = {},
      ): Promise<{ data: BlogPostOf<S, M, Loc> } & EnvelopeLocale<Loc>> {
        return call({ method: 'GET', path: `/api/v1/blog/posts/${seg(slug)}`, query: readQuery(options), preview: options.preview, signal: options.signal });
      },
    },
    authors: {
      list<M extends MediaMode = 'object'>(options: Paging & { media?: M } = {}): Promise<ListOf<CmsBlogAuthor<M>>> {
        return call({ method: 'GET', path: '/api/v1/blog/authors', query: readQuery(options), preview: options.preview, signal: options.signal });
      },
    },
    categories: {
      list(options: Paging = {}): Promise<ListOf<CmsBlogTerm>> {
        return call({ method: 'GET', path: '/api/v1/blog/categories', query: readQuery(options), preview: options.preview, signal: options.signal });
      },
    },
    tags: {
      list(options: Paging = {}): Promise<ListOf<CmsBlogTerm>> {
        return call({ method: 'GET', path: '/api/v1/blog/tags', query: readQuery(options), preview: options.preview, signal: options.signal });
      },
    },
  };

  const media = {
    /** The media item's metadata (`GET /api/v1/media/:id`). */
    async get(id: string, options: { signal?: AbortSignal } = {}): Promise<CmsMediaItem> {
      return (await call<{ data: CmsMediaItem }>({ method: 'GET', path: `/api/v1/media/${seg(id)}`, signal: options.signal })).data;
    },
    /** Uploads one file (a secret key with media:write). */
    async upload(file: Blob, options: WriteOptions & { filename?: string; altText?: string; folder?: string } = {}): Promise<CmsMediaItem> {
      const form = new FormData();
      if (options.filename !== undefined) form.append('file', file, options.filename);
      else form.append('file', file);
      if (options.altText !== undefined) form.append('altText', options.altText);
      if (options.folder !== undefined) form.append('folder', options.folder);
      return (await call<{ data: CmsMediaItem }>({ method: 'POST', path: '/api/v1/media', form, write: options })).data;
    },
  };

  return { pages, collection, blog, media };
}

export type CmsClient<T extends CmsTypesShape = UntypedCms> = ReturnType<typeof createClient<T>>;
