import { Option, type Command } from 'commander';
import { action, type ProgramState } from '../main.js';
import { printResult, table, UsageError } from '../output.js';
import type { GlobalOptions, Io } from '../io.js';
import { registerContentAdmin } from './content-admin.js';
import { choiceOption, choices, countOption } from '../choices.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page or item named on the command line by its id or its slug. */
export const refOf = (idOrSlug: string) => (uuidPattern.test(idOrSlug) ? { id: idOrSlug } : { slug: idOrSlug });

/** `--fields '{"title":"Hi"}'` or `--fields @content.json`. */
export async function readJsonOption(io: Io, name: string, value: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (value === undefined) return undefined;
  let text = value;
  if (value.startsWith('@')) {
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    try { text = readFileSync(resolve(io.cwd, value.slice(1)), 'utf8'); } catch (e) { throw new UsageError(`--${name}: cannot read ${value.slice(1)}: ${(e as Error).message}`); }
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`--${name} must be a JSON object (or @file.json): ${(e as Error).message}`);
  }
}

/** Lists print `{ data: [...], pagination }` with --json, like the HTTP API; a table otherwise. */
export function printList(io: Io, g: GlobalOptions, result: { data: Array<Record<string, unknown>>; pagination?: Record<string, number> }, columns: string[], empty: string): void {
  if (g.json) {
    io.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return;
  }
  const p = result.pagination;
  if (result.data.length === 0 && p && (p.total ?? 0) > 0) {
    io.stdout.write(`Nothing on page ${p.page}: there ${p.total === 1 ? 'is 1' : `are ${p.total}`} in all, on ${p.totalPages} page${p.totalPages === 1 ? '' : 's'}.\n`);
    return;
  }
  io.stdout.write(table(io, result.data, columns, empty) + (p && result.data.length ? `\npage ${p.page} of ${p.totalPages} (${p.total} in all)` : '') + '\n');
}

interface ListOpts { type?: string; status?: string; page?: string; limit?: string; sort?: string; filter?: string[] }

