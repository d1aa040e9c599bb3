import type { Command } from 'commander';
import { relative } from 'node:path';
import { action, type ProgramState } from '../command-kit.js';
import { exitCodes, printResult, table, UsageError } from '../output.js';
import type { Io } from '../io.js';
import { choices, oneOf } from '../choices.js';
import { parseFieldSpec, titleCase } from '../field-specs.js';
import type { SchemaPlan } from '../../core/types/operations.js';
import type { Engine } from '../engine.js';
import { propertyOf } from '../../lib/unknown-values.js';

const entries = (n: number, verb: string, verbs: string) => `${n} entr${n === 1 ? `y ${verb}` : `ies ${verbs}`}`;

/** The plan as text: each type added (+), changed (~, field by field) or removed (-), with the entries a removal touches. */
const describePlan = (plan: SchemaPlan, applied: boolean): string => {
  const lines: string[] = [];
  for (const c of plan.create) lines.push(`+ ${c.kind}/${c.slug}`);
  for (const u of plan.update) {
    lines.push(`~ ${u.kind}/${u.slug}`);
    for (const change of u.changes) if (!/^[+~-] field /.test(change)) lines.push(`    ${change}`);
    for (const f of u.fields.added) lines.push(`    + field ${f}`);
    for (const f of u.fields.changed) {
      lines.push(`    ~ field ${f.field}: ${f.changes.join(', ')}${f.entriesWithValues ? ` (${entries(f.entriesWithValues, 'holds a value', 'hold a value')})` : ''}`);
    }
    for (const f of u.fields.removed) {
      lines.push(`    - field ${f.field}${f.entriesWithValues ? ` (${entries(f.entriesWithValues, 'loses its value', 'lose their value')})` : ''}`);
    }
  }
  for (const d of plan.delete) lines.push(`- ${d.kind}/${d.slug}${d.contentCount ? ` (${d.contentCount} entries)` : ''}`);
  for (const l of plan.localization ?? []) {
    lines.push(l.direction === 'localized'
      ? `  ${l.kind}/${l.slug}: field ${l.field} becomes localized (its value stays the default locale's; other locales start empty)`
      : `  ${l.kind}/${l.slug}: field ${l.field} becomes shared (the default locale's value stays; ` +
        `${l.entriesLosingValues} entr${l.entriesLosingValues === 1 ? 'y loses' : 'ies lose'} other locales' values)`);
  }
  lines.push(summary(plan, applied));
  return lines.join('\n');
};

const summary = (plan: SchemaPlan, applied: boolean): string => {
  const n = plan.create.length + plan.update.length + plan.delete.length;
  return n === 0 ? 'Schema is up to date.' : `${n} change${n === 1 ? '' : 's'}${applied ? ' applied' : ' to apply'}; ${plan.unchanged.length} unchanged.`;
};

const kindArg: Record<string, 'pageTypes' | 'collections' | 'components'> = {
  'page-type': 'pageTypes', 'page-types': 'pageTypes', page: 'pageTypes',
  collection: 'collections', collections: 'collections',
  component: 'components', components: 'components',
};

/**
 * The schema files, read. A file that is not valid JSON, or not named after its slug, is refused
 * with the problems of every other file (decisions §4: all errors reported at once): the readable
 * files are checked too, and their problems join the files' own in one VALIDATION_FAILED.
 */
async function readDocuments(io: Io, engine: Engine) {
  const { readSchemaFiles } = await import('../schema-files.js');
  const { CmsError, isCmsError } = await import('../../core/errors.js');
  const result = readSchemaFiles(engine.config.schemasDir, io.cwd);
  if (!result.unreadable.length) return result.documents;
  const issues: Array<{ file?: string; path: string; message: string }> = result.unreadable.map((u) => ({ file: u.file, path: u.path, message: u.message }));
  try {
    await engine.run('schema.diff', result.documents);
  } catch (e) {
    if (!isCmsError(e) || e.code !== 'VALIDATION_FAILED' || !Array.isArray(e.details)) throw e;
    for (const issue of e.details) {
      if (typeof issue !== 'object' || issue === null) continue;
      const file = propertyOf(issue, 'file');
      issues.push({ ...issue, ...(typeof file === 'string' ? { file } : {}), path: String(propertyOf(issue, 'path')), message: String(propertyOf(issue, 'message')) });
    }
  }
  throw new CmsError('VALIDATION_FAILED',
    `The schema has ${issues.length} problem${issues.length === 1 ? '' : 's'}:\n` +
      issues.map((i) => `  ${i.file ?? ''}: ${i.path}: ${i.message}`).join('\n'),
    issues);
}

