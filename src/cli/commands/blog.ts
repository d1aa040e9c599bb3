import type { Command } from 'commander';
import type { GlobalOptions } from '../io.js';
import { action, type ProgramState } from '../main.js';
import { printResult, UsageError } from '../output.js';
import { printList, readJsonOption } from './content.js';

const list = (v: string | undefined) => (v === undefined ? undefined : v.split(',').map((s) => s.trim()).filter(Boolean));
/** `none` clears a reference (author, featured image, picture). */
const orNone = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? null : v);
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

interface PostOpts {
  title?: string; slug?: string; body?: string; bodyFile?: string; summary?: string; status?: string; publishedAt?: string;
  featuredImage?: string; author?: string; categories?: string; tags?: string; seo?: string;
}

export function registerBlog(program: Command, state: ProgramState): void {
  const { io } = state;
  const blog = program.command('blog').description('the blog: posts, authors, categories and tags');
  const run = async (g: GlobalOptions, op: string, input: unknown) => {
    const { withEngine } = await import('../engine.js');
    return withEngine(g, io, (e) => e.run(op as never, input));
  };
  const show = (d: unknown) => JSON.stringify(d, null, 2);

  async function postInput(opts: PostOpts) {
    if (opts.body !== undefined && opts.bodyFile !== undefined) throw new UsageError('Give --body or --body-file, not both');
    let body = opts.body;
    if (opts.bodyFile !== undefined) {
      const { readFile } = await import('node:fs/promises');
      const { resolve } = await import('node:path');
      body = await readFile(resolve(io.cwd, opts.bodyFile), 'utf8').catch((e: Error) => { throw new UsageError(`--body-file: ${e.message}`); });
    }
    return defined({
      title: opts.title, slug: opts.slug, body, summary: opts.summary, publishedAt: opts.publishedAt,
      featuredImageId: orNone(opts.featuredImage), author: orNone(opts.author),
      categories: list(opts.categories), tags: list(opts.tags), seo: await readJsonOption(io, 'seo', opts.seo),
    });
  }
  const postOptions = (c: Command) => c
    .option('--slug <slug>', 'URL slug (made from the title when left out)')
    .option('--body <html>', 'the body as HTML (stored as given, not sanitised)')
    .option('--body-file <file>', 'read the body from this file')
    .option('--summary <text>')
    .option('--published-at <iso>', 'publication date, ISO 8601')
    .option('--featured-image <id>', 'media id of the featured image ("none" clears it)')
    .option('--author <idOrSlug>', 'the author ("none" clears it)')
    .option('--categories <list>', 'comma-separated category slugs or ids (replaces them)')
    .option('--tags <list>', 'comma-separated tag slugs or ids (replaces them)')
    .option('--seo <json>', 'SEO as JSON or @file.json (metaTitle, ogImageId…); merged key by key');

  const posts = blog.command('posts').description('blog posts (drafts included)');
  posts.command('list')
    .option('--status <status>', 'draft or published').option('--search <text>', 'part of the title or slug')
    .option('--category <slugs>').option('--tag <slugs>').option('--author <slugs>')
    .option('--sort <keys>', 'e.g. -publishedAt,title (default -updatedAt)').option('--page <n>').option('--limit <n>')
    .action(action(state, async (g, opts: Record<string, string | undefined>) => {
      const result = (await run(g, 'blog.posts.list', defined(opts))) as { data: Array<Record<string, unknown>>; pagination: Record<string, number> };
      printList(io, g, result, ['id', 'slug', 'title', 'status', 'publishedAt', 'updatedAt']);
    }));
  posts.command('get').argument('<idOrSlug>')
    .action(action(state, async (g, id: string) => printResult(io, g, await run(g, 'blog.posts.get', { id }), show)));
  postOptions(posts.command('create').description('create a post (a draft unless --status published)').requiredOption('--title <title>'))
    .option('--status <status>', 'draft or published')
    .action(action(state, async (g, opts: PostOpts) => {
      const data = await run(g, 'blog.posts.create', { ...(await postInput(opts)), ...defined({ status: opts.status }) });
      printResult(io, g, data, (d: { slug: string; status: string; id: string }) => `Created post ${d.slug} (${d.status}), id ${d.id}.`);
    }));
  postOptions(posts.command('update').description('change a post: only what you pass changes').argument('<idOrSlug>').option('--title <title>'))
    .action(action(state, async (g, id: string, opts: PostOpts) => {
      const data = await run(g, 'blog.posts.update', { ...(await postInput(opts)), id });
      printResult(io, g, data, (d: { slug: string }) => `Updated post ${d.slug}.`);
    }));
  for (const verb of ['publish', 'unpublish'] as const) {
    posts.command(verb).argument('<idOrSlug>')
      .action(action(state, async (g, id: string) => {
        const data = await run(g, `blog.posts.${verb}`, { id });
        printResult(io, g, data, (d: { slug: string; status: string }) => `Post ${d.slug} is now ${d.status}.`);
      }));
  }
  posts.command('delete').argument('<idOrSlug>').option('--force', 'delete even if content references it')
    .action(action(state, async (g, id: string, opts: { force?: boolean }) => {
      const data = await run(g, 'blog.posts.delete', { id, force: !!opts.force });
      printResult(io, g, data, (d: { slug: string }) => `Deleted post ${d.slug}.`);
    }));

  const crud = (plural: 'authors' | 'categories' | 'tags', description: string, options: (c: Command) => Command, input: (opts: Record<string, string | undefined>) => Promise<Record<string, unknown>>, columns: string[]) => {
    const noun = blog.command(plural).description(description);
    noun.command('list').option('--page <n>').option('--limit <n>')
      .action(action(state, async (g, opts: Record<string, string | undefined>) => {
        const result = (await run(g, `blog.${plural}.list`, defined(opts))) as { data: Array<Record<string, unknown>>; pagination: Record<string, number> };
        printList(io, g, result, columns);
      }));
    noun.command('get').argument('<idOrSlug>')
      .action(action(state, async (g, id: string) => printResult(io, g, await run(g, `blog.${plural}.get`, { id }), show)));
    options(noun.command('create'))
      .action(action(state, async (g, opts: Record<string, string | undefined>) => {
        const data = await run(g, `blog.${plural}.create`, await input(opts));
        printResult(io, g, data, (d: { slug: string; id: string }) => `Created ${d.slug}, id ${d.id}.`);
      }));
    options(noun.command('update').argument('<idOrSlug>'))
      .action(action(state, async (g, id: string, opts: Record<string, string | undefined>) => {
        const data = await run(g, `blog.${plural}.update`, { ...(await input(opts)), id });
        printResult(io, g, data, (d: { slug: string }) => `Updated ${d.slug}.`);
      }));
    noun.command('delete').argument('<idOrSlug>')
      .action(action(state, async (g, id: string) => {
        const data = await run(g, `blog.${plural}.delete`, { id });
        printResult(io, g, data, (d: { slug: string }) => `Deleted ${d.slug}.`);
      }));
  };

  crud('authors', 'blog authors (emails are shown here, never on the public API)',
    (c) => c.option('--slug <slug>').option('--first-name <name>').option('--last-name <name>').option('--email <email>')
      .option('--bio <text>').option('--title <title>').option('--profile-image <id>', 'media id ("none" clears it)')
      .option('--links <json>', 'links as a JSON object, e.g. {"web":"https://…"}'),
    async (o) => defined({
      slug: o.slug, firstName: o.firstName, lastName: o.lastName, email: o.email, bio: o.bio, title: o.title,
      profileImageId: orNone(o.profileImage), links: await readJsonOption(io, 'links', o.links),
    }),
    ['id', 'slug', 'firstName', 'lastName', 'email']);
  for (const plural of ['categories', 'tags'] as const) {
    crud(plural, `blog ${plural}`, (c) => c.option('--name <name>').option('--slug <slug>', 'made from the name when left out'),
      async (o) => defined({ name: o.name, slug: o.slug }), ['id', 'slug', 'name']);
  }
}
