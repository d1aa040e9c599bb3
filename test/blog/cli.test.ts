import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/** `cms blog …` run in process on one project folder, in order. */
describe(`cms blog (${testDriver})`, () => {
  let dir: string;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;

  const cli = (...args: string[]) => runCliInProcess(args, { cwd: dir, env: { ...(database.url ? { DATABASE_URL: database.url } : {}) } });
  const ok = async (...args: string[]) => {
    const r = await cli(...args, '--json');
    expect(r.code, r.stderr).toBe(0);
    return r.json();
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-blog-cli-'));
    database = await createTestDatabase();
    expect((await cli('init', '.', '--yes')).code).toBe(0);
    writeFileSync(join(dir, 'body.html'), '<h2>From a file</h2>\n<p>Body.</p>\n');
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates authors, categories and tags', async () => {
    const author = await ok('blog', 'authors', 'create', '--first-name', 'Ada', '--last-name', 'King', '--email', 'ada@example.test', '--links', '{"web":"https://ada.example"}');
    expect(author.data).toMatchObject({ slug: 'ada-king', email: 'ada@example.test', links: { web: 'https://ada.example' } });
    expect((await ok('blog', 'categories', 'create', '--name', 'News')).data.slug).toBe('news');
    expect((await ok('blog', 'tags', 'create', '--name', 'Node.js', '--slug', 'node')).data.slug).toBe('node');
    expect((await ok('blog', 'tags', 'update', 'node', '--name', 'Node')).data).toMatchObject({ slug: 'node', name: 'Node' });
    const authors = await ok('blog', 'authors', 'list');
    expect(authors.data.map((a: { slug: string }) => a.slug)).toEqual(['ada-king']);
    const dup = await cli('blog', 'categories', 'create', '--name', 'News');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('SLUG_EXISTS');
  });

  it('creates, updates, publishes, lists and deletes posts', async () => {
    const created = await ok('blog', 'posts', 'create', '--title', 'First Post', '--body-file', 'body.html', '--author', 'ada-king',
      '--categories', 'news', '--tags', 'node', '--seo', '{"metaTitle":"First"}');
    expect(created.data).toMatchObject({
      slug: 'first-post', status: 'draft', body: '<h2>From a file</h2>\n<p>Body.</p>\n',
      author: { slug: 'ada-king' }, categories: [{ slug: 'news' }], tags: [{ slug: 'node' }], seo: { metaTitle: 'First' },
    });
    const updated = await ok('blog', 'posts', 'update', 'first-post', '--summary', 'Short', '--author', 'none', '--tags', '');
    expect(updated.data).toMatchObject({ summary: 'Short', author: null, tags: [] });
    expect((await ok('blog', 'posts', 'publish', 'first-post')).data.status).toBe('published');
    await ok('blog', 'posts', 'create', '--title', 'Second', '--status', 'published', '--categories', 'news');
    const listed = await ok('blog', 'posts', 'list', '--sort', 'title');
    expect(listed.data.map((p: { slug: string }) => p.slug)).toEqual(['first-post', 'second']);
    expect(listed.pagination.total).toBe(2);
    expect((await ok('blog', 'posts', 'unpublish', 'second')).data.status).toBe('draft');
    expect((await ok('blog', 'posts', 'list', '--status', 'draft')).data.map((p: { slug: string }) => p.slug)).toEqual(['second']);
    const human = await cli('blog', 'posts', 'list');
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('first-post');
    expect((await ok('blog', 'posts', 'get', 'second')).data.title).toBe('Second');
    expect((await ok('blog', 'posts', 'delete', 'second')).data.slug).toBe('second');
    expect((await cli('blog', 'posts', 'get', 'second')).code).toBe(1);
  });

  it('reports bad input with a code, and usage errors with exit 2', async () => {
    const both = await cli('blog', 'posts', 'create', '--title', 'X', '--body', 'a', '--body-file', 'body.html');
    expect(both.code).toBe(2);
    const badSeo = await cli('blog', 'posts', 'create', '--title', 'X', '--seo', 'not json');
    expect(badSeo.code).toBe(2);
    const unknown = await cli('blog', 'posts', 'create', '--title', 'X', '--categories', 'nope', '--json');
    expect(unknown.code).toBe(1);
    expect(unknown.json().error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'categories[0]', message: 'no category "nope"' }] });
    expect((await cli('blog', 'posts', 'create')).code).toBe(2);
  });

  it('deletes terms and authors', async () => {
    expect((await ok('blog', 'tags', 'delete', 'node')).data.slug).toBe('node');
    expect((await ok('blog', 'categories', 'delete', 'news')).data.slug).toBe('news');
    expect((await ok('blog', 'authors', 'delete', 'ada-king')).data.slug).toBe('ada-king');
    expect((await ok('blog', 'posts', 'get', 'first-post')).data).toMatchObject({ categories: [], author: null });
  });
});
