import type { Command } from 'commander';
import type { BulkAction } from '../../core/content/admin/index.js';
import type { OperationName } from '../../core/registry.js';
import type { GlobalOptions } from '../io.js';
import { action, type ProgramState } from '../command-kit.js';
import type { Engine } from '../engine.js';
import { printResult, table, UsageError } from '../output.js';
import { readJsonOption, refOf } from '../inputs.js';
import { choiceOption, choices, chosen, countOption } from '../choices.js';

/** The admin operations `cms pages` and `cms items` run, by name. */
const adminOperations = {
  page: {
    clone: 'pages.clone', versions: 'pages.versions', restore: 'pages.restore', resolveConflict: 'pages.resolveConflict',
    schedule: 'pages.schedule', unschedule: 'pages.unschedule',
    bulk: { delete: 'pages.bulkDelete', publish: 'pages.bulkPublish', unpublish: 'pages.bulkUnpublish' },
  },
  item: {
    clone: 'items.clone', versions: 'items.versions', restore: 'items.restore', resolveConflict: 'items.resolveConflict',
    schedule: 'items.schedule', unschedule: 'items.unschedule',
    bulk: { delete: 'items.bulkDelete', publish: 'items.bulkPublish', unpublish: 'items.bulkUnpublish' },
  },
} as const satisfies Record<'page' | 'item', Record<string, OperationName | Record<BulkAction, OperationName>>>;

/** Adds the admin verbs (clone, versions, restore, schedule, bulk…) to `cms pages` and `cms items`. */
export function registerContentAdmin(pages: Command, items: Command, state: ProgramState): void {
  registerVerbs(pages, state, 'page');
  registerVerbs(items, state, 'item');

  pages.command('publish-due')
    .description('publish (and unpublish) the scheduled pages and items that are due (what `cms serve` does every minute; for cron without a server)')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, state.io, (e) => e.run('content.publishDue', {}));
      printResult(state.io, g, data, (d) => [
        `Published ${d.published.length} due entr${d.published.length === 1 ? 'y' : 'ies'}.`,
        ...(d.unpublished.length ? [`Unpublished ${d.unpublished.length} due entr${d.unpublished.length === 1 ? 'y' : 'ies'}.`] : []),
        ...d.failed.map((f) => `Could not publish ${f.kind} ${f.slug} (${f.error.code}: ${f.error.message}); it was unscheduled.`),
      ].join('\n'));
      if (data.failed.length) state.exitCode = 1;
    }));
}

