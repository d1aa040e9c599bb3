import { LRUCache } from 'lru-cache';
import type { Actor } from '../core/actor.js';
import { CmsError } from '../core/errors.js';
import { findSessionUser, listMemberships, type MembershipView, type SessionUser } from '../core/auth/index.js';
import { findKeyActor, keyTypeOf, keyUseResolutionMs, recordKeyUse } from '../core/keys/operations.js';
import type { Role } from '../core/roles.js';
import type { Cms } from '../runtime.js';

export type KeyActor = Extract<Actor, { kind: 'key' }>;

/**
 * Key lookups are kept in memory for 30 seconds (the 10,000 most recently used keys), and a kept
 * answer comes back at once, without a promise, so a cache hit on the fast path never waits. A
 * revocation (here or, on PostgreSQL, in another process) drops them all at once, so a revoked key
 * is refused on the next request; a lookup that was under way when it came is not kept.
 *
 * Each valid key's use is recorded (its `lastUsedAt`, to the minute) after the request has it:
 * at most one statement a minute per key from this engine, not waited for, and a failure to write
 * it is logged, never the request's failure.
 */
export function createKeyAuthenticator(cms: Cms): (presented: string) => KeyActor | null | Promise<KeyActor | null> {
  const known = new LRUCache<string, { actor: KeyActor | null }>({ max: 10_000, ttl: 30_000 });
  const recorded = new LRUCache<string, true>({ max: 10_000, ttl: keyUseResolutionMs });
  let generation = 0;
  cms.events.on('keys-changed', () => {
    generation++;
    known.clear();
  });
  const used = (actor: KeyActor | null): KeyActor | null => {
    if (actor && !recorded.has(actor.keyId)) {
      recorded.set(actor.keyId, true);
      recordKeyUse(cms.db, actor.keyId, cms.clock.now())
        .catch((e: unknown) => cms.log.warn('could not record the use of an API key', { keyId: actor.keyId, error: String(e) }));
    }
    return actor;
  };
  return (presented) => {
    const hit = known.get(presented);
    if (hit) return used(hit.actor);
    const asked = generation;
    return findKeyActor(cms.db, presented).then((actor) => {
      if (asked === generation) known.set(presented, { actor });
      return used(actor);
    });
  };
}

export interface KeyCredentials {
  apiKey: KeyActor | null;
  preview: KeyActor | null;
}

/** True when any `api_key` of the query is a secret key (by its prefix). */
export const secretInQuery = (query: URLSearchParams): boolean => query.getAll('api_key').some((k) => keyTypeOf(k) === 'secret');

/**
 * The public API's credentials: `X-API-Key` (or `api_key` in the query, for public keys only)
 * and a preview key in `X-Preview-Key` or `preview`. With `ignorePreview` (reads that have no
 * draft state, such as media metadata) a preview key is not looked at at all, valid or not.
 */
export async function readKeyCredentials(
  authenticate: (k: string) => Promise<KeyActor | null>,
  headers: Headers,
  query: URLSearchParams,
  options: { ignorePreview?: boolean } = {},
): Promise<KeyCredentials> {
  const headerKey = headers.get('x-api-key');
  const queryKey = query.get('api_key');
  let apiKey: KeyActor | null = null;
  // A secret key in the query is refused wherever it is, beside a header key or another api_key too.
  if (secretInQuery(query)) {
    throw new CmsError('UNAUTHORIZED', 'Secret keys must never be sent in the query string; send them in the X-API-Key header');
  }
  const presented = headerKey ?? queryKey;
  if (presented) {
    apiKey = keyTypeOf(presented) ? await authenticate(presented) : null;
    if (!apiKey || apiKey.type === 'preview') {
      throw new CmsError('UNAUTHORIZED', 'API key required via header or query: the key given is invalid or revoked');
    }
  }
  if (options.ignorePreview) return { apiKey, preview: null };
  // Every preview key sent must be valid: one in the header and one in the query are both checked
  // (an invalid one is refused beside a valid one), and the header's is the one used.
  let preview: KeyActor | null = null;
  for (const previewValue of [headers.get('x-preview-key'), query.get('preview')]) {
    if (!previewValue) continue;
    const found = previewValue.startsWith('preview_') ? await authenticate(previewValue) : null;
    if (!found || found.type !== 'preview') throw new CmsError('INVALID_PREVIEW_KEY', 'Invalid or revoked preview key');
    if ((apiKey && apiKey.projectId !== found.projectId) || (preview && preview.projectId !== found.projectId)) {
      throw new CmsError('INVALID_PREVIEW_KEY', 'The preview key belongs to another project than the API key');
    }
    preview ??= found;
  }
  return { apiKey, preview };
}

