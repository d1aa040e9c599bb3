import { z } from 'zod';
import type { collectionItems, LocaleValues, pages } from '../../db/schema/index.js';
import { iso } from '../../lib/iso.js';

type CommonColumns = 'id' | 'name' | 'slug' | 'status' | 'draftContent' | 'publishedContent' | 'version' | 'createdAt' | 'updatedAt' | 'publishedAt' | 'publishAt' | 'unpublishAt'
  | 'draftLocales' | 'publishedLocales';
type PageRow = Pick<typeof pages.$inferSelect, CommonColumns | 'pageTypeId' | 'seo' | 'seoLocales' | 'publishedSeoLocales'>;
type ItemRow = Pick<typeof collectionItems.$inferSelect, CommonColumns | 'collectionTypeId' | 'sortOrder'>;

/** The status column holds one of two words; anything but published reads as a draft. */
const statusOf = (status: string): 'draft' | 'published' => (status === 'published' ? 'published' : 'draft');

/** The write response shape of a page (the contract's table). */
export interface PageWriteShape {
  id: string;
  pageTypeId: string;
  pageTypeSlug: string;
  name: string;
  slug: string;
  status: 'draft' | 'published';
  draftContent: Record<string, unknown>;
  publishedContent: Record<string, unknown> | null;
  seo: Record<string, unknown>;
  version: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  publishAt: string | null;
  /** When the scheduler unpublishes it (null: not scheduled). */
  unpublishAt: string | null;
  /** Multi-locale projects only: the other locales' values of localized fields and SEO, by code. */
  draftLocales?: LocaleValues;
  publishedLocales?: LocaleValues | null;
  seoLocales?: LocaleValues;
  publishedSeoLocales?: LocaleValues | null;
}

export interface ItemWriteShape {
  id: string;
  collectionTypeId: string;
  collectionTypeSlug: string;
  name: string;
  slug: string;
  status: 'draft' | 'published';
  draftContent: Record<string, unknown>;
  publishedContent: Record<string, unknown> | null;
  sortOrder: number;
  version: number;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  publishAt: string | null;
  /** When the scheduler unpublishes it (null: not scheduled). */
  unpublishAt: string | null;
  /** Multi-locale projects only: the other locales' values of localized fields, by code. */
  draftLocales?: LocaleValues;
  publishedLocales?: LocaleValues | null;
}

/**
 * The write shapes; `withLocales` (a project with more than one locale) adds the other locales'
 * values, so an editor sees every locale. A project with one locale answers exactly as before.
 */
export const toPageWriteShape = (row: PageRow, typeSlug: string, withLocales = false): PageWriteShape => ({
  id: row.id,
  pageTypeId: row.pageTypeId,
  pageTypeSlug: typeSlug,
  name: row.name,
  slug: row.slug,
  status: statusOf(row.status),
  draftContent: row.draftContent,
  publishedContent: row.publishedContent ?? null,
  seo: row.seo,
  version: row.version,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  publishedAt: iso(row.publishedAt),
  publishAt: iso(row.publishAt),
  unpublishAt: iso(row.unpublishAt),
  ...(withLocales ? {
    draftLocales: row.draftLocales, publishedLocales: row.publishedLocales ?? null,
    seoLocales: row.seoLocales, publishedSeoLocales: row.publishedSeoLocales ?? null,
  } : {}),
});

export const toItemWriteShape = (row: ItemRow, typeSlug: string, withLocales = false): ItemWriteShape => ({
  id: row.id,
  collectionTypeId: row.collectionTypeId,
  collectionTypeSlug: typeSlug,
  name: row.name,
  slug: row.slug,
  status: statusOf(row.status),
  draftContent: row.draftContent,
  publishedContent: row.publishedContent ?? null,
  sortOrder: row.sortOrder,
  version: row.version,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  publishedAt: iso(row.publishedAt),
  publishAt: iso(row.publishAt),
  unpublishAt: iso(row.unpublishAt),
  ...(withLocales ? { draftLocales: row.draftLocales, publishedLocales: row.publishedLocales ?? null } : {}),
});

const nullableText = (max: number) => z.string().max(max).nullable().optional();

/** SEO as written: `ogImageId` (a media UUID), never `ogImage`. */
export const seoWriteSchema = z.strictObject({
  metaTitle: nullableText(255),
  metaDescription: nullableText(1000),
  metaRobots: nullableText(255),
  ogTitle: nullableText(255),
  ogDescription: nullableText(1000),
  ogImageId: z.uuid('must be a media UUID').nullable().optional(),
  canonicalUrl: z.url('must be a URL').max(2048).nullable().optional(),
}, { error: (issue) => issue.code === 'unrecognized_keys'
  ? `unknown SEO member${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}${issue.keys.includes('ogImage') ? ' (write ogImageId, a media UUID)' : ''}`
  : undefined });

export const seoKeys = ['metaTitle', 'metaDescription', 'metaRobots', 'ogTitle', 'ogDescription', 'ogImageId', 'canonicalUrl'] as const;