export function registerSchema(program: Command, state: ProgramState): void {
  const { io } = state;
  const schema = program.command('schema').description('page types, collections and components, kept as JSON files under schemas/');

  schema.command('push')
    .description('validate every schema file and apply them to the database')
    .option('--force', 'also delete types that have content when their file is gone')
    .option('--yes', 'ask nothing: apply even what drops content (what scripts and CI do anyway: they have no terminal)')
    .action(action(state, async (g, opts: { force?: boolean; yes?: boolean }) => {
      const interactive = !opts.yes && !g.json && io.stdinIsTTY && io.stdout.isTTY;
      const { withEngine } = await import('../engine.js');
      let shown = false;
      const data = await withEngine(g, io, async (e) => {
        const docs = await readDocuments(io, e);
        if (interactive) {
          // On a terminal: the plan first, and a question before anything that drops content.
          const plan = await e.run('schema.diff', docs);
          const blocked = !opts.force && plan.delete.some((d) => d.contentCount > 0);
          if (plan.destructive && !blocked) {
            io.stdout.write(`${describePlan(plan, false)}\n`);
            shown = true;
            const { confirmApply } = await import('../prompts.js');
            if (!(await confirmApply())) return null;
          }
        }
        return e.run('schema.push', { ...docs, force: !!opts.force });
      });
      if (data === null) {
        io.stderr.write('Nothing was changed.\n');
        state.exitCode = exitCodes.failed;
        return;
      }
      printResult(io, g, data, (plan) => (shown ? summary(plan, true) : describePlan(plan, true)));
    }));

  schema.command('diff')
    .description('show what push would change')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, async (e) => e.run('schema.diff', await readDocuments(io, e)));
      printResult(io, g, data, (plan) => describePlan(plan, false));
    }));

  schema.command('pull')
    .description('write the database\'s schemas to files; files of types the database does not have are listed (removed with --prune)')
    .option('--prune', 'remove the schema files of types the database does not have (renamed or deleted), so the next push does not create them again')
    .action(action(state, async (g, opts: { prune?: boolean }) => {
      const { withEngine } = await import('../engine.js');
      const { writeSchemaFile, writeJsonSchema, filesWithoutType } = await import('../schema-files.js');
      const { rmSync } = await import('node:fs');
      const data = await withEngine(g, io, async (e) => {
        const set = await e.run('schema.pull', {});
        const files: string[] = [];
        for (const kind of ['pageTypes', 'collections', 'components'] as const) {
          for (const def of set[kind]) files.push(relative(io.cwd, writeSchemaFile(e.config.schemasDir, kind, def)));
        }
        await writeJsonSchema(e.config.schemasDir);
        const extra = filesWithoutType(e.config.schemasDir, set);
        if (opts.prune) for (const f of extra) rmSync(f);
        const listed = extra.map((f) => relative(io.cwd, f));
        return { ...set, files, ...(opts.prune ? { removed: listed } : { stale: listed }) };
      });
      printResult(io, g, data, (d) => [
        d.files.length ? `Wrote ${d.files.length} file(s):\n${d.files.map((f) => `  ${f}`).join('\n')}` : 'No schemas in the database.',
        ...('removed' in d && d.removed.length ? [`Removed ${d.removed.length} file(s) of types the database does not have:\n${d.removed.map((f) => `  ${f}`).join('\n')}`] : []),
        ...('stale' in d && d.stale.length
          ? [`${d.stale.length} file(s) name types the database does not have (renamed or deleted?); the next push would create them again. Remove them, or run cms schema pull --prune:\n${d.stale.map((f) => `  ${f}`).join('\n')}`]
          : []),
      ].join('\n'));
    }));

  schema.command('list')
    .description('list the types in the database')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('schema.list', {}));
      printResult(io, g, data, (rows) => table(io, rows, ['kind', 'slug', 'name', 'fields', 'entries'],
        'No types yet. Add one: cms schema add page-type landing-page --field title:text:required (or write schemas/ files and run cms schema push)'));
    }));

  schema.command('add')
    .description('create a type from flags (or by questions on a terminal), write its file and apply it')
    .argument('[kind]', 'page-type, collection or component')
    .argument('[slug]', 'the type\'s slug, like landing-page')
    .option('--name <name>', 'display name')
    .option('--field <spec...>', 'a field as name:type[:required]; a select as name:select[:CHOICES][:required], CHOICES being ' +
      'comma-separated values (each its own label) or value=Label pairs (none: any text); repeatable. E.g. --field title:text:required ' +
      '--field role:select:cto,cfo --field tier:select:"gold=Gold tier,silver=Silver tier":required')
    .option('--yes', 'ask nothing')
    .action(action(state, async (g, kindRaw: string | undefined, slugRaw: string | undefined, opts: { name?: string; field?: string[]; yes?: boolean }) => {
      const interactive = !opts.yes && !g.json && io.stdinIsTTY && io.stdout.isTTY;
      let kindName = kindRaw;
      let slug = slugRaw;
      let name = opts.name;
      if (kindName !== undefined && !kindArg[kindName]) {
        throw new UsageError(`"${kindName}" is not a kind of type: use ${oneOf(choices.typeKinds)}, as in cms schema add collection team --field name:text`);
      }
      let fields = (opts.field ?? []).map(parseFieldSpec);
      if (interactive && (!kindName || !slug || fields.length === 0)) {
        const { askTypeDefinition } = await import('../prompts.js');
        const answers = await askTypeDefinition({ kind: kindName, slug, name, fields });
        if (!answers) throw new UsageError('Cancelled');
        ({ kind: kindName, slug, name, fields } = answers);
      }
      if (!kindName || !kindArg[kindName]) throw new UsageError(`Say what to add, ${oneOf(choices.typeKinds)}: cms schema add page-type landing-page --field title:text`);
      if (!slug) throw new UsageError('A slug is needed, like landing-page');
      if (fields.length === 0) throw new UsageError('Give at least one field: --field title:text:required');
      const kind = kindArg[kindName]!;
      const definition = { slug, name: name ?? titleCase(slug), fields };
      const { withEngine } = await import('../engine.js');
      const { writeSchemaFile } = await import('../schema-files.js');
      const data = await withEngine(g, io, async (e) => {
        const created = await e.run('types.create', { kind, definition });
        const file = relative(io.cwd, writeSchemaFile(e.config.schemasDir, kind, definition));
        return { ...created, kind, file };
      });
      printResult(io, g, data, (d) => `Created ${d.kind}/${d.slug} and wrote ${d.file}.`);
    }));
}

