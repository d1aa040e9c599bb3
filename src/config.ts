import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { isSlug, slugPattern } from './lib/slug.js';
import { errorMessage } from './lib/unknown-values.js';
import { withoutBom } from './lib/bom.js';

export const configFileName = 'cms.config.json';

const maxProxyHops = 10;

export const aiProviders = ['openai-compatible', 'anthropic'] as const;
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL like http://localhost:11434/v1' });
export type AiProviderName = (typeof aiProviders)[number];

/** Where AI requests go (docs/ai.md). `provider`, `baseUrl` or `model` missing: AI is not configured. */
export interface AiConfig {
  provider: AiProviderName | null;
  baseUrl: string | null;
  model: string | null;
  /** From CMS_AI_API_KEY only; never written anywhere, never in an error or a log line. */
  apiKey: string | null;
  timeoutMs: number;
  /** Calls per minute, per key and per member. */
  rateLimit: number;
  images: boolean;
  /** OpenAI-compatible servers: `response_format` json_schema (true) or json_object (false). */
  structuredOutputs: boolean;
}

export const defaultAiConfig: AiConfig = {
  provider: null, baseUrl: null, model: null, apiKey: null, timeoutMs: 60_000, rateLimit: 30, images: true, structuredOutputs: true,
};

/**
 * `CMS_TRUST_PROXY`: how many proxies stand in front of the server (0: none, the socket's address
 * is the client's), or `false`/`off`: the client address is unknown.
 */
const trustProxyEnv = z.union([
  z.enum(['false', 'off']).transform(() => false as const),
  z.string().regex(/^\d{1,2}$/).transform(Number).pipe(z.number().int().max(maxProxyHops)),
]);

/** What `cms.config.json` may hold. Every member is optional: no file at all works too. */
export const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  project: z.string().regex(slugPattern, 'must be a slug: lowercase letters, digits and single hyphens').optional(),
  dataDir: z.string().optional(),
  schemasDir: z.string().optional(),
  /** Where `cms dev` writes the TypeScript types of `cms types` after every schema push (docs/cli-dev.md). */
  types: z.strictObject({ out: z.string().min(1) }).optional(),
  databaseUrl: z.string().optional(),
  /** PostgreSQL only: prepared statements (default on); off behind a pooler that cannot hold them. */
  postgres: z.strictObject({ preparedStatements: z.boolean().optional() }).optional(),
  baseUrl: z.url().optional(),
  server: z.strictObject({
    port: z.number().int().min(0).max(65535).optional(),
    host: z.string().optional(),
    cache: z.boolean().optional(),
    /** The response cache's bound, in megabytes of answers. */
    cacheMegabytes: z.number().positive().optional(),
    corsOrigin: z.string().optional(),
    rateLimit: z.strictObject({ requests: z.number().int().positive(), windowSeconds: z.number().int().positive() }).nullable().optional(),
    /** How long a stopping server lets background work in flight (webhook attempts) finish. */
    shutdownGraceMs: z.number().int().min(0).optional(),
    trustProxy: z.union([z.literal(false), z.number().int().min(0).max(maxProxyHops)]).optional(),
    /** How long a stopping server answers /readyz with 503 before it stops taking requests (load balancers drain). */
    drainMs: z.number().int().min(0).optional(),
  }).optional(),
  /** GET /metrics (docs/operating.md): off unless enabled; behind a bearer token when one is set. */
  metrics: z.strictObject({ enabled: z.boolean().optional(), token: z.string().min(1).optional() }).optional(),
  /** The level of `cms serve`'s log lines (CMS_LOG_LEVEL). */
  logLevel: z.enum(['error', 'warn', 'info', 'debug', 'silent']).optional(),
  media: z.strictObject({ maxUploadBytes: z.number().int().positive().optional() }).optional(),
  /** Where media files are kept (docs/media.md): the data folder (the default) or an S3-compatible bucket. */
  storage: z.strictObject({
    driver: z.enum(['local', 's3']).optional(),
    bucket: z.string().min(3, 'must be a bucket name').max(63).optional(),
    prefix: z.string().max(200).optional(),
    region: z.string().min(1).optional(),
    endpoint: httpUrl.optional(),
    forcePathStyle: z.boolean().optional(),
    /** Answer file URLs with a 302 to a short-lived signed URL of the bucket instead of streaming them. */
    redirect: z.boolean().optional(),
    /** How long a signed URL of the redirect mode is valid, in seconds (60 to 7 days). */
    redirectSeconds: z.number().int().min(60).max(604800).optional(),
  }).optional(),
  webhooks: z.strictObject({
    /** Refuse receivers on private and loopback addresses (link-local and metadata ones always are). */
    blockPrivate: z.boolean().optional(),
  }).optional(),
  /** The site's preview page (docs/admin-app.md): a URL template with {type} {slug} {id} {locale} {previewKey}. */
  preview: z.strictObject({
    url: z.string().regex(/^https?:\/\/\S+$/, 'must be an http(s) URL template like http://localhost:5173/{type}/{slug}?preview={previewKey}').optional(),
  }).optional(),
  /** AI assistance (docs/ai.md). The API key is never here: only CMS_AI_API_KEY in the environment. */
  ai: z.strictObject({
    provider: z.enum(aiProviders).optional(),
    baseUrl: httpUrl.optional(),
    model: z.string().min(1).optional(),
    /** How long one call to the provider may take, in milliseconds. */
    timeoutMs: z.number().int().positive().optional(),
    /** AI calls per minute for each key and each member. */
    rateLimit: z.number().int().positive().optional(),
    /** Whether the model accepts images (alt text); false refuses alt-text requests up front. */
    images: z.boolean().optional(),
    /** OpenAI-compatible servers: ask for a JSON-schema answer (true) or only for JSON (false, for older servers). */
    structuredOutputs: z.boolean().optional(),
  }).optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

