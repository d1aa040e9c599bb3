import type { Command } from 'commander';
import { relative } from 'node:path';
import { action, type ProgramState } from '../main.js';
import { printResult, table, UsageError } from '../output.js';
import type { Io } from '../io.js';
import { choices, oneOf } from '../choices.js';

type Plan = {
  create: Array<{ kind: string; slug: string }>;
  update: Array<{ kind: string; slug: string; changes: string[] }>;
  delete: Array<{ kind: string; slug: string; contentCount: number }>;
  unchanged: Array<{ kind: string; slug: string }>;
};

const describePlan = (plan: Plan, applied: boolean): string => {
  const lines: string[] = [];
  for (const c of plan.create) lines.push(`+ ${c.kind}/${c.slug}`);
  for (const u of plan.update) lines.push(`~ ${u.kind}/${u.slug}: ${u.changes.join(', ')}`);
  for (const d of plan.delete) lines.push(`- ${d.kind}/${d.slug}${d.contentCount ? ` (${d.contentCount} entries)` : ''}`);
  const n = plan.create.length + plan.update.length + plan.delete.length;
  lines.push(n === 0 ? 'Schema is up to date.' : `${n} change${n === 1 ? '' : 's'}${applied ? ' applied' : ' to apply'}; ${plan.unchanged.length} unchanged.`);
  return lines.join('\n');
};

const kindArg: Record<string, 'pageTypes' | 'collections' | 'components'> = {
  'page-type': 'pageTypes', 'page-types': 'pageTypes', page: 'pageTypes',
  collection: 'collections', collections: 'collections',
  component: 'components', components: 'components',
};

async function readDocuments(io: Io, schemasDir: string) {
  const { readSchemaFiles } = await import('../schema-files.js');
  const { CmsError } = await import('../../core/errors.js');
  const result = readSchemaFiles(schemasDir, io.cwd);
  if (result.unreadable.length) {
    throw new CmsError('VALIDATION_FAILED',
      `The schema has ${result.unreadable.length} unreadable file(s):\n` + result.unreadable.map((u) => `  ${u.file}: ${u.message}`).join('\n'),
      result.unreadable.map((u) => ({ file: u.file, path: '(file)', message: u.message })));
  }
  return result.documents;
}

export function registerSchema(program: Command, state: ProgramState): void {
  const { io } = state;
  const schema = program.command('schema').description('page types, collections and components, kept as JSON files under schemas/');

  schema.command('push')
    .description('validate every schema file and apply them to the database')
    .option('--force', 'also delete types that have content when their file is gone')
    .action(action(state, async (g, opts: { force?: boolean }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, async (e) => {
        const docs = await readDocuments(io, e.config.schemasDir);
        return e.run('schema.push', { ...docs, force: !!opts.force });
      });
      printResult(io, g, data, (plan: Plan) => describePlan(plan, true));
    }));

  schema.command('diff')
    .description('show what push would change')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, async (e) => e.run('schema.diff', await readDocuments(io, e.config.schemasDir)));
      printResult(io, g, data, (plan: Plan) => describePlan(plan, false));
    }));

  schema.command('pull')
    .description('write the database\'s schemas to files')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const { writeSchemaFile } = await import('../schema-files.js');
      const data = await withEngine(g, io, async (e) => {
        const set = (await e.run('schema.pull', {})) as Record<'pageTypes' | 'collections' | 'components', Array<{ slug: string }>>;
        const files: string[] = [];
        for (const kind of ['pageTypes', 'collections', 'components'] as const) {
          for (const def of set[kind]) files.push(relative(io.cwd, writeSchemaFile(e.config.schemasDir, kind, def)));
        }
        await writeJsonSchema(e.config.schemasDir);
        return { ...set, files };
      });
      printResult(io, g, data, (d: { files: string[] }) => d.files.length ? `Wrote ${d.files.length} file(s):\n${d.files.map((f) => `  ${f}`).join('\n')}` : 'No schemas in the database.');
    }));

  schema.command('list')
    .description('list the types in the database')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('schema.list', {}));
      printResult(io, g, data, (rows: Array<Record<string, unknown>>) => table(io, rows, ['kind', 'slug', 'name', 'fields', 'entries'],
        'No types yet. Add one: cms schema add page-type landing-page --field title:text:required (or write schemas/ files and run cms schema push)'));
    }));

  schema.command('add')
    .description('create a type from flags (or by questions on a terminal), write its file and apply it')
    .argument('[kind]', 'page-type, collection or component')
    .argument('[slug]', 'the type\'s slug, like landing-page')
    .option('--name <name>', 'display name')
    .option('--field <spec...>', 'a field as name:type[:required]; a select as name:select:CHOICES[:required], CHOICES being ' +
      'comma-separated values (each its own label) or value=Label pairs; repeatable. E.g. --field title:text:required ' +
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
        return { ...(created as object), kind, file };
      });
      printResult(io, g, data, (d: { kind: string; slug: string; file: string }) => `Created ${d.kind}/${d.slug} and wrote ${d.file}.`);
    }));
}