function listQuery(opts: ListOpts): Record<string, string> {
  const q: Record<string, string> = {};
  if (opts.page) q.page = opts.page;
  if (opts.limit) q.limit = opts.limit;
  if (opts.sort) q.sort = opts.sort;
  if (opts.type) q.pageType = opts.type;
  for (const f of opts.filter ?? []) {
    const m = /^([^=\[]+)(?:\[(\w+)\])?=(.*)$/.exec(f);
    if (!m) throw new UsageError(`--filter "${f}": use field[op]=value, e.g. fields.price[gt]=10`);
    q[`filter[${m[1]}]${m[2] ? `[${m[2]}]` : ''}`] = m[3]!;
  }
  return q;
}

/** What an empty list says: nothing yet, and the command that makes the first one. */
function emptyList(kind: 'page' | 'item', opts: ListOpts & { collection?: string }): string {
  if (kind === 'item') {
    if (opts.filter?.length) return `No ${opts.collection} items match the filter.`;
    return `No ${opts.collection} items yet. Create one: cms items create --collection ${opts.collection} --name "First item" --slug first-item`;
  }
  return `No ${opts.type ? `${opts.type} ` : ''}pages yet. Create one: cms pages create --type ${opts.type ?? 'PAGE_TYPE'} --name Home --slug home` +
    (opts.type ? '' : ' (page types: cms schema list)');
}

function registerEntryCommands(program: Command, state: ProgramState, kind: 'page' | 'item'): Command {
  const { io } = state;
  const p = kind === 'page' ? 'pages' : 'items';
  const noun = kind === 'page' ? 'page' : 'item';
  const aNoun = kind === 'page' ? 'a page' : 'an item';
  const cmd = program.command(p).description(kind === 'page' ? 'pages: create, update, publish, read (drafts included)' : 'collection items (each command takes --collection TYPE)');
  const withCollection = (c: Command) => (kind === 'item' ? c.requiredOption('--collection <type>', 'the collection type slug') : c);
  const collectionOf = (opts: { collection?: string }) => (kind === 'item' ? { collection: opts.collection } : {});

  const run = async (g: GlobalOptions, op: string, input: unknown) => {
    const { withEngine } = await import('../engine.js');
    return withEngine(g, io, (e) => e.run(op as never, input));
  };

  withCollection(cmd.command('list').description(`list ${p}, drafts included`))
    .addOption(countOption('--page <n>', 'page number', 1)).addOption(countOption('--limit <n>', 'page size (1-100)', 1)).option('--sort <keys>', 'e.g. -updatedAt,name')
    .option(kind === 'page' ? '--type <slug>' : '--filter <expr...>', kind === 'page' ? 'only this page type' : 'e.g. fields.price[gt]=10 (repeatable)')
    .action(action(state, async (g, opts: ListOpts & { collection?: string }) => {
      const result = (await run(g, `${p}.list`, { ...collectionOf(opts), query: listQuery(opts) })) as { data: Array<Record<string, unknown>>; pagination: Record<string, number> };
      printList(io, g, result, kind === 'page' ? ['id', 'slug', 'name', 'pageTypeSlug', 'status', 'version', 'updatedAt'] : ['id', 'slug', 'name', 'status', 'version', 'updatedAt'],
        emptyList(kind, opts));
    }));

  withCollection(cmd.command('get').description(`show one ${noun} (write shape, drafts included)`).argument('<idOrSlug>'))
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string }) => {
      const data = await run(g, `${p}.get`, { ref: refOf(idOrSlug), ...collectionOf(opts) });
      printResult(io, g, data, (d: unknown) => JSON.stringify(d, null, 2));
    }));

  const create = cmd.command('create').description(`create ${aNoun} (a draft unless --status published)`);
  (kind === 'page' ? create.requiredOption('--type <slug>', 'page type slug') : withCollection(create))
    .requiredOption('--name <name>', 'display name').requiredOption('--slug <slug>', 'URL slug')
    .option('--fields <json>', 'content as JSON, or @file.json')
    .addOption(kind === 'page' ? new Option('--seo <json>', 'SEO as JSON or @file.json (ogImageId, metaTitle…)') : countOption('--sort-order <n>', 'position in authored order'))
    .addOption(choiceOption('--status <status>', 'draft (the default), or published to publish it at once', choices.contentStatuses))
    .action(action(state, async (g, opts: { type?: string; collection?: string; name: string; slug: string; fields?: string; seo?: string; sortOrder?: string; status?: string }) => {
      const input = {
        ...(kind === 'page' ? { pageTypeSlug: opts.type } : { collectionTypeSlug: opts.collection }),
        name: opts.name, slug: opts.slug,
        fields: await readJsonOption(io, 'fields', opts.fields),
        ...(kind === 'page' ? { seo: await readJsonOption(io, 'seo', opts.seo) } : { sortOrder: opts.sortOrder === undefined ? undefined : Number(opts.sortOrder) }),
        status: opts.status,
      };
      const data = await run(g, `${p}.create`, input);
      printResult(io, g, data, (d: { id: string; slug: string; status: string }) => `Created ${noun} ${d.slug} (${d.status}), id ${d.id}.`);
    }));

  withCollection(cmd.command('update').description(`change ${aNoun}: only what you pass changes; ${kind === 'page' ? 'fields and seo merge' : 'fields merge'} key by key (null clears a key)`).argument('<idOrSlug>'))
    .option('--name <name>', 'new display name').option('--slug <slug>', 'new slug (the old one keeps redirecting)')
    .option('--fields <json>', 'fields to change, as JSON or @file.json (null clears a field)')
    .addOption(kind === 'page' ? new Option('--seo <json>', 'SEO members to change, as JSON or @file.json (null clears one)') : countOption('--sort-order <n>', 'position in authored order'))
    .addOption(countOption('--version <n>', 'the version you expect (refused with VERSION_CONFLICT if it moved on)', 1))
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; name?: string; slug?: string; fields?: string; seo?: string; sortOrder?: string; version?: string }) => {
      const input = {
        ref: refOf(idOrSlug), ...collectionOf(opts), name: opts.name, slug: opts.slug,
        fields: await readJsonOption(io, 'fields', opts.fields),
        ...(kind === 'page' ? { seo: await readJsonOption(io, 'seo', opts.seo) } : { sortOrder: opts.sortOrder === undefined ? undefined : Number(opts.sortOrder) }),
        version: opts.version === undefined ? undefined : Number(opts.version),
      };
      const data = await run(g, `${p}.update`, input);
      printResult(io, g, data, (d: { slug: string; version: number }) => `Updated ${noun} ${d.slug}, now version ${d.version}.`);
    }));

  for (const verb of ['publish', 'unpublish'] as const) {
    withCollection(cmd.command(verb).description(verb === 'publish' ? `publish the ${noun}'s current draft` : `take the ${noun} back to draft`).argument('<idOrSlug>'))
      .action(action(state, async (g, idOrSlug: string, opts: { collection?: string }) => {
        const data = await run(g, `${p}.${verb}`, { ref: refOf(idOrSlug), ...collectionOf(opts) });
        printResult(io, g, data, (d: { slug: string; status: string }) => `${d.slug} is now ${d.status}.`);
      }));
  }

  withCollection(cmd.command('delete').description(`delete ${aNoun} (refused while other content references it, unless --force)`).argument('<idOrSlug>'))
    .option('--force', 'delete even when referenced')
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; force?: boolean }) => {
      const data = await run(g, `${p}.delete`, { ref: refOf(idOrSlug), ...collectionOf(opts), force: !!opts.force });
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
