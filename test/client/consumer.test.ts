import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateTypeScript } from '../../src/core/types/typescript.js';
import { testDriver } from '../helpers/db.js';
import { everyFieldSchema } from './fixtures.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * A consumer project compiled with tsc (issue 18): generated types and a script that imports the
 * built client by the package name (`cms/client`, through package.json "exports"; `npm run build`
 * first), with the DOM library and no Node types, so the client's declarations need nothing of Node.
 */
describe(`a consumer project compiles against cms/client and the generated types (${testDriver})`, { timeout: 120_000 }, () => {
  let dir: string;

  const compile = (file: string, source: string) => {
    writeFileSync(join(dir, file), source);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: {
        target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], types: [],
        strict: true, noUncheckedIndexedAccess: true, noUnusedLocals: true, noUnusedParameters: true, noEmit: true, skipLibCheck: false,
      },
      files: ['cms-types.ts', file],
    }));
    const r = spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
    return { code: r.status, output: `${r.stdout}${r.stderr}` };
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cms-consumer-'));
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules', 'cms'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(dir, 'cms-types.ts'), generateTypeScript(everyFieldSchema as Parameters<typeof generateTypeScript>[0]));
  });
  afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

  it('compiles a script using typed reads, filters, locales, media URLs and writes', () => {
    const r = compile('ok.ts', `
import { createClient, CmsApiError, type CmsErrorCode } from 'cms/client';
import type { CmsTypes } from './cms-types.js';

const cms = createClient<CmsTypes>({ baseUrl: 'http://localhost:3000', apiKey: 'svc_pk_x', previewKey: 'preview_x' });

export async function main(): Promise<void> {
  const products = await cms.collection('products').list({ filter: { 'fields.price': { gt: 10, lte: 100 }, 'fields.category': { in: ['lamps'] }, 'fields.inStock': true, name: { contains: 'lamp' } }, sort: ['-fields.price', 'name'], limit: 10 });
  const total: number = products.pagination.totalPages;
  const p = products.data[0];
  if (p) {
    const price: number | null | undefined = p.fields.price;
    const category: 'lamps' | 'chairs' | null | undefined = p.fields.category;
    const title: string = p.fields.title;
    const maker = p.fields.maker;
    if (maker && typeof maker !== 'string') { const country: string | null | undefined = maker.country; void country; }
    void price; void category; void title;
  }
  const page = await cms.pages.get('home', { preview: true });
  if (page.redirect) { const to: string = page.redirect.to; void to; }
  if (page.data.type === 'landing-page') {
    for (const block of page.data.fields.blocks ?? []) {
      if (block._type === 'quote') {
        const source = block.source;
        if (source && typeof source !== 'string') { const slug: string = source.slug; void slug; }
      } else {
        const heading: string = block.heading;
        void heading;
      }
    }
    const featured = page.data.fields.featured;
    if (featured && typeof featured !== 'string') {
      const inner = featured.maker; // one level down: as stored
      if (inner && typeof inner !== 'string') { const ref: string = inner._ref; void ref; }
    }
    const theme: 'light' | 'dark' | null | undefined = page.data.fields.theme;
    const faq: string | undefined = page.data.fields.faq?.[0]?.question;
    void theme; void faq;
  }
  const urls = await cms.pages.list({ pageType: 'landing-page', media: 'url', fields: ['cover', 'title'] });
  const cover: string | { id: string } | null | undefined = urls.data[0]?.fields.cover;
  const ogImage: string | null | undefined = urls.data[0]?.seo.ogImage;
  const all = await cms.collection('products').get('lamp', { locale: '*' });
  const titles: Record<string, string | null> = all.data.fields.title;
  const fallbacks: string[] = all.data._fallbacks;
  const locale: string = all.locale;
  const created = await cms.pages.create({ pageTypeSlug: 'landing-page', name: 'Home', slug: 'home', fields: { title: 'Home', theme: 'dark' } }, { idempotencyKey: 'k1' });
  const version: number = created.version;
  const post = await cms.blog.posts.get('hello', { fields: ['summary'] });
  const summary: string | null = post.data.summary;
  const media = await cms.media.get('id');
  const url: string = media.url;
  void total; void cover; void ogImage; void titles; void fallbacks; void locale; void version; void summary; void url;
  try { await cms.pages.list(); } catch (e) {
    if (e instanceof CmsApiError) { const code: CmsErrorCode = e.code; const status: number = e.status; void code; void status; }
  }
}
`);
    expect(r.output).toBe('');
    expect(r.code).toBe(0);
  });

  it('refuses a field name the type does not have, in a filter and in a read', () => {
    const r = compile('bad-field.ts', `
import { createClient } from 'cms/client';
import type { CmsTypes } from './cms-types.js';
const cms = createClient<CmsTypes>({ baseUrl: 'http://localhost:3000' });
export async function main(): Promise<unknown> {
  await cms.collection('products').list({ filter: { 'fields.prize': { gt: 10 } } });
  const item = await cms.collection('products').get('lamp');
  return item.data.fields.prize;
}
`);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("bad-field.ts(6,53): error TS2353: Object literal may only specify known properties, and ''fields.prize'' does not exist in type 'Filter<ProductsItemFields<\"resolved\">>'");
    expect(r.output).toContain("bad-field.ts(8,27): error TS2551: Property 'prize' does not exist on type 'ProductsItemFields<\"resolved\">'. Did you mean 'price'?");
  });

  it('refuses an operator the field type does not allow', () => {
    const r = compile('bad-operator.ts', `
import { createClient } from 'cms/client';
import type { CmsTypes } from './cms-types.js';
const cms = createClient<CmsTypes>({ baseUrl: 'http://localhost:3000' });
export async function main(): Promise<unknown> {
  return cms.collection('products').list({ filter: { 'fields.title': { gt: 10 } } });
}
`);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("bad-operator.ts(6,72): error TS2353: Object literal may only specify known properties, and 'gt' does not exist in type");
  });

  it('refuses a select value outside its choices, a field left out by `fields`, and a slug that is no collection', () => {
    const r = compile('bad-more.ts', `
import { createClient } from 'cms/client';
import type { CmsTypes } from './cms-types.js';
const cms = createClient<CmsTypes>({ baseUrl: 'http://localhost:3000' });
export async function main(): Promise<unknown> {
  await cms.collection('products').list({ filter: { 'fields.category': 'sofas' } });
  const page = await cms.pages.list({ pageType: 'landing-page', fields: ['title'] });
  await cms.collection('widgets').list();
  return page.data[0]?.fields.score;
}
`);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("bad-more.ts(6,53): error TS2322: Type '\"sofas\"' is not assignable to type");
    expect(r.output).toContain("bad-more.ts(8,24): error TS2345: Argument of type '\"widgets\"' is not assignable to parameter of type 'CollectionName<CmsTypes>'.");
    expect(r.output).toContain("bad-more.ts(9,31): error TS2339: Property 'score' does not exist on type 'Pick<LandingPagePageFields<\"resolved\">, \"title\">'.");
  });
});
