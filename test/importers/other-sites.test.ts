import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationView } from '../../src/core/migrations/index.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createFakeAccount } from '../fakes/buttercms/account.js';
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