export interface FieldSpec {
  name: string;
  type: string;
  label: string;
  required?: boolean;
  options?: { choices: Array<{ value: string; label: string }> };
}

const fieldGrammar = 'name:type[:required], or for a select name:select:CHOICES[:required]';

/**
 * `--field` grammar: `name:type[:required]`; a select is `name:select:CHOICES[:required]`, CHOICES
 * comma-separated, each `value` (its own label) or `value=Label`. A select always has its choices in
 * the third part, so `:required` at the end can never be read as a choice.
 */
export function parseFieldSpec(spec: string): FieldSpec {
  const parts = spec.split(':');
  const name = parts[0]?.trim() ?? '';
  const type = parts[1]?.trim() || 'text';
  let rest = parts.slice(2);
  const required = rest.length > 0 && rest[rest.length - 1] === 'required';
  if (required) rest = rest.slice(0, -1);
  if (!name) throw new UsageError(`Field "${spec}" needs a name: ${fieldGrammar}`);
  if (!(choices.fieldTypes as readonly string[]).includes(type)) {
    throw new UsageError(`Field "${spec}": "${type}" is not a field type; use ${oneOf(choices.fieldTypes)}`);
  }
  const base = { name, type, label: titleCase(name), ...(required ? { required: true } : {}) };
  if (type !== 'select') {
    if (rest.length) throw new UsageError(`Field "${spec}": after the type only ":required" may follow (${fieldGrammar})`);
    return base;
  }
  // Labels may hold colons: everything between the type and a final :required is the choice list.
  const list = rest.join(':');
  if (!list.trim()) {
    throw new UsageError(`Field "${spec}": a select needs its choices, e.g. ${name}:select:cto,cfo${required ? ':required' : ''} ` +
      `or ${name}:select:"cto=Chief Technology Officer,cfo=Chief Financial Officer"${required ? ':required' : ''}`);
  }
  return { ...base, options: { choices: parseChoices(list, spec) } };
}

/** `cto,cfo` or `cto=Chief Technology Officer,cfo=CFO`. */
export function parseChoices(list: string, context: string): Array<{ value: string; label: string }> {
  const out = list.split(',').map((entry) => {
    const eq = entry.indexOf('=');
    const value = (eq < 0 ? entry : entry.slice(0, eq)).trim();
    const label = (eq < 0 ? entry : entry.slice(eq + 1)).trim();
    if (!value || !label) throw new UsageError(`Field "${context}": the choice "${entry}" needs a value (and a label after =, when given)`);
    return { value, label };
  });
  const seen = new Set<string>();
  for (const c of out) {
    if (seen.has(c.value)) throw new UsageError(`Field "${context}": the choice "${c.value}" is given twice`);
    seen.add(c.value);
  }
  return out;
}

const titleCase = (s: string) => s.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^\w/, (c) => c.toUpperCase());

/** The JSON Schema editors use to autocomplete the files (their `$schema` points at it). */
export async function writeJsonSchema(schemasDir: string): Promise<void> {
  const { typeDefinitionJsonSchema } = await import('../../core/schema/index.js');
  const { writeFileSync, mkdirSync } = await import('node:fs');
  mkdirSync(schemasDir, { recursive: true });
  writeFileSync(`${schemasDir}/cms-schema.json`, JSON.stringify(typeDefinitionJsonSchema(), null, 2) + '\n');
}
