import { Option, type Command } from 'commander';
import type { OperationName } from '../../core/registry.js';
import { action, type ProgramState } from '../command-kit.js';
import type { Engine } from '../engine.js';
import { printList, printResult, UsageError } from '../output.js';
import type { GlobalOptions } from '../io.js';
import { given, readJsonOption, refOf } from '../inputs.js';
import { registerContentAdmin } from './content-admin.js';
import { choiceOption, choices, chosen, countOption } from '../choices.js';

/** The operations `cms pages` and `cms items` run, by name. */
const entryOperations = {
  page: {
    list: 'pages.list', get: 'pages.get', create: 'pages.create', update: 'pages.update',
    publish: 'pages.publish', unpublish: 'pages.unpublish', delete: 'pages.delete',
  },
  item: {
    list: 'items.list', get: 'items.get', create: 'items.create', update: 'items.update',
    publish: 'items.publish', unpublish: 'items.unpublish', delete: 'items.delete',
  },
} as const satisfies Record<'page' | 'item', Record<string, OperationName>>;

interface ListOpts { type?: string; status?: string; search?: string; page?: string; limit?: string; sort?: string; filter?: string[] }

function listQuery(opts: ListOpts): Record<string, string> {
  const q: Record<string, string> = {};
  if (opts.page) q.page = opts.page;
  if (opts.limit) q.limit = opts.limit;
  if (opts.sort) q.sort = opts.sort;
  if (opts.type) q.pageType = opts.type;
  if (opts.search) q.search = opts.search;
  if (opts.status) q.status = opts.status;
  for (const f of opts.filter ?? []) {
    const m = /^([^=\[]+)(?:\[(\w+)\])?=(.*)$/.exec(f);
    if (!m) throw new UsageError(`--filter "${f}": use field[op]=value, e.g. fields.price[gt]=10`);
    q[`filter[${m[1]}]${m[2] ? `[${m[2]}]` : ''}`] = m[3]!;
  }
  return q;
}

/** What an empty list says: nothing yet, and the command that makes the first one. */
function emptyList(kind: 'page' | 'item', opts: ListOpts & { collection?: string }): string {
  if (opts.search || opts.status) return `No ${kind === 'page' ? 'pages' : `${opts.collection} items`} match the search or status.`;
  if (kind === 'item') {
    if (opts.filter?.length) return `No ${opts.collection} items match the filter.`;
    return `No ${opts.collection} items yet. Create one: cms items create --collection ${opts.collection} --name "First item" --slug first-item`;
  }
  return `No ${opts.type ? `${opts.type} ` : ''}pages yet. Create one: cms pages create --type ${opts.type ?? 'PAGE_TYPE'} --name Home --slug home` +
    (opts.type ? '' : ' (page types: cms schema list)');
}

const localeHelp = (kind: 'page' | 'item') => `write the localized fields${kind === 'page' ? ' and the SEO' : ''} in this locale; shared fields change for every locale (default: the project's default locale)`;

function registerEntryCommands(program: Command, state: ProgramState, kind: 'page' | 'item'): Command {
  const { io } = state;
  const p = kind === 'page' ? 'pages' : 'items';
  const noun = kind === 'page' ? 'page' : 'item';
  const aNoun = kind === 'page' ? 'a page' : 'an item';
  const cmd = program.command(p).description(kind === 'page' ? 'pages: create, update, publish, read (drafts included)' : 'collection items (each command takes --collection TYPE)');
  const withCollection = (c: Command) => (kind === 'item' ? c.requiredOption('--collection <type>', 'the collection type slug') : c);
  const collectionOf = (opts: { collection?: string }) => (kind === 'item' ? { collection: opts.collection } : {});

  const ops = entryOperations[kind];
  const run = async <T>(g: GlobalOptions, fn: (e: Engine) => Promise<T>): Promise<T> => {
    const { withEngine } = await import('../engine.js');
    return withEngine(g, io, fn);
  };

  withCollection(cmd.command('list').description(`list ${p}, drafts included`))
    .addOption(countOption('--page <n>', 'page number', 1)).addOption(countOption('--limit <n>', 'page size (1-100)', 1)).option('--sort <keys>', 'e.g. -updatedAt,name')
    .option('--search <text>', 'only entries whose name or slug contains this (any case)')
    .addOption(new Option('--status <status>', 'only draft, published or scheduled entries').choices(['draft', 'published', 'scheduled']))
    .option(kind === 'page' ? '--type <slug>' : '--filter <expr...>', kind === 'page' ? 'only this page type' : 'e.g. fields.price[gt]=10 (repeatable)')
    .action(action(state, async (g, opts: ListOpts & { collection?: string }) => {
      const result = await run(g, (e) => e.run(ops.list, { ...collectionOf(opts), query: listQuery(opts) }));
      printList(io, g, result, kind === 'page' ? ['id', 'slug', 'name', 'pageTypeSlug', 'status', 'version', 'updatedAt'] : ['id', 'slug', 'name', 'status', 'version', 'updatedAt'],
        emptyList(kind, opts));
    }));

  withCollection(cmd.command('get').description(`show one ${noun} (write shape, drafts included)`).argument('<idOrSlug>'))
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string }) => {
      const data = await run(g, (e) => e.run(ops.get, { ref: refOf(idOrSlug), ...collectionOf(opts) }));
      printResult(io, g, data, (d: unknown) => JSON.stringify(d, null, 2));
    }));

  const create = cmd.command('create').description(`create ${aNoun} (a draft unless --status published)`);
  (kind === 'page' ? create.requiredOption('--type <slug>', 'page type slug') : withCollection(create))
    .requiredOption('--name <name>', 'display name').requiredOption('--slug <slug>', 'URL slug')
    .option('--fields <json>', 'content as JSON, @file.json, or @- (standard input)')
    .addOption(kind === 'page' ? new Option('--seo <json>', 'SEO as JSON or @file.json (ogImageId, metaTitle…)') : countOption('--sort-order <n>', 'position in authored order'))
    .addOption(choiceOption('--status <status>', 'draft (the default), or published to publish it at once', choices.contentStatuses))
    .option('--locale <code>', localeHelp(kind))
    .action(action(state, async (g, opts: { type?: string; collection?: string; name: string; slug: string; fields?: string; seo?: string; sortOrder?: string; status?: string; locale?: string }) => {
      const input = {
        ...(kind === 'page' ? { pageTypeSlug: given(opts.type, '--type') } : { collectionTypeSlug: given(opts.collection, '--collection') }),
        name: opts.name, slug: opts.slug,
        fields: await readJsonOption(io, 'fields', opts.fields),
        ...(kind === 'page' ? { seo: await readJsonOption(io, 'seo', opts.seo) } : { sortOrder: opts.sortOrder === undefined ? undefined : Number(opts.sortOrder) }),
        status: chosen(choices.contentStatuses, opts.status, '--status'),
        locale: opts.locale,
      };
      const data = await run(g, (e) => e.run(ops.create, input));
      printResult(io, g, data, (d) => `Created ${noun} ${d.slug} (${d.status}), id ${d.id}.`);
    }));

  withCollection(cmd.command('update').description(`change ${aNoun}: only what you pass changes; ${kind === 'page' ? 'fields and seo merge' : 'fields merge'} key by key (null clears a key)`).argument('<idOrSlug>'))
    .option('--name <name>', 'new display name').option('--slug <slug>', 'new slug (the old one keeps redirecting)')
    .option('--fields <json>', 'fields to change, as JSON, @file.json or @- (null clears a field)')
    .addOption(kind === 'page' ? new Option('--seo <json>', 'SEO members to change, as JSON or @file.json (null clears one)') : countOption('--sort-order <n>', 'position in authored order'))
    .addOption(countOption('--version <n>', 'the version you expect (refused with VERSION_CONFLICT if it moved on)', 1))
    .option('--locale <code>', localeHelp(kind))
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; name?: string; slug?: string; fields?: string; seo?: string; sortOrder?: string; version?: string; locale?: string }) => {
      const input = {
        ref: refOf(idOrSlug), ...collectionOf(opts), name: opts.name, slug: opts.slug,
        fields: await readJsonOption(io, 'fields', opts.fields),
        ...(kind === 'page' ? { seo: await readJsonOption(io, 'seo', opts.seo) } : { sortOrder: opts.sortOrder === undefined ? undefined : Number(opts.sortOrder) }),
        version: opts.version === undefined ? undefined : Number(opts.version),
        locale: opts.locale,
      };
      const data = await run(g, (e) => e.run(ops.update, input));
      printResult(io, g, data, (d) => `Updated ${noun} ${d.slug}, now version ${d.version}.`);
    }));

  for (const verb of ['publish', 'unpublish'] as const) {
    withCollection(cmd.command(verb).description(verb === 'publish' ? `publish the ${noun}'s current draft` : `take the ${noun} back to draft`).argument('<idOrSlug>'))
      .action(action(state, async (g, idOrSlug: string, opts: { collection?: string }) => {
        const data = await run(g, (e) => e.run(ops[verb], { ref: refOf(idOrSlug), ...collectionOf(opts) }));
        printResult(io, g, data, (d) => `${d.slug} is now ${d.status}.`);
      }));
  }

  withCollection(cmd.command('delete').description(`delete ${aNoun} (refused while other content references it, unless --force)`).argument('<idOrSlug>'))
    .option('--force', 'delete even when referenced')
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; force?: boolean }) => {
      const data = await run(g, (e) => e.run(ops.delete, { ref: refOf(idOrSlug), ...collectionOf(opts), force: !!opts.force }));
      if (g.json) io.stdout.write(JSON.stringify(data, null, 2) + '\n');
      else io.stdout.write(`Deleted ${noun} ${idOrSlug}.\n`);
    }));
  return cmd;
}

export function registerContent(program: Command, state: ProgramState): void {
  const pages = registerEntryCommands(program, state, 'page');
  const items = registerEntryCommands(program, state, 'item');
  registerContentAdmin(pages, items, state);
}