export const storageDrivers = ['local', 's3'] as const;

/** An S3-compatible bucket for media files; credentials come from the standard AWS variables. */
export interface S3StorageConfig {
  bucket: string;
  /** Keys start with it (`cms/` puts files at `cms/<project>/<file>`); empty by default. */
  prefix: string;
  region: string | null;
  /** For stores other than AWS (R2, MinIO, ...): their endpoint URL. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** File URLs answer 302 to a signed URL valid for `redirectSeconds`, instead of streaming the bytes. */
  redirect: boolean;
  redirectSeconds: number;
}

/**
 * Which store holds media files, and the bucket's settings whenever a bucket is configured (also
 * with the local driver: `cms media migrate-storage --to s3` copies into it before the switch).
 */
export interface StorageConfig {
  driver: 'local' | 's3';
  s3: S3StorageConfig | null;
}

export const defaultRedirectSeconds = 300;

export interface CmsConfig {
  /** The folder the config file lives in (or the working folder without one). */
  rootDir: string;
  configFile: string | null;
  project: string;
  /** Whether opening the engine makes the project when it does not exist yet. */
  createProject: boolean;
  dataDir: string;
  schemasDir: string;
  /** The types file `cms dev` keeps up to date (`types.out`), or null. */
  typesOut: string | null;
  databaseUrl: string | undefined;
  /** PostgreSQL: run statements prepared (postgres.preparedStatements, CMS_PG_PREPARED_STATEMENTS; on by default). */
  preparedStatements: boolean;
  baseUrl: string;
  /** baseUrl came from CMS_BASE_URL or the file; otherwise it follows where `cms serve` listens. */
  baseUrlSet: boolean;
  port: number;
  host: string;
  cache: boolean;
  /** The response cache's bound in bytes (server.cacheMegabytes, CMS_CACHE_MB; 64 MB by default). */
  cacheMaxBytes: number;
  corsOrigin: string;
  rateLimit: { requests: number; windowSeconds: number } | null;
  /**
   * How many trusted proxies stand in front of `cms serve`: 0 means none (the socket's address is
   * the client's), N means the client address is the N-th entry from the right of
   * X-Forwarded-For. Null: the client address is unknown, and sign-in failures are not counted
   * per address.
   */
  trustProxy: number | null;
  maxUploadBytes: number;
  /** Webhook attempts in flight when the server stops get this long to finish (CMS_SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** Refuse webhook receivers on private and loopback addresses (CMS_WEBHOOK_BLOCK_PRIVATE). */
  webhookBlockPrivate: boolean;
  /** AI assistance: the provider, its address and model (CMS_AI_*; docs/ai.md). */
  ai: AiConfig;
  /** The site's preview URL template (preview.url, CMS_PREVIEW_URL), or null: the admin app then shows the preview JSON. */
  previewUrl: string | null;
  /** GET /metrics: served when enabled (CMS_METRICS=on), behind `Bearer <token>` when a token is set (CMS_METRICS_TOKEN). */
  metrics: { enabled: boolean; token: string | null };
  /** The level of the server's log lines (CMS_LOG_LEVEL; info by default). */
  logLevel: LogLevel;
  /** A stopping server answers /readyz 503 for this long before it stops taking requests (CMS_SHUTDOWN_DRAIN_MS; 0 by default). */
  drainMs: number;
  /** Where media files are kept: the data folder (`local`, the default) or an S3-compatible bucket (CMS_STORAGE=s3, CMS_S3_*). */
  storage: StorageConfig;
}

