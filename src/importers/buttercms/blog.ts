// The ButterCMS blog: categories and tags (matched by slug), authors (matched by email, then
// slug, then name, also against earlier imports), then posts, created fresh every time.

import type { MigrationLogLine, StoredMediaRef } from '../../core/migrations/index.js';
import { collectMediaUrls } from './convert.js';
import { rewriteHtmlText, sourceTimes } from './entries.js';
import { makeUnique, toSlug } from './names.js';
import type { SourceAuthor, SourceData, SourcePost } from './source.js';
import type { MigrationSteps } from './steps.js';
import { cutText } from '../../lib/cut-text.js';

/** Blog posts go in batches of the source's page size for posts. */
export const postBatchSize = 10;

/** Featured images, author pictures and files embedded in post bodies. */
export function blogMediaUrls(source: Pick<SourceData, 'posts' | 'authors'>, hosts: readonly string[]): string[] {
  const urls = new Set<string>();
  for (const post of source.posts) {
    if (post.featured_image) urls.add(post.featured_image);
    for (const u of collectMediaUrls(post.body, hosts)) urls.add(u);
    if (post.author?.profile_image) urls.add(post.author.profile_image);
  }
  for (const author of source.authors) if (author.profile_image) urls.add(author.profile_image);
  return [...urls];
}

// A plain check; anything that is not clearly an address is left out (with a note) rather than refused.
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const clip = (s: string, max: number) => (s.length > max ? cutText(s, max).trimEnd() : s);
const validTime = (v: string | null): string | null => (v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : null);

export interface BlogImportDeps {
  source: SourceData;
  media: Map<string, StoredMediaRef>;
  steps: MigrationSteps;
}

/** Every author the source shows: its author list, and the authors embedded in posts. */
function allAuthors(source: SourceData): SourceAuthor[] {
  const bySlug = new Map<string, SourceAuthor>();
  for (const a of source.authors) if (!bySlug.has(a.slug)) bySlug.set(a.slug, a);
  for (const p of source.posts) if (p.author?.slug && !bySlug.has(p.author.slug)) bySlug.set(p.author.slug, p.author);
  return [...bySlug.values()];
}

function allTerms(source: SourceData, kind: 'categories' | 'tags') {
  const bySlug = new Map<string, { name: string; slug: string }>();
  for (const t of [...source[kind], ...source.posts.flatMap((p) => p[kind])]) {
    const slug = toSlug(t.slug, 'term');
    if (!bySlug.has(slug)) bySlug.set(slug, { name: clip(t.name || t.slug, 255), slug });
  }
  return [...bySlug.values()];
}

export async function importBlog(deps: BlogImportDeps): Promise<void> {
  const { source, media, steps } = deps;
  const categories = allTerms(source, 'categories');
  const tags = allTerms(source, 'tags');
  const authors = allAuthors(source);
  if (source.posts.length === 0 && categories.length === 0 && tags.length === 0 && authors.length === 0) return;

  await steps.record({ progress: { phase: 'blog', done: 0, total: source.posts.length } });
  const terms = await steps.blogTerms({ categories, tags });

  const notes: MigrationLogLine[] = [];
  const authorInputs = authors.map((a) => {
    const email = a.email && emailPattern.test(a.email) ? clip(a.email, 320) : null;
    if (a.email && !email) notes.push({ level: 'warning', message: `author ${a.slug}: "${a.email}" is not an email address; left out` });
    return {
      key: a.slug,
      slug: toSlug(a.slug, 'author'),
      firstName: clip(a.first_name.trim(), 255),
      lastName: clip(a.last_name.trim(), 255),
      email,
      bio: clip(a.bio, 10_000),
      title: clip(a.title, 255),
      profileImageId: a.profile_image ? media.get(a.profile_image)?.id ?? null : null,
      links: Object.fromEntries(Object.entries(a.links).map(([k, v]) => [k, clip(v, 2048)])),
    };
  });
  const authorResult = await steps.blogAuthors({ authors: authorInputs }, { logs: notes });
  const authorLogs: MigrationLogLine[] = [
    ...authorResult.matched.map((m): MigrationLogLine => ({ level: 'info', message: `author ${m.key}: matched the existing author ${m.id} by ${m.by}` })),
    ...authorResult.skipped.map((s): MigrationLogLine => ({ level: 'error', message: `author ${s.key} skipped: ${s.reason}`, data: { code: s.code, details: s.details } })),
  ];
  if (authorLogs.length) await steps.record({ logs: authorLogs });

  const slugs = new Set<string>();
  const fileUrlFor = (url: string) => media.get(url)?.fileUrl;
  const toInput = (post: SourcePost) => {
    const draft = post.status !== 'published';
    const seo: Record<string, unknown> = {};
    if (post.seo_title.trim()) seo.metaTitle = clip(post.seo_title.trim(), 255);
    if (post.meta_description.trim()) seo.metaDescription = clip(post.meta_description.trim(), 1000);
    return {
      key: post.slug,
      title: clip(post.title.trim() || post.slug, 255),
      slug: makeUnique(clip(toSlug(post.slug, 'post'), 200).replace(/-+$/, ''), slugs, '-'),
      body: rewriteHtmlText(post.body, fileUrlFor),
      summary: clip(post.summary, 5000),
      status: draft ? 'draft' as const : 'published' as const,
      publishedAt: draft ? null : validTime(post.published),
      featuredImageId: post.featured_image ? media.get(post.featured_image)?.id ?? null : null,
      authorId: post.author?.slug ? authorResult.ids[post.author.slug] ?? null : null,
      categoryIds: post.categories.map((c) => terms.categories[toSlug(c.slug, 'term')]).filter((id): id is string => !!id),
      tagIds: post.tags.map((t) => terms.tags[toSlug(t.slug, 'term')]).filter((id): id is string => !!id),
      seo,
      sourceTimes: sourceTimes(post),
    };
  };
  for (let start = 0; start < source.posts.length; start += postBatchSize) {
    const batch = source.posts.slice(start, start + postBatchSize);
    const result = await steps.blogPosts(
      { posts: batch.map(toInput) },
      { progress: { phase: 'blog', done: start + batch.length, total: source.posts.length } },
    );
    const logs: MigrationLogLine[] = [
      ...result.renamed.map((r): MigrationLogLine => ({ level: 'info', message: `post ${r.key}: slug "${r.from}" is taken, imported as "${r.to}"` })),
      ...result.skipped.map((s): MigrationLogLine => ({ level: 'error', message: `post ${s.key} skipped: ${s.reason}`, data: { code: s.code, details: s.details } })),
    ];
    if (logs.length) await steps.record({ logs });
  }
}
