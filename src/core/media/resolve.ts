import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { media } from '../../db/schema/index.js';
import { holdReferenced } from '../reference-locks.js';

export type MediaRow = typeof media.$inferSelect;

/** The resolved form of a media value in delivered content (`{ _media }`, blog `featuredImage`, `seo.ogImage`). */
export interface ResolvedMedia {
  _filename: string;
  _url: string;
  _mimeType: string;
  _width?: number;
  _height?: number;
  _altText?: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: unknown): value is string => typeof value === 'string' && uuidPattern.test(value);

/** The public file URL: no key needed, served with a long immutable cache. */
export const mediaFileUrl = (baseUrl: string, projectSlug: string, filename: string): string =>
  `${baseUrl}/api/v1/media/${encodeURIComponent(projectSlug)}/${encodeURIComponent(filename)}`;

/**
 * The live media among `ids`, keyed by lower-case id, in one query. Ids that are not UUIDs, of
 * another project, or deleted are simply missing from the map.
 */
export async function loadMedia(db: Db, projectId: string, ids: string[]): Promise<Map<string, MediaRow>> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  const found = new Map<string, MediaRow>();
  if (wanted.length === 0) return found;
  // In a write, what it names is held until it commits (reads hold nothing): the lock first, the
  // lookup behind it in the same round trip.
  const held = holdReferenced(db, wanted);
  const [, rows] = await Promise.all([held, db.select().from(media)
    .where(and(eq(media.projectId, projectId), inArray(media.id, wanted), isNull(media.deletedAt))).execute()]);
  for (const row of rows) found.set(row.id.toLowerCase(), row);
  return found;
}

/**
 * A media row as delivered content shows it: exactly the contract's members. Keys without a value
 * are left out (not null), as the contract asks; `_filename` is the name it was uploaded with,
 * `_url` the stored file (whose name holds the media's content hash, not its id).
 */
export function toResolvedMedia(row: MediaRow, baseUrl: string, projectSlug: string): ResolvedMedia {
  const out: ResolvedMedia = {
    _filename: row.originalFilename,
    _url: mediaFileUrl(baseUrl, projectSlug, row.filename),
    _mimeType: row.mimeType,
  };
  if (row.width !== null) out._width = row.width;
  if (row.height !== null) out._height = row.height;
  if (row.altText !== null && row.altText !== '') out._altText = row.altText;
  return out;
}
