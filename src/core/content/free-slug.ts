import { CmsError } from '../errors.js';

/** Slugs are stored in columns of this many characters. */
const maxSlugLength = 255;
const maxTries = 10_000;

/**
 * The first free slug of `base`, `base-2`, `base-3`, …, each cut to fit the slug column (without
 * a hyphen left dangling before the number). `taken` says whether a slug is in use where the new
 * one goes (a page type, a collection, the blog). Gives up with SLUG_EXISTS after 10,000 tries.
 */
export async function findFreeSlug(base: string, taken: (slug: string) => Promise<boolean>): Promise<string> {
  if (!(await taken(base))) return base;
  for (let n = 2; n < maxTries; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, maxSlugLength - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!(await taken(candidate))) return candidate;
  }
  throw new CmsError('SLUG_EXISTS', `No free slug left for "${base}"`);
}
