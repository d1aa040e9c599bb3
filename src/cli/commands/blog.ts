import type { Command } from 'commander';
import type { OperationName } from '../../core/registry.js';
import { ownOptions, type GlobalOptions } from '../io.js';
import { action, type ProgramState } from '../command-kit.js';
import type { Engine } from '../engine.js';
import { printList, printResult, UsageError } from '../output.js';
import { errorMessage, readJsonOption } from '../inputs.js';
import { choiceOption, choices, countOption } from '../choices.js';

/** The operations of `cms blog authors|categories|tags`, by name. */
const termOperations = {
  authors: { list: 'blog.authors.list', get: 'blog.authors.get', create: 'blog.authors.create', update: 'blog.authors.update', delete: 'blog.authors.delete' },
  categories: { list: 'blog.categories.list', get: 'blog.categories.get', create: 'blog.categories.create', update: 'blog.categories.update', delete: 'blog.categories.delete' },
  tags: { list: 'blog.tags.list', get: 'blog.tags.get', create: 'blog.tags.create', update: 'blog.tags.update', delete: 'blog.tags.delete' },
} as const satisfies Record<'authors' | 'categories' | 'tags', Record<string, OperationName>>;

const postVerbOperations = { publish: 'blog.posts.publish', unpublish: 'blog.posts.unpublish' } as const satisfies Record<string, OperationName>;

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));
/** `none` clears a reference (author, featured image, picture). */
const orNone = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? null : v);
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
/** A list narrowed by a search or filter (an empty answer is then no news about the whole). */
const filtered = (o: Record<string, unknown>) => ['status', 'search', 'category', 'tag', 'author'].some((k) => o[k] !== undefined);

interface PostOpts {
  title?: string; slug?: string; body?: string; bodyFile?: string; summary?: string; status?: string; publishedAt?: string;
  featuredImage?: string; author?: string; categories?: string; tags?: string; seo?: string; locale?: string;
}