export const logLevels = ['error', 'warn', 'info', 'debug', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];
const isLogLevel = (value: string): value is LogLevel => logLevels.some((l) => l === value);

/** Ten seconds: long enough for a receiver that answers, short enough for a process manager. */
export const defaultShutdownGraceMs = 10_000;
export const defaultCacheMaxBytes = 64 * 1024 * 1024;
const defaultMaxUploadBytes = 50 * 1024 * 1024;
const defaultRateLimit = (): { requests: number; windowSeconds: number } => ({ requests: 6000, windowSeconds: 60 });

const defaultBaseUrl = (host: string, port: number) =>
  `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Walks up from `cwd` to the nearest cms.config.json. */
export function findConfigFile(cwd: string): string | null {
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, configFileName);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

export interface LoadConfigOptions {
  cwd?: string;
  configFile?: string | undefined;
  env?: NodeJS.ProcessEnv;
  project?: string | undefined;
  /** Command-line values (`cms serve --port/--host`): they win over the environment and the file. */
  port?: number | undefined;
  host?: string | undefined;
}

export function loadConfig(options: LoadConfigOptions = {}): CmsConfig {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const file = options.configFile ? resolve(cwd, options.configFile) : findConfigFile(cwd);
  let parsed: ConfigFile = {};
  if (file) {
    if (!existsSync(file)) throw new ConfigError(`Config file ${file} does not exist; check --config, or run \`cms init\` to create one`);
    let text: string;
    try {
      text = withoutBom(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ConfigError(`Cannot read the config file ${file}: ${errorMessage(e)}`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new ConfigError(`${file} is not valid JSON: ${errorMessage(e)}`);
    }
    const result = configFileSchema.safeParse(raw);
    if (!result.success) {
      const problems = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      throw new ConfigError(`${file} is invalid: ${problems}`);
    }
    parsed = result.data;
  }
  const rootDir = file ? dirname(file) : resolve(cwd);
  const port = options.port ?? (env.PORT ? Number(env.PORT) : parsed.server?.port ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${options.port !== undefined ? '--port' : 'PORT'} must be a port number (0-65535), got ${options.port ?? env.PORT}`);
  }
  const host = options.host || env.HOST || parsed.server?.host || '127.0.0.1';
  // Paths in the file are relative to the file; a path in the environment to where the command runs.
  const dataDir = env.CMS_DATA_DIR ? resolve(cwd, env.CMS_DATA_DIR) : resolve(rootDir, parsed.dataDir || '.cms');
  if (env.CMS_BASE_URL && !z.url().safeParse(env.CMS_BASE_URL).success) {
    throw new ConfigError(`CMS_BASE_URL must be an absolute URL like https://cms.example.com, got ${env.CMS_BASE_URL}`);
  }
  const baseUrl = (env.CMS_BASE_URL || parsed.baseUrl || defaultBaseUrl(host, port)).replace(/\/+$/, '');
  const maxUpload = env.CMS_MAX_UPLOAD_BYTES ? Number(env.CMS_MAX_UPLOAD_BYTES) : parsed.media?.maxUploadBytes ?? defaultMaxUploadBytes;
  if (!Number.isSafeInteger(maxUpload) || maxUpload <= 0) {
    throw new ConfigError(`CMS_MAX_UPLOAD_BYTES must be a positive number of bytes, got ${env.CMS_MAX_UPLOAD_BYTES}`);
  }
  const previewUrl = env.CMS_PREVIEW_URL || parsed.preview?.url || null;
  if (previewUrl !== null && !/^https?:\/\/\S+$/.test(previewUrl)) {
    throw new ConfigError(`CMS_PREVIEW_URL must be an http(s) URL template like http://localhost:5173/{type}/{slug}?preview={previewKey}, got ${previewUrl}`);
  }
  const project = options.project || env.CMS_PROJECT || parsed.project || 'default';
  if (!isSlug(project)) {
    const from = options.project ? '--project' : env.CMS_PROJECT ? 'CMS_PROJECT' : 'project';
    throw new ConfigError(`${from} must be a project slug (lowercase letters, digits and single hyphens, like my-site), got "${project}"`);
  }
  const rateLimit = env.CMS_RATE_LIMIT
    ? parseRateLimit(env.CMS_RATE_LIMIT)
    : parsed.server?.rateLimit === undefined ? defaultRateLimit() : parsed.server.rateLimit;
  const shutdownGraceMs = env.CMS_SHUTDOWN_GRACE_MS ? Number(env.CMS_SHUTDOWN_GRACE_MS) : parsed.server?.shutdownGraceMs ?? defaultShutdownGraceMs;
  if (!Number.isSafeInteger(shutdownGraceMs) || shutdownGraceMs < 0) {
    throw new ConfigError(`CMS_SHUTDOWN_GRACE_MS must be a number of milliseconds (0 or more), got ${env.CMS_SHUTDOWN_GRACE_MS}`);
  }
  const cacheMegabytes = env.CMS_CACHE_MB ? Number(env.CMS_CACHE_MB) : parsed.server?.cacheMegabytes;
  if (cacheMegabytes !== undefined && !(Number.isFinite(cacheMegabytes) && cacheMegabytes > 0)) {
    throw new ConfigError(`CMS_CACHE_MB must be a positive number of megabytes, got ${env.CMS_CACHE_MB}`);
  }
  const webhookBlockPrivate = env.CMS_WEBHOOK_BLOCK_PRIVATE
    ? parseBoolean('CMS_WEBHOOK_BLOCK_PRIVATE', env.CMS_WEBHOOK_BLOCK_PRIVATE)
    : parsed.webhooks?.blockPrivate ?? false;
  let trustProxy: number | null = parsed.server?.trustProxy === undefined || parsed.server.trustProxy === false ? null : parsed.server.trustProxy;
  if (env.CMS_TRUST_PROXY) {
    const result = trustProxyEnv.safeParse(env.CMS_TRUST_PROXY.trim().toLowerCase());
    if (!result.success) {
      throw new ConfigError(`CMS_TRUST_PROXY must be the number of proxies in front of the server (0-${maxProxyHops}) or false, got ${env.CMS_TRUST_PROXY}`);
    }
    trustProxy = result.data === false ? null : result.data;
  }
  const ai = aiConfigOf(parsed.ai, env);
  const metricsEnabled = env.CMS_METRICS ? parseBoolean('CMS_METRICS', env.CMS_METRICS.replace(/^on$/i, 'true').replace(/^off$/i, 'false')) : parsed.metrics?.enabled ?? false;
  const logLevel = env.CMS_LOG_LEVEL ? env.CMS_LOG_LEVEL.trim().toLowerCase() : parsed.logLevel ?? 'info';
  if (!isLogLevel(logLevel)) throw new ConfigError(`CMS_LOG_LEVEL must be one of ${logLevels.join(', ')}, got ${env.CMS_LOG_LEVEL}`);
  const drainMs = env.CMS_SHUTDOWN_DRAIN_MS ? Number(env.CMS_SHUTDOWN_DRAIN_MS) : parsed.server?.drainMs ?? 0;
  if (!Number.isSafeInteger(drainMs) || drainMs < 0) {
    throw new ConfigError(`CMS_SHUTDOWN_DRAIN_MS must be a number of milliseconds (0 or more), got ${env.CMS_SHUTDOWN_DRAIN_MS}`);
  }
  return {
    rootDir,
    configFile: file,
    project,
    // A project named on the command line or in the environment must exist; the configured
    // one (or `default`) is made on first use, so a fresh folder works with no set-up.
    createProject: !(options.project || env.CMS_PROJECT),
    dataDir,
    schemasDir: resolve(rootDir, parsed.schemasDir || 'schemas'),
    typesOut: parsed.types ? resolve(rootDir, parsed.types.out) : null,
    databaseUrl: env.DATABASE_URL || parsed.databaseUrl || undefined,
    preparedStatements: env.CMS_PG_PREPARED_STATEMENTS
      ? parseBoolean('CMS_PG_PREPARED_STATEMENTS', env.CMS_PG_PREPARED_STATEMENTS)
      : parsed.postgres?.preparedStatements ?? true,
    baseUrl,
    baseUrlSet: !!(env.CMS_BASE_URL || parsed.baseUrl),
    port,
    host,
    cache: env.CMS_CACHE ? env.CMS_CACHE !== 'off' && env.CMS_CACHE !== 'false' : parsed.server?.cache ?? true,
    cacheMaxBytes: cacheMegabytes === undefined ? defaultCacheMaxBytes : Math.round(cacheMegabytes * 1024 * 1024),
    corsOrigin: env.CMS_CORS_ORIGIN || parsed.server?.corsOrigin || '*',
    rateLimit,
    trustProxy,
    maxUploadBytes: maxUpload,
    shutdownGraceMs,
    webhookBlockPrivate,
    ai,
    previewUrl,
    metrics: { enabled: metricsEnabled, token: env.CMS_METRICS_TOKEN || parsed.metrics?.token || null },
    logLevel,
    drainMs,
    storage: storageConfigOf(parsed.storage, env),
  };
}

