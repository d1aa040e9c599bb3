import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationView } from '../../src/core/migrations/index.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createFakeAccount, PEOPLE_FIRST_ID } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { createImportHarness, type ImportHarness } from './support.js';

/**
 * ButterCMS serves drafts only to reads with `preview=1` (buttercms-api.md §2): an import reads
 * both ways, so nothing of the source is lost. What only the preview serves arrives as a draft;
 * a published entry whose preview differs keeps its published content and gets the draft beside it.
 */
describe('ButterCMS drafts', () => {
  let h: ImportHarness;
  let butter: FakeButter;
  let m: MigrationView;
  const draftPersonId = PEOPLE_FIRST_ID + 900;

  beforeAll(async () => {
    h = await createImportHarness();
    butter = await startFakeButter({
      account: (base) => {
        const account = createFakeAccount(base);
        const spring = account.pages.find((p) => p.slug === 'spring-launch')!;
        const person = account.collections.people![0]!;
        account.drafts = {
          pages: [
            { ...spring, slug: 'autumn-preview', name: 'Autumn Preview', fields: { ...spring.fields, headline: 'Autumn is coming' } },
            { ...spring, slug: 'new-year', name: 'New Year', status: 'scheduled', scheduled: '2030-01-01T09:00:00Z', fields: { ...spring.fields, headline: 'Happy 2030' } },
          ],
          pageEdits: { 'spring-launch': { headline: 'Meet the even newer Acme Rocket' } },
          pageEditsUpdated: '2024-04-20T12:00:00.000000Z',
          items: { people: [{ id: draftPersonId, fields: { ...person.fields, name: 'Daffy Draft' } }] },
          itemEdits: { [PEOPLE_FIRST_ID + 2]: { bio: '<p>Rewritten, not yet published.</p>' } },
          posts: [
            { ...account.posts[0]!, slug: 'coming-soon', title: 'Coming soon', status: 'draft' },
            { ...account.posts[0]!, slug: 'next-week', title: 'Next week', status: 'scheduled', scheduled: '2030-02-01T10:00:00Z' },
          ],
          postEdits: { [account.posts[1]!.slug]: { title: 'A newer title, not yet published' } },
        };
        return account;
      },
    });
    m = await h.migrate(butter, 'full');
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });

  const pageRow = async (slug: string) => rowsOf<{ status: string; published_at: Date | string | null; draft: string | null; live: string | null }>(await h.cms.db.execute(sql`
    select status, published_at, draft_content->>'headline' as draft, published_content->>'headline' as live from pages where slug = ${slug} and deleted_at is null`))[0];

  it('reads every list a second time with preview=1', () => {
    expect(m.status, m.error ?? '').toBe('completed');
    const pageReads = butter.requests.filter((r) => r.path === '/v2/pages/landing-page/');
    expect(pageReads.some((r) => r.query.preview === '1')).toBe(true);
    expect(pageReads.some((r) => r.query.preview === undefined)).toBe(true);
    expect(butter.requests.some((r) => r.path === '/v2/content/people/' && r.query.preview === '1')).toBe(true);
    expect(butter.requests.some((r) => r.path === '/v2/posts/' && r.query.preview === '1')).toBe(true);
  });

  it('imports a page only the preview has as a draft', async () => {
    expect(await pageRow('autumn-preview')).toEqual({ status: 'draft', published_at: null, draft: 'Autumn is coming', live: null });
  });

  it('imports a page the source has scheduled as a draft scheduled for the same moment', async () => {
    expect(await pageRow('new-year')).toMatchObject({ status: 'draft', published_at: null, draft: 'Happy 2030' });
    const [row] = rowsOf<{ at: Date | string }>(await h.cms.db.execute(sql`select publish_at as at from pages where slug = 'new-year'`));
    expect(new Date(row!.at).toISOString()).toBe('2030-01-01T09:00:00.000Z');
  });

  it('keeps a published page\'s content and saves the source\'s newer draft beside it', async () => {
    const row = await pageRow('spring-launch');
    expect(row).toMatchObject({ status: 'published', live: 'Meet the new Acme Rocket', draft: 'Meet the even newer Acme Rocket' });
    expect(new Date(row!.published_at!).toISOString()).toBe('2024-04-02T09:15:22.318Z');
    // Its last update is when the source saved the draft (the preview's `updated`), kept through
    // the import's last pass, which saves the draft; a page without a draft keeps its own.
    const updatedAt = async (slug: string) => new Date(rowsOf<{ at: Date | string }>(await h.cms.db.execute(sql`select updated_at as at from pages where slug = ${slug} and deleted_at is null`))[0]!.at).toISOString();
    expect(await updatedAt('spring-launch')).toBe('2024-04-20T12:00:00.000Z');
    const summer = butter.account.pages.find((p) => p.slug === 'summer-sale')!;
    expect(await updatedAt('summer-sale')).toBe(new Date(summer.updated).toISOString());
    // A page without a draft of its own: its draft is what is published.
    expect(await pageRow('summer-sale')).toMatchObject({ status: 'published', live: 'Up to 40% off', draft: 'Up to 40% off' });
  });

  it('does the same for collection items and blog posts', async () => {
    const items = rowsOf<{ name: string; status: string; draft: string | null; live: string | null }>(await h.cms.db.execute(sql`
      select name, status, draft_content->>'bio' as draft, published_content->>'bio' as live from collection_items
      where name in ('Daffy Draft', ${'Wile E. Coyote'}) or draft_content->>'bio' like '%Rewritten%' order by name`));
    expect(items.find((i) => i.name === 'Daffy Draft')).toMatchObject({ status: 'draft', live: null });
    const edited = items.find((i) => i.draft === '<p>Rewritten, not yet published.</p>');
    expect(edited).toMatchObject({ status: 'published' });
    expect(edited!.live).not.toBe(edited!.draft);
    const posts = rowsOf<{ slug: string; status: string }>(await h.cms.db.execute(sql`select slug, status from blog_posts where slug in ('coming-soon', ${butter.account.posts[0]!.slug}) order by slug`));
    expect(posts).toEqual(expect.arrayContaining([{ slug: 'coming-soon', status: 'draft' }, { slug: butter.account.posts[0]!.slug, status: 'published' }]));
  });

  it('says in the log what of the blog it cannot keep: a published post\'s newer draft, a scheduled post\'s time', async () => {
    const edited = butter.account.posts[1]!;
    const [post] = rowsOf<{ title: string; status: string }>(await h.cms.db.execute(sql`select title, status from blog_posts where slug = ${edited.slug}`));
    expect(post).toEqual({ title: edited.title, status: 'published' });
    const [scheduled] = rowsOf<{ status: string }>(await h.cms.db.execute(sql`select status from blog_posts where slug = 'next-week'`));
    expect(scheduled).toEqual({ status: 'draft' });
    const warnings = (await h.logs(m.id)).filter((l) => l.level === 'warning').map((l) => l.message);
    expect(warnings).toContain(`post ${edited.slug}: the source has a newer draft of it; blog posts keep one version here, so the published one is imported and the draft is not`);
    expect(warnings).toContain('post next-week: scheduled in the source for 2030-02-01T10:00:00Z; imported as a draft (blog posts cannot be scheduled here: publish it then)');
  });

  it('imports a source without drafts as before: everything published, each draft what is published', async () => {
    // The other import tests run against the same fake without drafts: its preview reads answer
    // what the plain reads do, and every entry arrives published, its draft equal to it.
    const plain = await startFakeButter({});
    const h2 = await createImportHarness();
    try {
      const m2 = await h2.migrate(plain, 'full');
      expect(m2.status, m2.error ?? '').toBe('completed');
      const drafts = rowsOf<{ n: number }>(await h2.cms.db.execute(sql`
        select count(*)::int as n from pages where status <> 'published' or draft_content <> published_content`))[0]!;
      expect(drafts.n).toBe(0);
    } finally {
      await plain.close();
      await h2.close();
    }
  });
});
