import { CmsError } from '../core/errors.js';

/**
 * Whether an `If-None-Match` header (one or more tags, or `*`) matches the ETag: compared weakly,
 * as RFC 9110 says for 304 answers, so `W/"x"` matches `"x"`.
 */
export function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * The version a write expects: `If-Match: "3"` (or W/"3", or 3), else the body's `version`,
 * passed on as sent so that a malformed one is refused by the operation rather than ignored.
 * `If-Match: *` (HTTP: any current version) expects none of its own: the body's still counts.
 */
export function expectedVersion(headers: Headers, bodyVersion: unknown): unknown {
  const header = headers.get('if-match');
  if (!header || header.trim() === '*') return bodyVersion;
  const m = /^(?:W\/)?"?(\d+)"?$/.exec(header.trim());
  if (!m) throw new CmsError('VALIDATION_FAILED', 'If-Match must hold the expected version, like "3"', [{ path: 'If-Match', message: 'not a version number' }]);
  return Number(m[1]);
}