/** The `storage` settings: each CMS_S3_* variable wins over its member of the file. */
export function storageConfigOf(file: ConfigFile['storage'], env: NodeJS.ProcessEnv): StorageConfig {
  const driver = env.CMS_STORAGE ? env.CMS_STORAGE.trim().toLowerCase() : file?.driver ?? 'local';
  if (driver !== 'local' && driver !== 's3') throw new ConfigError(`CMS_STORAGE must be one of ${storageDrivers.join(', ')}, got ${env.CMS_STORAGE}`);
  const bucket = env.CMS_S3_BUCKET || file?.bucket;
  if (!bucket) {
    if (driver === 's3') throw new ConfigError('S3 storage needs a bucket: set CMS_S3_BUCKET or storage.bucket in cms.config.json');
    return { driver, s3: null };
  }
  const endpoint = env.CMS_S3_ENDPOINT || file?.endpoint || null;
  if (endpoint !== null && !httpUrl.safeParse(endpoint).success) {
    throw new ConfigError(`CMS_S3_ENDPOINT must be an http(s) URL like https://<account>.r2.cloudflarestorage.com, got ${endpoint}`);
  }
  const redirectSeconds = env.CMS_S3_REDIRECT_SECONDS ? Number(env.CMS_S3_REDIRECT_SECONDS) : file?.redirectSeconds ?? defaultRedirectSeconds;
  if (!Number.isSafeInteger(redirectSeconds) || redirectSeconds < 60 || redirectSeconds > 604800) {
    throw new ConfigError(`CMS_S3_REDIRECT_SECONDS must be a number of seconds from 60 to 604800, got ${env.CMS_S3_REDIRECT_SECONDS}`);
  }
  return {
    driver,
    s3: {
      bucket,
      prefix: env.CMS_S3_PREFIX ?? file?.prefix ?? '',
      region: env.CMS_S3_REGION || file?.region || env.AWS_REGION || null,
      endpoint,
      forcePathStyle: env.CMS_S3_FORCE_PATH_STYLE ? parseBoolean('CMS_S3_FORCE_PATH_STYLE', env.CMS_S3_FORCE_PATH_STYLE) : file?.forcePathStyle ?? false,
      redirect: env.CMS_S3_REDIRECT ? parseBoolean('CMS_S3_REDIRECT', env.CMS_S3_REDIRECT) : file?.redirect ?? false,
      redirectSeconds,
    },
  };
}