export function registerBlog(program: Command, state: ProgramState): void {
  const { io } = state;
  const blog = program.command('blog').description('the blog: posts, authors, categories and tags');
  const run = async <T>(g: GlobalOptions, fn: (e: Engine) => Promise<T>): Promise<T> => {
    const { withEngine } = await import('../engine.js');
    return withEngine(g, io, fn);
  };
  const show = (d: unknown) => JSON.stringify(d, null, 2);

  async function postInput(opts: PostOpts) {
    if (opts.body !== undefined && opts.bodyFile !== undefined) throw new UsageError('Give --body or --body-file, not both');
    let body = opts.body;
    if (opts.bodyFile !== undefined) {
      const { readFile } = await import('node:fs/promises');
      const { resolve } = await import('node:path');
      body = await readFile(resolve(io.cwd, opts.bodyFile), 'utf8').catch((e: unknown) => { throw new UsageError(`--body-file: ${errorMessage(e)}`); });
    }
    return defined({
      title: opts.title, slug: opts.slug, body, summary: opts.summary, publishedAt: opts.publishedAt,
      featuredImageId: orNone(opts.featuredImage), author: orNone(opts.author),
      categories: list(opts.categories), tags: list(opts.tags), seo: await readJsonOption(io, 'seo', opts.seo), locale: opts.locale,
    });
  }
  const postOptions = (c: Command, slugHelp: string) => c
    .option('--slug <slug>', slugHelp)
    .option('--body <html>', 'the body as HTML (stored as given, not sanitised)')
    .option('--body-file <file>', 'read the body from this file')
    .option('--summary <text>', 'a short summary')
    .option('--published-at <iso>', 'publication date, ISO 8601')
    .option('--featured-image <id>', 'media id of the featured image ("none" clears it)')
    .option('--author <idOrSlug>', 'the author ("none" clears it)')
    .option('--categories <list>', 'comma-separated category slugs or ids (replaces them)')
    .option('--tags <list>', 'comma-separated tag slugs or ids (replaces them)')
    .option('--seo <json>', 'SEO as JSON or @file.json (metaTitle, ogImageId…); merged key by key')
    .option('--locale <code>', 'write the title, summary, body and SEO in this locale (default: the project\'s default)');

  const posts = blog.command('posts').description('blog posts (drafts included)');
  posts.command('list').description('list posts, newest change first, drafts included')
    .addOption(choiceOption('--status <status>', 'only drafts, or only published posts', choices.postStatuses))
    .option('--search <text>', 'part of the title or slug')
    .option('--category <slugs>', 'only posts in these categories (comma-separated slugs)')
    .option('--tag <slugs>', 'only posts with these tags (comma-separated slugs)')
    .option('--author <slugs>', 'only posts by these authors (comma-separated slugs)')
    .option('--sort <keys>', 'e.g. -publishedAt,title (default -updatedAt)')
    .addOption(countOption('--page <n>', 'page number', 1)).addOption(countOption('--limit <n>', 'page size (1-100)', 1))
    .action(action(state, async (g, opts: Record<string, string | undefined>) => {
      const result = await run(g, (e) => e.runRequest('blog.posts.list', defined(ownOptions(opts))));
      printList(io, g, result, ['id', 'slug', 'title', 'status', 'publishedAt'],
        filtered(opts) ? 'No posts match.' : 'No blog posts yet. Write one: cms blog posts create --title "My first post"');
    }));
  posts.command('get').description('show one post, drafts included').argument('<idOrSlug>')
    .action(action(state, async (g, id: string) => printResult(io, g, await run(g, (e) => e.run('blog.posts.get', { id })), show)));
  postOptions(posts.command('create').description('create a post (a draft unless --status published)').requiredOption('--title <title>', 'the title'),
    'URL slug (made from the title when left out)')
    .addOption(choiceOption('--status <status>', 'draft (the default), or published to publish it at once', choices.postStatuses))
    .action(action(state, async (g, opts: PostOpts) => {
      const input = { ...(await postInput(opts)), ...defined({ status: opts.status }) };
      const data = await run(g, (e) => e.runRequest('blog.posts.create', input));
      printResult(io, g, data, (d) => `Created post ${d.slug} (${d.status}), id ${d.id}.`);
    }));
  postOptions(posts.command('update').description('change a post: only what you pass changes').argument('<idOrSlug>').option('--title <title>', 'a new title'),
    'a new URL slug')
    .action(action(state, async (g, id: string, opts: PostOpts) => {
      const input = { ...(await postInput(opts)), id };
      const data = await run(g, (e) => e.runRequest('blog.posts.update', input));
      printResult(io, g, data, (d) => `Updated post ${d.slug}.`);
    }));
  for (const verb of ['publish', 'unpublish'] as const) {
    posts.command(verb).description(verb === 'publish' ? 'publish a post' : 'take a post back to draft').argument('<idOrSlug>')
      .action(action(state, async (g, id: string) => {
        const data = await run(g, (e) => e.run(postVerbOperations[verb], { id }));
        printResult(io, g, data, (d) => `Post ${d.slug} is now ${d.status}.`);
      }));
  }
  posts.command('delete').description('delete a post').argument('<idOrSlug>').option('--force', 'delete even if content references it')
    .action(action(state, async (g, id: string, opts: { force?: boolean }) => {
      const data = await run(g, (e) => e.run('blog.posts.delete', { id, force: !!opts.force }));
      printResult(io, g, data, (d) => `Deleted post ${d.slug}.`);
    }));

  const crud = (plural: 'authors' | 'categories' | 'tags', description: string, options: (c: Command, creating: boolean) => Command, input: (opts: Record<string, string | undefined>) => Promise<Record<string, unknown>>, columns: string[], empty: string) => {
    const ops = termOperations[plural];
    const noun = blog.command(plural).description(description);
    noun.command('list').description(`list ${plural}`)
      .addOption(countOption('--page <n>', 'page number', 1)).addOption(countOption('--limit <n>', 'page size (1-100)', 1))
      .action(action(state, async (g, opts: Record<string, string | undefined>) => {
        const result = await run(g, (e) => e.runRequest(ops.list, defined(ownOptions(opts))));
        printList(io, g, result, columns, empty);
      }));
    const one = { authors: 'an author', categories: 'a category', tags: 'a tag' }[plural];
    noun.command('get').description(`show ${one}`).argument('<idOrSlug>')
      .action(action(state, async (g, id: string) => printResult(io, g, await run(g, (e) => e.run(ops.get, { id })), show)));
    options(noun.command('create').description(`create ${one}`), true)
      .action(action(state, async (g, opts: Record<string, string | undefined>) => {
        const body = await input(opts);
        const data = await run(g, (e) => e.runRequest(ops.create, body));
        printResult(io, g, data, (d) => `Created ${d.slug}, id ${d.id}.`);
      }));
    options(noun.command('update').description(`change ${one}: only what you pass changes`).argument('<idOrSlug>'), false)
      .action(action(state, async (g, id: string, opts: Record<string, string | undefined>) => {
        const body = { ...(await input(opts)), id };
        const data = await run(g, (e) => e.runRequest(ops.update, body));
        printResult(io, g, data, (d) => `Updated ${d.slug}.`);
      }));
    noun.command('delete').description(`delete ${one}`).argument('<idOrSlug>')
      .action(action(state, async (g, id: string) => {
        const data = await run(g, (e) => e.run(ops.delete, { id }));
        printResult(io, g, data, (d) => `Deleted ${d.slug}.`);
      }));
  };

  crud('authors', 'blog authors (emails are shown here, never on the public API)',
    (c, creating) => c.option('--slug <slug>', creating ? 'URL slug (made from the name when left out)' : 'a new URL slug')
      .option('--first-name <name>', 'first name').option('--last-name <name>', 'last name')
      .option('--email <email>', 'email (never shown on the public API)')
      .option('--bio <text>', 'a short biography').option('--title <title>', 'job title, e.g. Editor').option('--profile-image <id>', 'media id ("none" clears it)')
      .option('--links <json>', 'links as a JSON object, e.g. {"web":"https://…"}'),
    async (o) => defined({
      slug: o.slug, firstName: o.firstName, lastName: o.lastName, email: o.email, bio: o.bio, title: o.title,
      profileImageId: orNone(o.profileImage), links: await readJsonOption(io, 'links', o.links),
    }),
    ['id', 'slug', 'firstName', 'lastName', 'email'],
    'No authors yet. Add one: cms blog authors create --first-name Ada --last-name Lovelace --email ada@example.com');
  for (const plural of ['categories', 'tags'] as const) {
    crud(plural, `blog ${plural}`, (c, creating) => (creating ? c.requiredOption('--name <name>', 'the name') : c.option('--name <name>', 'a new name'))
      .option('--slug <slug>', creating ? 'URL slug (made from the name when left out)' : 'a new URL slug'),
      async (o) => defined({ name: o.name, slug: o.slug }), ['id', 'slug', 'name'],
      `No ${plural} yet. Add one: cms blog ${plural} create --name ${plural === 'tags' ? 'releases' : 'News'}`);
  }
}
