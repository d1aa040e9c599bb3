import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationView } from '../../src/core/migrations/index.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createFakeAccount, expectedCounts } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { createImportHarness, type ImportHarness } from './support.js';

/**
 * URLs on other sites whose path ends in a file extension are taken for files too (a PDF linked
 * from rich text, an image hosted elsewhere). A site that cannot give one (here nothing listens on
 * port 1) costs that file, with a warning, not the migration: only the source's own hosts fail it.
 */
describe('files on other sites', () => {
  let h: ImportHarness;
  let butter: FakeButter;
  let m: MigrationView;
  const brochure = 'http://127.0.0.1:1/brochure.pdf';
  const photo = 'http://127.0.0.1:1/photo.jpg';

  beforeAll(async () => {
    h = await createImportHarness();
    butter = await startFakeButter({
      account: (base) => {
        const account = createFakeAccount(base);
        account.posts[0]!.body += `<p><a href="${brochure}">Our brochure</a></p>`;
        account.collections.people![5]!.fields.photo = photo;
        return account;
      },
    });
    m = await h.migrate(butter, 'full');
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });

  it('completes, each unreachable file skipped with a warning that says it is on another site', async () => {
    expect(m.status, m.error ?? '').toBe('completed');
    expect(m.stats).toMatchObject({ mediaSkipped: 2 });
    const warnings = (await h.logs(m.id)).filter((l) => l.level === 'warning' && / skipped: .*another site/.test(l.message)).map((l) => l.message);
    expect(warnings).toEqual(expect.arrayContaining([expect.stringContaining(`Media ${brochure} skipped`), expect.stringContaining(`Media ${photo} skipped`)]));
  });

  it('keeps the link in rich text as it was, and imports everything else', async () => {
    const [post] = rowsOf<{ body: string }>(await h.cms.db.execute(sql`select body from blog_posts where slug = ${butter.account.posts[0]!.slug}`));
    expect(post!.body).toContain(`href="${brochure}"`);
    expect(m.stats).toMatchObject({ blogPosts: butter.account.posts.length });
  });
});

/**
 * A file on the source's own media host that cannot be fetched (the ButterCMS CDN seen from a
 * machine without the internet; here the media host is 127.0.0.1:1, where nothing listens) is
 * skipped with a warning too: one missing file does not cost the whole import.
 */
describe('files on a media host that cannot be reached', () => {
  let h: ImportHarness;
  let butter: FakeButter;
  let m: MigrationView;
  const unreachable = 'http://127.0.0.1:1/Qm3xT8aLkR2pVbN9wZyE';

  beforeAll(async () => {
    h = await createImportHarness();
    butter = await startFakeButter({
      account: (base) => {
        const account = createFakeAccount(base);
        account.collections.people![5]!.fields.photo = unreachable;
        return account;
      },
    });
    m = await h.migrate(butter, 'full', { mediaHosts: ['127.0.0.1:1'] });
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });

  it('completes, the file skipped with a warning naming it and its field left empty', async () => {
    expect(m.status, m.error ?? '').toBe('completed');
    expect(m.stats).toMatchObject({ mediaSkipped: 1, collectionItems: expectedCounts.collectionItems, pages: expectedCounts.pages });
    const warnings = (await h.logs(m.id)).filter((l) => l.level === 'warning' && l.message.startsWith(`Media ${unreachable} skipped`));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).not.toContain('another site');
  });
});