function registerVerbs(cmd: Command, state: ProgramState, kind: 'page' | 'item'): void {
  const { io } = state;
  const p = kind === 'page' ? 'pages' : 'items';
  const noun = kind === 'page' ? 'page' : 'item';
  const aNoun = kind === 'page' ? 'a page' : 'an item';
  const withCollection = (c: Command) => (kind === 'item' ? c.requiredOption('--collection <type>', 'the collection type slug') : c);
  const collectionOf = (opts: { collection?: string }) => (kind === 'item' ? { collection: opts.collection } : {});
  const ops = adminOperations[kind];
  const run = async <T>(g: GlobalOptions, fn: (e: Engine) => Promise<T>): Promise<T> => {
    const { withEngine } = await import('../engine.js');
    return withEngine(g, io, fn);
  };

  withCollection(cmd.command('clone').description(`copy ${aNoun} into a new draft (slug <slug>-copy unless --slug)`).argument('<idOrSlug>'))
    .option('--slug <slug>', 'slug of the copy').option('--name <name>', 'name of the copy')
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; slug?: string; name?: string }) => {
      const data = await run(g, (e) => e.run(ops.clone, { ref: refOf(idOrSlug), ...collectionOf(opts), slug: opts.slug, name: opts.name }));
      printResult(io, g, data, (d) => `Cloned into ${noun} ${d.slug} (draft), id ${d.id}.`);
    }));

  withCollection(cmd.command('versions').description(`list the stored versions of ${aNoun} (taken at publish, unpublish and restore)`).argument('<idOrSlug>'))
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string }) => {
      const data = await run(g, (e) => e.run(ops.versions, { ref: refOf(idOrSlug), ...collectionOf(opts) }));
      printResult(io, g, data, (rows) => table(io, rows, ['version', 'status', 'createdAt', 'createdBy'],
        `No stored versions of ${idOrSlug} yet; publishing stores one: cms ${p} publish ${idOrSlug}${kind === 'item' ? ` --collection ${opts.collection}` : ''}`));
    }));

  withCollection(cmd.command('restore').description(`bring back a stored version's draft as a new version`).argument('<idOrSlug>').argument('<version>', 'the version number (see versions)'))
    .action(action(state, async (g, idOrSlug: string, version: string, opts: { collection?: string }) => {
      if (!/^\d+$/.test(version)) throw new UsageError(`<version> must be a version number, got "${version}"`);
      const data = await run(g, (e) => e.run(ops.restore, { ref: refOf(idOrSlug), ...collectionOf(opts), version: Number(version) }));
      printResult(io, g, data, (d) => `Restored version ${version} of ${noun} ${d.slug}; it is now version ${d.version} (publish to make it live).`);
    }));

  withCollection(cmd.command('resolve-conflict').description(`settle an edit made from an older version: keep mine, take theirs, or save a merged document`).argument('<idOrSlug>'))
    .addOption(countOption('--base-version <n>', 'the version the edit started from', 1).makeOptionMandatory())
    .addOption(choiceOption('--strategy <strategy>', 'mine keeps your edit, theirs takes the current version, merge saves --fields', choices.conflictStrategies).makeOptionMandatory())
    .option('--fields <json>', 'for mine: your fields, merged over the current draft; for merge: your fields, three-way merged with the base version (JSON, @file.json or @- for standard input)')
    .option('--locale <code>', 'the locale --fields are in (default: the project\'s default locale)')
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; baseVersion: string; strategy: string; fields?: string; locale?: string }) => {
      if (!/^\d+$/.test(opts.baseVersion)) throw new UsageError(`--base-version must be a version number, got "${opts.baseVersion}"`);
      const input = {
        ref: refOf(idOrSlug), ...collectionOf(opts), baseVersion: Number(opts.baseVersion),
        strategy: chosen(choices.conflictStrategies, opts.strategy, '--strategy'),
        fields: await readJsonOption(io, 'fields', opts.fields),
        locale: opts.locale,
      };
      const data = await run(g, (e) => e.run(ops.resolveConflict, input));
      printResult(io, g, data, (d) => `Resolved ${noun} ${d.slug}; it is now version ${d.version}.`);
    }));

  withCollection(cmd.command('schedule').description(`publish and/or unpublish the ${noun} at a later time (the server's scheduler, or \`cms pages publish-due\`, does it)`).argument('<idOrSlug>'))
    .option('--at <datetime>', 'when to publish, as ISO 8601 (e.g. 2026-03-01T09:00:00Z)')
    .option('--unpublish-at <datetime>', 'when to unpublish, as ISO 8601 (after --at when both are set)')
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; at?: string; unpublishAt?: string }) => {
      const data = await run(g, (e) => e.run(ops.schedule, {
        ref: refOf(idOrSlug), ...collectionOf(opts),
        ...(opts.at !== undefined ? { publishAt: opts.at } : {}), ...(opts.unpublishAt !== undefined ? { unpublishAt: opts.unpublishAt } : {}),
      }));
      printResult(io, g, data, (d) => [
        ...(d.publishAt ? [`${noun === 'page' ? 'Page' : 'Item'} ${d.slug} will be published at ${d.publishAt}.`] : []),
        ...(d.unpublishAt ? [`${noun === 'page' ? 'Page' : 'Item'} ${d.slug} will be unpublished at ${d.unpublishAt}.`] : []),
      ].join('\n'));
    }));

  withCollection(cmd.command('unschedule').description(`cancel the ${noun}'s scheduled publishing and unpublishing (or one of them, with --only)`).argument('<idOrSlug>'))
    .option('--only <which>', 'publish or unpublish: cancel only that one')
    .action(action(state, async (g, idOrSlug: string, opts: { collection?: string; only?: string }) => {
      const data = await run(g, (e) => e.run(ops.unschedule, { ref: refOf(idOrSlug), ...collectionOf(opts), ...(opts.only !== undefined ? { which: chosen(['publish', 'unpublish'] as const, opts.only, '--only') } : {}) }));
      printResult(io, g, data, (d) => `${noun === 'page' ? 'Page' : 'Item'} ${d.slug} is ${d.publishAt || d.unpublishAt ? 'no longer scheduled to ' + (d.publishAt ? 'unpublish' : 'publish') : 'no longer scheduled'}.`);
    }));

  for (const verb of ['delete', 'publish', 'unpublish'] as const satisfies readonly BulkAction[]) {
    const c = withCollection(cmd.command(`bulk-${verb}`)
      .description(`${verb} several ${p} by id, each on its own (one failing does not stop the others; exit code 1 if any failed)`)
      .argument('<ids...>', 'ids (space- or comma-separated)'));
    if (verb === 'delete') c.option('--force', 'delete even when referenced');
    c.action(action(state, async (g, ids: string[], opts: { collection?: string; force?: boolean }) => {
      const { runBulk } = await import('../../core/content/admin/index.js');
      const list = ids.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
      // runBulk runs the action's operation once per id, each on its own.
      const result = await run(g, (e) => runBulk(ops.bulk[verb], {
        ids: list, ...(kind === 'item' ? { collection: opts.collection } : {}), ...(opts.force ? { force: true } : {}),
      }, (name, input) => e.run(name, input)));
      printResult(io, g, result.data, (rows) => table(io,
        rows.map((r) => ({ id: r.id, result: r.ok ? 'ok' : `${r.error?.code}: ${r.error?.message}` })), ['id', 'result'], 'No ids given.'));
      if (result.data.some((r) => !r.ok)) state.exitCode = 1;
    }));
  }
}
