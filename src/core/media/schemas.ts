import { z } from 'zod';
import { cutText } from '../../lib/cut-text.js';

/** Folders are flat names: no slashes, no control characters, not `.` or `..`. */
export const folderName = z.string().trim().min(1).max(100)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^/\\\u0000-\u001f\u007f]+$/, 'must not contain slashes or control characters')
  .refine((v) => v !== '.' && v !== '..', 'must not be "." or ".."');

/**
 * The name a file was uploaded with, as a display name: path parts (`C:\fakepath\a.png`,
 * `../a.png`) and control characters are dropped.
 */
export const originalFilename = z.string().max(1024).transform((raw, ctx) => {
  // eslint-disable-next-line no-control-regex
  const base = cutText((raw.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim(), 255);
  if (!base || base === '.' || base === '..') {
    ctx.addIssue({ code: 'custom', message: 'must be a file name' });
    return z.NEVER;
  }
  return base;
});

export const altText = z.string().max(1000);

/** Query numbers arrive as strings from HTTP and as numbers from the CLI. */
const queryInt = (min: number, max: number) => z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)])
  .pipe(z.number().int(`must be a whole number from ${min} to ${max}`).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

export const pageParam = queryInt(1, 1_000_000).default(1);
export const limitParam = queryInt(1, 100).default(20);

export interface Pagination {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export const paginationOf = (total: number, page: number, limit: number): Pagination =>
  ({ total, page, limit, totalPages: Math.ceil(total / limit) });

/** `true`/`false` from a query string, or a boolean. */
export const queryBool = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')]);
