import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MigrationView } from '../../src/core/migrations/index.js';
import { rowsOf } from '../../src/lib/rows.js';
import { createFakeAccount, MEDIA_IDS } from '../fakes/buttercms/account.js';
import { startFakeButter, type FakeButter } from '../fakes/buttercms/server.js';
import { createImportHarness, type ImportHarness } from './support.js';

/**
 * Media met twice in one import: a file the source cannot give is asked for once (migrations never
 * retry), and a post's featured image that a collection item used first gets the post's alt text
 * when the source's media library has none for it.
 */
describe('media met again by the blog phase', () => {
  let h: ImportHarness;
  let butter: FakeButter;
  let m: MigrationView;
  const missing = 'doesNotExist00000000';

  beforeAll(async () => {
    h = await createImportHarness();
    butter = await startFakeButter({
      account: (base) => {
        const account = createFakeAccount(base);
        // A person's photo and an author's picture the CDN answers 404 for.
        const people = account.collections.people!;
        people[3]!.fields.photo = `${base}/${missing}`;
        account.authors[0]!.profile_image = `${base}/${missing}`;
        // The first post's featured image is the first person's photo (imported before the blog is read).
        const post = account.posts[0]!;
        post.featured_image = `${base}/${MEDIA_IDS.coyotePhoto}`;
        post.featured_image_alt = 'The coyote, featured';
        // Its media library entry has no alt text: the post's fills in.
        account.media.find((m) => m.id === MEDIA_IDS.coyotePhoto)!.alt = '';
        return account;
      },
    });
    m = await h.migrate(butter, 'full');
  });
  afterAll(async () => {
    await butter?.close();
    await h?.close();
  });

  it('completes, asking the source once for the file it cannot give, and counts it skipped once', async () => {
    expect(m.status, m.error ?? '').toBe('completed');
    expect(butter.requests.filter((r) => r.path.endsWith(`/${missing}`))).toHaveLength(1);
    expect(m.stats).toMatchObject({ mediaSkipped: 1 });
    const warnings = (await h.logs(m.id)).filter((l) => l.level === 'warning' && l.message.startsWith(`Media ${butter.account.mediaBaseUrl}/${missing} skipped`));
    expect(warnings).toHaveLength(1);
  });

  it('gives the post\'s alt text to its featured image, imported earlier for a collection item without one', async () => {
    const [row] = rowsOf<{ alt: string | null }>(await h.cms.db.execute(sql`select m.alt_text as alt from blog_posts b join media m on m.id = b.featured_image_id where b.slug = ${'anvils-101'}`));
    expect(row).toEqual({ alt: 'The coyote, featured' });
  });
});
