import { z } from 'zod';
import type { Ctx } from '../context.js';
import { updatePage } from '../content/operations.js';
import { isRecord } from '../content/localize.js';
import { updatePost } from '../blog/posts.js';
import { findPost } from '../blog/store.js';
import { CmsError } from '../errors.js';
import { checkAccess, defineOperation } from '../operation.js';
import { callAi, providerOf } from './call.js';
import { seoPrompt } from './prompts.js';
import { cutToBudget, loadEntry, localeOf, refOf, seoTextBudget, stripHtml, textOfFields, type AiLocale } from './source.js';
import { cutText } from '../../lib/cut-text.js';

/** The lengths the proposal keeps to (search engines cut longer titles and descriptions). */
export const seoLimits = { metaTitle: 60, metaDescription: 160, ogTitle: 60, ogDescription: 200 } as const;

/** Each member has words: an empty one is a malformed answer (applied, it would wipe the SEO written before). */
const wording = z.string().regex(/\S/, 'must not be empty');
const proposalSchema = z.object({
  metaTitle: wording,
  metaDescription: wording,
  ogTitle: wording,
  ogDescription: wording,
});

export interface SeoProposal {
  metaTitle: string;
  metaDescription: string;
  ogTitle: string;
  ogDescription: string;
  /** With `apply`: the proposal was written into the draft's SEO. */
  applied?: true;
  /** With `apply` on a page: the page's version after the write. */
  version?: number;
  /** With `apply` on a published blog post: the SEO written is live (a post has no separate draft). */
  live?: true;
}

const ref = z.string().trim().min(1).max(255);

export const aiSeoInput = z.strictObject({
  page: ref.optional(),
  post: ref.optional(),
  text: z.string().trim().min(1).max(1_000_000).optional(),
  /** The title that goes with `text`. */
  title: z.string().max(255).optional(),
  locale: z.string().min(1).max(35).optional(),
  apply: z.boolean().default(false),
  /** With `apply` on a page: the version the proposal is for (the version read before the call, by default). */
  version: z.number().int().positive().optional(),
}).superRefine((input, issue) => {
  const given = (['page', 'post', 'text'] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1) {
    issue.addIssue({ code: 'custom', path: given.length ? [given[1]!] : ['page'], message: 'give exactly one of page, post or text' });
  }
  if (input.apply && input.text !== undefined) issue.addIssue({ code: 'custom', path: ['apply'], message: 'apply needs a page or a post to write to' });
  if (input.version !== undefined && !input.apply) issue.addIssue({ code: 'custom', path: ['version'], message: 'version goes with apply' });
  else if (input.version !== undefined && input.page === undefined) issue.addIssue({ code: 'custom', path: ['version'], message: 'version goes with a page (blog posts have no versions)' });
});

/** The cut at a word boundary within `max` characters (models overshoot now and then). */
export function fitTo(text: string, max: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const cut = cutText(clean, max);
  const space = cut.lastIndexOf(' ');
  return (space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:–-]+$/, '');
}

/**
 * `POST /api/v1/ai/seo`, `cms ai seo`: metaTitle, metaDescription, ogTitle and ogDescription
 * proposed from the draft's text (every field's words, HTML stripped, cut to the budget), in the
 * content's language. With `apply` the proposal is written into the draft's SEO through the
 * ordinary update (version check, events), after the provider answered; never published here.
 */
export const aiSeo = defineOperation({
  name: 'ai.seo',
  input: aiSeoInput,
  access: { role: 'editor', key: 'ai:use' },
  write: false,
  async run(ctx, input): Promise<SeoProposal> {
    providerOf(ctx);
    const locale = localeOf(ctx, input.locale);
    const source = await sourceOf(ctx, input, locale);
    // Who may not write the SEO is told so before the provider is paid for an answer.
    if (input.apply) checkAccess(source.kind === 'post' ? updatePost : updatePage, ctx.actor, ctx.project.id);
    // A version already moved on is refused before the call too (the update checks it again).
    if (input.apply && source.kind === 'page' && input.version !== undefined && input.version !== source.version) {
      throw new CmsError('VERSION_CONFLICT', `Version conflict: you sent version ${input.version}, the current version is ${source.version}`, { currentVersion: source.version });
    }
    const { object } = await callAi(ctx, 'seo', {
      system: seoPrompt.system,
      prompt: seoPrompt.user({ language: locale.label, title: source.title, text: cutToBudget(source.text, seoTextBudget) }),
      schema: proposalSchema,
      schemaName: 'seo',
    });
    const proposal: SeoProposal = {
      metaTitle: fitTo(object.metaTitle, seoLimits.metaTitle),
      metaDescription: fitTo(object.metaDescription, seoLimits.metaDescription),
      ogTitle: fitTo(object.ogTitle, seoLimits.ogTitle),
      ogDescription: fitTo(object.ogDescription, seoLimits.ogDescription),
    };
    if (!input.apply) return proposal;
    const seo = { ...proposal };
    // The SEO of the locale asked for (SEO is per locale); the default's when none was asked for.
    const inLocale = locale.isDefault ? {} : { locale: locale.code };
    if (source.kind === 'page') {
      const answer = (version: number): SeoProposal => ({ ...proposal, applied: true, version });
      // The version the proposal was made for: a draft changed meanwhile is a VERSION_CONFLICT.
      const expected = input.version ?? source.version;
      const written = await ctx.runWrite(updatePage, { ref: { id: source.id }, seo, version: expected, ...inLocale }, answer(expected + 1));
      return answer(written.version);
    }
    if (source.kind === 'post') {
      const answer: SeoProposal = { ...proposal, applied: true, ...(source.published ? { live: true as const } : {}) };
      await ctx.runWrite(updatePost, { id: source.id, seo, ...inLocale }, answer);
      return answer;
    }
    return proposal;
  },
});

type SeoSource =
  | { kind: 'page'; id: string; version: number; title: string; text: string }
  | { kind: 'post'; id: string; published: boolean; title: string; text: string }
  | { kind: 'text'; title: string; text: string };

async function sourceOf(ctx: Ctx, input: z.output<typeof aiSeoInput>, locale: AiLocale): Promise<SeoSource> {
  if (input.page !== undefined) {
    const { row, type, values } = await loadEntry(ctx, 'page', refOf(input.page), locale);
    return { kind: 'page', id: row.id, version: row.version, title: row.name, text: textOfFields(values, type.fields) };
  }
  if (input.post !== undefined) {
    const row = await findPost(ctx, input.post);
    const own = locale.isDefault ? {} : row.locales[locale.code];
    const pick = (name: 'title' | 'summary' | 'body'): string => {
      const v = isRecord(own) ? own[name] : undefined;
      return typeof v === 'string' && v !== '' ? v : row[name];
    };
    const text = [`summary: ${stripHtml(pick('summary'))}`, `body: ${stripHtml(pick('body'))}`].join('\n');
    return { kind: 'post', id: row.id, published: row.status === 'published', title: pick('title'), text };
  }
  return { kind: 'text', title: input.title ?? '', text: stripHtml(input.text ?? '') };
}