/** The `ai` settings: the environment wins over the file; the key comes from the environment alone. */
function aiConfigOf(file: ConfigFile['ai'], env: NodeJS.ProcessEnv): AiConfig {
  const provider = env.CMS_AI_PROVIDER || file?.provider || null;
  if (provider !== null && !isAiProvider(provider)) {
    throw new ConfigError(`CMS_AI_PROVIDER must be one of ${aiProviders.join(', ')}, got ${provider}`);
  }
  const baseUrl = env.CMS_AI_BASE_URL || file?.baseUrl || null;
  if (baseUrl !== null && !httpUrl.safeParse(baseUrl).success) {
    throw new ConfigError(`CMS_AI_BASE_URL must be an absolute URL like http://localhost:11434/v1, got ${baseUrl}`);
  }
  const number = (name: string, fromFile: number | undefined, fallback: number): number => {
    const raw = env[name];
    if (!raw) return fromFile ?? fallback;
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive whole number, got ${raw}`);
    return n;
  };
  return {
    provider,
    baseUrl: baseUrl?.replace(/\/+$/, '') ?? null,
    model: env.CMS_AI_MODEL || file?.model || null,
    apiKey: env.CMS_AI_API_KEY || null,
    timeoutMs: number('CMS_AI_TIMEOUT_MS', file?.timeoutMs, defaultAiConfig.timeoutMs),
    rateLimit: number('CMS_AI_RATE_LIMIT', file?.rateLimit, defaultAiConfig.rateLimit),
    images: env.CMS_AI_IMAGES ? parseBoolean('CMS_AI_IMAGES', env.CMS_AI_IMAGES) : file?.images ?? defaultAiConfig.images,
    structuredOutputs: env.CMS_AI_STRUCTURED_OUTPUTS
      ? parseBoolean('CMS_AI_STRUCTURED_OUTPUTS', env.CMS_AI_STRUCTURED_OUTPUTS)
      : file?.structuredOutputs ?? defaultAiConfig.structuredOutputs,
  };
}

const isAiProvider = (value: string): value is AiProviderName => aiProviders.some((p) => p === value);

/**
 * What a program may hand `createCms` (the Local API): any part of the configuration, the rest
 * taken from the defaults below. Unlike `loadConfig`, nothing is read from a config file or the
 * environment. `databaseUrl`: a postgres:// URL, `memory://` for an embedded database that lives
 * as long as the engine, or nothing for the embedded database in `<dataDir>/db`.
 */
export type CmsConfigInput = Partial<CmsConfig>;

/** Every member of a configuration: `isCmsConfig` tells a complete one from a partial one. */
const configMembers: Record<keyof CmsConfig, true> = {
  rootDir: true, configFile: true, project: true, createProject: true, dataDir: true, schemasDir: true, typesOut: true, databaseUrl: true, preparedStatements: true,
  baseUrl: true, baseUrlSet: true, port: true, host: true, cache: true, cacheMaxBytes: true, corsOrigin: true, rateLimit: true, trustProxy: true,
  maxUploadBytes: true, shutdownGraceMs: true, webhookBlockPrivate: true, ai: true, previewUrl: true, metrics: true, logLevel: true, drainMs: true,
  storage: true,
};

/** True for a complete configuration (what `loadConfig` makes), which is used as it is. */
export function isCmsConfig(input: CmsConfigInput): input is CmsConfig {
  return Object.keys(configMembers).every((key) => key in input);
}

/**
 * A complete configuration from a partial one, with the defaults of a fresh folder: project
 * `default` (made on first use), data in `<rootDir>/.cms`, `rootDir` the working folder.
 */
export function resolveConfig(input: CmsConfigInput = {}): CmsConfig {
  if (isCmsConfig(input)) return input;
  const rootDir = resolve(input.rootDir ?? process.cwd());
  const project = input.project ?? 'default';
  if (!isSlug(project)) {
    throw new ConfigError(`project must be a project slug (lowercase letters, digits and single hyphens, like my-site), got "${project}"`);
  }
  const host = input.host ?? '127.0.0.1';
  const port = input.port ?? 3000;
  return {
    rootDir,
    configFile: input.configFile ?? null,
    project,
    createProject: input.createProject ?? true,
    dataDir: resolve(rootDir, input.dataDir ?? '.cms'),
    schemasDir: resolve(rootDir, input.schemasDir ?? 'schemas'),
    typesOut: input.typesOut ?? null,
    databaseUrl: input.databaseUrl,
    preparedStatements: input.preparedStatements ?? true,
    baseUrl: (input.baseUrl ?? defaultBaseUrl(host, port)).replace(/\/+$/, ''),
    baseUrlSet: input.baseUrlSet ?? input.baseUrl !== undefined,
    port,
    host,
    cache: input.cache ?? true,
    cacheMaxBytes: input.cacheMaxBytes ?? defaultCacheMaxBytes,
    corsOrigin: input.corsOrigin ?? '*',
    rateLimit: input.rateLimit === undefined ? defaultRateLimit() : input.rateLimit,
    trustProxy: input.trustProxy ?? null,
    maxUploadBytes: input.maxUploadBytes ?? defaultMaxUploadBytes,
    shutdownGraceMs: input.shutdownGraceMs ?? defaultShutdownGraceMs,
    webhookBlockPrivate: input.webhookBlockPrivate ?? false,
    ai: { ...defaultAiConfig, ...input.ai },
    previewUrl: input.previewUrl ?? null,
    metrics: input.metrics ?? { enabled: false, token: null },
    logLevel: input.logLevel ?? 'info',
    drainMs: input.drainMs ?? 0,
    storage: input.storage ?? { driver: 'local', s3: null },
  };
}

/** `true`/`1`/`yes` or `false`/`0`/`no` (any case); anything else is a mistake worth saying. */
function parseBoolean(name: string, value: string): boolean {
  if (/^(true|1|yes)$/i.test(value)) return true;
  if (/^(false|0|no)$/i.test(value)) return false;
  throw new ConfigError(`${name} must be true or false, got ${value}`);
}

/** `CMS_RATE_LIMIT=600/60` (requests per seconds), or `off`. */
function parseRateLimit(value: string): { requests: number; windowSeconds: number } | null {
  if (value === 'off' || value === '0') return null;
  const m = /^(\d+)\/(\d+)$/.exec(value);
  if (!m) throw new ConfigError(`CMS_RATE_LIMIT must look like 600/60 (requests/seconds) or off, got ${value}`);
  return { requests: Number(m[1]), windowSeconds: Number(m[2]) };
}