export const sessionCookieName = 'cms_session';

/**
 * The cookie's value as sent (still percent-encoded), or null. Not h3's getCookie: it hands back a
 * value that is not valid percent-encoding as it is, where the API answers 400.
 */
function rawCookie(headers: Headers, name: string): string | null {
  const raw = headers.get('cookie');
  if (!raw) return null;
  for (const part of raw.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return null;
}

/** The cookie's decoded value, or null; a value that is not valid percent-encoding is an invalid session (401). */
export function readCookie(headers: Headers, name: string): string | null {
  const value = rawCookie(headers, name);
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    throw new CmsError('UNAUTHORIZED', `The ${name} cookie is not valid percent-encoding; sign in again to replace it`);
  }
}

/**
 * A signed-in member: the session cookie, and the project named by `X-Project` (or the user's
 * only project). Returns the actor with the role of that project, and the project's slug.
 */
export async function readSessionActor(cms: Cms, headers: Headers): Promise<{ actor: Extract<Actor, { kind: 'user' }>; project: string | undefined }> {
  const user = await readSessionUser(cms, headers);
  const named = headers.get('x-project') ?? undefined;
  let projectSlug: string | undefined;
  let role: Role | null = null;
  if (named) {
    const project = await cms.resolveProject(named);
    role = user.memberships.find((m) => m.project.id === project.id)?.role ?? null;
    projectSlug = project.slug;
  } else if (user.memberships.length === 1) {
    role = user.memberships[0]!.role;
    projectSlug = user.memberships[0]!.project.slug;
  } else if (user.memberships.length > 1) {
    throw new CmsError('BAD_REQUEST', 'You are a member of several projects: name one in the X-Project header');
  }
  return { actor: { kind: 'user', userId: user.userId, email: user.email, role }, project: projectSlug };
}

/**
 * The signed-in user without choosing a project (sign-in status, the project list). Throws
 * UNAUTHORIZED without a valid session.
 */
export async function readSessionUser(cms: Cms, headers: Headers): Promise<SessionUser & { memberships: MembershipView[] }> {
  const token = readCookie(headers, sessionCookieName);
  if (!token) throw new CmsError('UNAUTHORIZED', 'Sign in first: POST /api/v1/admin/auth/login sets the cms_session cookie');
  const user = await findSessionUser(cms.db, token, cms.clock.now());
  if (!user) throw new CmsError('UNAUTHORIZED', 'Your session has expired or ended; sign in again');
  return { ...user, memberships: await listMemberships(cms.db, user.userId) };
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The CSRF rule: a state-changing request that carries the session cookie must be
 * JSON (which a cross-site form cannot send, and a cross-site script cannot send without a CORS
 * preflight) or come from the configured base URL's origin (multipart uploads from the admin UI).
 * `always` applies the rule without a cookie too (sign-in: no one should be signed in by another
 * site's form).
 */
export function checkCsrf(cms: Cms, req: Request, options: { always?: boolean } = {}): void {
  if (safeMethods.has(req.method)) return;
  if (!options.always && rawCookie(req.headers, sessionCookieName) === null) return;
  const mediaType = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (mediaType === 'application/json') return;
  const origin = req.headers.get('origin');
  if (origin && origin !== 'null' && originOf(origin) === originOf(cms.config.baseUrl)) return;
  throw new CmsError(
    'FORBIDDEN',
    `Cross-site request refused: send the body as Content-Type: application/json, or send an Origin header equal to ${originOf(cms.config.baseUrl) ?? cms.config.baseUrl}`,
  );
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
