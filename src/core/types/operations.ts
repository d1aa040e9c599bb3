import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { collectionItems, collectionTypes, components, pages, pageTypes } from '../../db/schema/index.js';
import { CmsError, type Issue } from '../errors.js';
import { defineOperation } from '../operation.js';
import type { Ctx } from '../context.js';
import { everyLocaleCode } from '../content/locale-writes.js';
import type { StoredFields } from '../../db/schema/index.js';
import { checkSchemaSet, partialTypeDefinition, storedFields, validateTypeDefinition, type TypeDefinition } from '../schema/index.js';
import { dropFieldValues, dropLocaleValuesOf, entriesWithValues, localizationFlips, planLocalization, type LocalizationChange } from './localization.js';
import { canonicalJson } from '../../lib/canonical-json.js';

export const typeKinds = ['pageTypes', 'collections', 'components'] as const;
export type TypeKind = (typeof typeKinds)[number];

const tables = { pageTypes, collections: collectionTypes, components } as const;
const kindLabel: Record<TypeKind, string> = { pageTypes: 'Page type', collections: 'Collection type', components: 'Component' };

export interface SchemaSet {
  pageTypes: TypeDefinition[];
  collections: TypeDefinition[];
  components: TypeDefinition[];
}

/** A schema problem, named by the file it came from (when it came from one) and a JSON path. */
export interface SchemaIssue extends Issue {
  kind: TypeKind;
  slug: string;
  file?: string | undefined;
}

/** The slug a definition names, for naming its problems before it is known to be valid. */
const slugOf = (definition: unknown): string =>
  typeof definition === 'object' && definition !== null && 'slug' in definition && typeof definition.slug === 'string' ? definition.slug : '?';

const documentSchema = z.object({ definition: z.unknown(), file: z.string().optional() });

export async function loadSchemaSet(db: Db, projectId: string): Promise<SchemaSet> {
  const [p, c, k] = await Promise.all(typeKinds.map((kind) => {
    const t = tables[kind];
    return db.select({ slug: t.slug, name: t.name, fields: t.fields }).from(t).where(eq(t.projectId, projectId)).orderBy(t.slug);
  }));
  const toDefs = (rows: Array<{ slug: string; name: string; fields: StoredFields }>): TypeDefinition[] =>
    rows.map((r) => ({ slug: r.slug, name: r.name, fields: storedFields(r.fields) }));
  return { pageTypes: toDefs(p!), collections: toDefs(c!), components: toDefs(k!) };
}

/** Validates every document, then the set as a whole; every problem at once. */
function validateDocuments(docs: Record<TypeKind, Array<{ definition: unknown; file?: string | undefined }>>): { set: SchemaSet; issues: SchemaIssue[] } {
  const issues: SchemaIssue[] = [];
  const set: SchemaSet = { pageTypes: [], collections: [], components: [] };
  // The checks across definitions also see what is valid of the invalid ones: every problem at once.
  const checked: SchemaSet = { pageTypes: [], collections: [], components: [] };
  const fileOf = new Map<string, string | undefined>();
  for (const kind of typeKinds) {
    for (const doc of docs[kind]) {
      const slug = slugOf(doc.definition);
      const result = validateTypeDefinition(doc.definition);
      if (result.ok) {
        set[kind].push(result.value);
        checked[kind].push(result.value);
        fileOf.set(`${kind}/${result.value.slug}`, doc.file);
      } else {
        for (const issue of result.issues) issues.push({ ...issue, kind, slug, file: doc.file });
        const partial = partialTypeDefinition(doc.definition);
        if (partial) {
          checked[kind].push(partial);
          fileOf.set(`${kind}/${partial.slug}`, doc.file);
        }
      }
    }
  }
  for (const issue of checkSchemaSet(checked)) issues.push({ ...issue, file: fileOf.get(`${issue.kind}/${issue.slug}`) });
  return { set, issues };
}

const schemaFailed = (issues: SchemaIssue[]) => new CmsError(
  'VALIDATION_FAILED',
  `The schema has ${issues.length} problem${issues.length === 1 ? '' : 's'}:\n` +
    issues.map((i) => `  ${i.file ?? `${i.kind}/${i.slug}`}: ${i.path}: ${i.message}`).join('\n'),
  issues,
);

/** One field's change in a type that stays: what changed (`type: text → number`, `required: false → true`, `options`). */
export interface FieldChange {
  field: string;
  changes: string[];
  /** Entries holding a value of the field, present when its type changes (those values may no longer fit). */
  entriesWithValues?: number;
}

/** The fields of a type that stays, added, changed and removed; removals with the entries that hold a value. */
export interface FieldPlan {
  added: string[];
  changed: FieldChange[];
  removed: Array<{ field: string; entriesWithValues: number }>;
}

export interface SchemaPlan {
  create: Array<{ kind: TypeKind; slug: string }>;
  update: Array<{ kind: TypeKind; slug: string; changes: string[]; fields: FieldPlan }>;
  delete: Array<{ kind: TypeKind; slug: string; contentCount: number }>;
  unchanged: Array<{ kind: TypeKind; slug: string }>;
  /**
   * Fields whose `localized` changes, and how many entries lose other locales' values by it
   * (present only when some field changes so: a plan without one reads as before).
   */
  localization?: LocalizationChange[];
  /**
   * Whether applying drops content: a type removed, a field removed or changing type while entries
   * hold values of it, a field becoming shared while entries hold other locales' values of it.
   */
  destructive: boolean;
}

/**
 * How many entries (not deleted) each type has; for a component, how many pages and items hold a
 * value of it (an object with its `_type` that is not a reference), in their draft, published or
 * locale values: what deleting it would leave without a definition.
 */
async function contentCount(db: Db, projectId: string, kind: TypeKind, slugs: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (slugs.length === 0) return out;
  if (kind === 'components') {
    for (const slug of slugs) {
      const uses = (t: typeof pages | typeof collectionItems) => sql`jsonb_path_exists(
        jsonb_build_array(${t.draftContent}, ${t.publishedContent}, ${t.draftLocales}, ${t.publishedLocales}),
        '$.** ? (@._type == $slug && !exists(@._ref))', jsonb_build_object('slug', ${slug}::text))`;
      const [p] = await db.select({ n: count() }).from(pages).where(and(eq(pages.projectId, projectId), isNull(pages.deletedAt), uses(pages)));
      const [i] = await db.select({ n: count() }).from(collectionItems).where(and(eq(collectionItems.projectId, projectId), isNull(collectionItems.deletedAt), uses(collectionItems)));
      const n = (p?.n ?? 0) + (i?.n ?? 0);
      if (n > 0) out.set(slug, n);
    }
    return out;
  }
  if (kind === 'pageTypes') {
    const rows = await db.select({ slug: pageTypes.slug, n: count(pages.id) }).from(pageTypes)
      .innerJoin(pages, and(eq(pages.pageTypeId, pageTypes.id), isNull(pages.deletedAt)))
      .where(and(eq(pageTypes.projectId, projectId), inArray(pageTypes.slug, slugs))).groupBy(pageTypes.slug);
    for (const r of rows) out.set(r.slug, r.n);
  } else {
    const rows = await db.select({ slug: collectionTypes.slug, n: count(collectionItems.id) }).from(collectionTypes)
      .innerJoin(collectionItems, and(eq(collectionItems.collectionTypeId, collectionTypes.id), isNull(collectionItems.deletedAt)))
      .where(and(eq(collectionTypes.projectId, projectId), inArray(collectionTypes.slug, slugs))).groupBy(collectionTypes.slug);
    for (const r of rows) out.set(r.slug, r.n);
  }
  return out;
}


function describeChanges(before: TypeDefinition, after: TypeDefinition): string[] {
  const changes: string[] = [];
  if (before.name !== after.name) changes.push(`name: ${before.name} → ${after.name}`);
  const b = new Map(before.fields.map((f) => [f.name, canonicalJson(f)]));
  const a = new Map(after.fields.map((f) => [f.name, canonicalJson(f)]));
  for (const [name, def] of a) {
    if (!b.has(name)) changes.push(`+ field ${name}`);
    else if (b.get(name) !== def) changes.push(`~ field ${name}`);
  }
  for (const name of b.keys()) if (!a.has(name)) changes.push(`- field ${name}`);
  if (changes.length === 0 && JSON.stringify(before.fields.map((f) => f.name)) !== JSON.stringify(after.fields.map((f) => f.name))) {
    changes.push('field order');
  }
  return changes;
}

const scalar = (v: unknown): string | null =>
  v === undefined ? 'none' : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

/** What differs between two definitions of one field, key by key. */
function fieldDifferences(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (key === 'name' || canonicalJson(before[key]) === canonicalJson(after[key])) continue;
    const a = scalar(before[key]);
    const b = scalar(after[key]);
    out.push(a !== null && b !== null ? `${key}: ${a} → ${b}` : key);
  }
  return out;
}

async function planFields(db: Db, projectId: string, kind: TypeKind, before: TypeDefinition, after: TypeDefinition): Promise<FieldPlan> {
  const had = new Map(before.fields.map((f) => [f.name, f]));
  const has = new Set(after.fields.map((f) => f.name));
  const counted = async (field: string) => kind === 'components'
    ? entriesWithComponentValues(db, projectId, before.slug, field)
    : entriesWithValues(db, projectId, kind, before.slug, field);
  const plan: FieldPlan = { added: [], changed: [], removed: [] };
  for (const f of after.fields) {
    const old = had.get(f.name);
    if (!old) { plan.added.push(f.name); continue; }
    const changes = fieldDifferences({ ...old }, { ...f });
    if (changes.length === 0) continue;
    plan.changed.push({ field: f.name, changes, ...(old.type !== f.type ? { entriesWithValues: await counted(f.name) } : {}) });
  }
  for (const f of before.fields) if (!has.has(f.name)) plan.removed.push({ field: f.name, entriesWithValues: await counted(f.name) });
  return plan;
}

async function planPush(db: Db, projectId: string, desired: SchemaSet): Promise<SchemaPlan> {
  const current = await loadSchemaSet(db, projectId);
  const plan: SchemaPlan = { create: [], update: [], delete: [], unchanged: [], destructive: false };
  const localization: LocalizationChange[] = [];
  for (const kind of typeKinds) {
    const have = new Map(current[kind].map((d) => [d.slug, d]));
    const want = new Set(desired[kind].map((d) => d.slug));
    for (const def of desired[kind]) {
      const existing = have.get(def.slug);
      if (!existing) plan.create.push({ kind, slug: def.slug });
      else {
        const changes = describeChanges(existing, def);
        if (changes.length) plan.update.push({ kind, slug: def.slug, changes, fields: await planFields(db, projectId, kind, existing, def) });
        else plan.unchanged.push({ kind, slug: def.slug });
        if (kind !== 'components') localization.push(...(await planLocalization(db, projectId, kind, existing, def)));
      }
    }
    const gone = [...have.keys()].filter((s) => !want.has(s));
    const counts = await contentCount(db, projectId, kind, gone);
    for (const slug of gone) plan.delete.push({ kind, slug, contentCount: counts.get(slug) ?? 0 });
  }
  if (localization.length) plan.localization = localization;
  plan.destructive = plan.delete.length > 0
    || plan.update.some((u) => u.fields.removed.some((r) => r.entriesWithValues > 0) || u.fields.changed.some((c) => (c.entriesWithValues ?? 0) > 0))
    || localization.some((l) => l.entriesLosingValues > 0);
  return plan;
}

const documentsInput = z.strictObject({
  pageTypes: z.array(documentSchema).default([]),
  collections: z.array(documentSchema).default([]),
  components: z.array(documentSchema).default([]),
});

export const diffSchema = defineOperation({
  name: 'schema.diff',
  input: documentsInput,
  access: { role: 'developer' },
  write: false,
  async run(ctx, input) {
    const { set, issues } = validateDocuments(input);
    if (issues.length) throw schemaFailed(issues);
    return planPush(ctx.db, ctx.project.id, set);
  },
});

async function upsertType(db: Db, projectId: string, kind: TypeKind, def: TypeDefinition, now: Date) {
  const t = tables[kind];
  await db.insert(t).values({ projectId, slug: def.slug, name: def.name, fields: def.fields, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: [t.projectId, t.slug], set: { name: def.name, fields: def.fields, updatedAt: now } });
}

/** Deletes the named members from every instance of a component (an object with its `_type` that is not a reference) in a value; says whether it changed. */
function stripComponentFields(value: unknown, slug: string, fields: ReadonlySet<string>): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let changed = false;
  if (!Array.isArray(value) && Reflect.get(value, '_type') === slug && !Reflect.has(value, '_ref')) {
    for (const f of fields) if (Reflect.has(value, f)) changed = Reflect.deleteProperty(value, f) || changed;
  }
  for (const inner of Object.values(value)) changed = stripComponentFields(inner, slug, fields) || changed;
  return changed;
}

/** An instance of the component in content: an object with its `_type` that is not a reference. */
const isInstanceOf = (value: unknown, slug: string): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Reflect.get(value, '_type') === slug && !Reflect.has(value, '_ref');

/** Deletes every instance of a component from a value (from lists, and as members); says whether it changed. */
function stripComponentInstances(value: unknown, slug: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  let changed = false;
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) {
      if (isInstanceOf(value[i], slug)) { value.splice(i, 1); changed = true; }
    }
  } else {
    for (const [k, inner] of Object.entries(value)) {
      if (isInstanceOf(inner, slug)) changed = Reflect.deleteProperty(value, k) || changed;
    }
  }
  for (const inner of Object.values(value)) changed = stripComponentInstances(inner, slug) || changed;
  return changed;
}

/**
 * Changes, in place, every page and item holding an instance of a component (draft, published,
 * every locale) with `change`, and saves those it changed. Revisions keep what was, as history.
 */
async function rewriteComponentValues(db: Db, projectId: string, slug: string, change: (value: unknown) => boolean): Promise<void> {
  for (const t of [pages, collectionItems]) {
    const rows = await db.select({ id: t.id, draftContent: t.draftContent, publishedContent: t.publishedContent, draftLocales: t.draftLocales, publishedLocales: t.publishedLocales })
      .from(t).where(and(eq(t.projectId, projectId), sql`jsonb_path_exists(
        jsonb_build_array(${t.draftContent}, ${t.publishedContent}, ${t.draftLocales}, ${t.publishedLocales}),
        '$.** ? (@._type == $slug && !exists(@._ref))', jsonb_build_object('slug', ${slug}::text))`));
    for (const row of rows) {
      const changed = [row.draftContent, row.publishedContent, row.draftLocales, row.publishedLocales].map(change);
      if (!changed.some(Boolean)) continue;
      await db.update(t).set({ draftContent: row.draftContent, publishedContent: row.publishedContent, draftLocales: row.draftLocales, publishedLocales: row.publishedLocales })
        .where(eq(t.id, row.id));
    }
  }
}

/**
 * The live pages and items holding a value of a component's field: an instance of the component
 * (draft, published, any locale) that has the field.
 */
async function entriesWithComponentValues(db: Db, projectId: string, slug: string, field: string): Promise<number> {
  // A member name cannot be a jsonpath variable: quoted into the path (a field name is a plain
  // identifier; quotes and backslashes are escaped all the same).
  const path = `$.** ? (@._type == $slug && !exists(@._ref) && exists(@."${field.replace(/["\\]/g, '\\$&')}"))`;
  let n = 0;
  for (const t of [pages, collectionItems]) {
    const [row] = await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(t)
      .where(and(eq(t.projectId, projectId), isNull(t.deletedAt), sql`jsonb_path_exists(
        jsonb_build_array(${t.draftContent}, ${t.publishedContent}, ${t.draftLocales}, ${t.publishedLocales}),
        ${path}::jsonpath, jsonb_build_object('slug', ${slug}::text))`));
    n += row?.n ?? 0;
  }
  return n;
}

/**
 * Carries out fields' removal from a component, as a type's removed field is carried out: their
 * values go from every instance of it in every page and item (draft, published, every locale), so
 * the entries can still be published. Revisions keep them, as history.
 */
async function dropComponentFieldValues(db: Db, projectId: string, slug: string, fields: string[]): Promise<void> {
  if (fields.length === 0) return;
  const gone = new Set(fields);
  await rewriteComponentValues(db, projectId, slug, (v) => stripComponentFields(v, slug, gone));
}

/**
 * Deletes a type; content of it goes too (only reached with force, or when there is none), and
 * each live entry that goes is announced as deleted, as its own delete would be (sites purge
 * their caches on those events).
 */
async function dropType(ctx: Ctx, kind: TypeKind, slug: string) {
  const { db } = ctx;
  const projectId = ctx.project.id;
  const every = { locales: everyLocaleCode(ctx.project.locales) };
  if (kind === 'pageTypes') {
    // Locked first: entries being created of the type (their inserts hold it) are waited for and
    // swept with the rest; creates that come after wait, and find the type gone.
    const [pt] = await db.select({ id: pageTypes.id }).from(pageTypes).where(and(eq(pageTypes.projectId, projectId), eq(pageTypes.slug, slug))).for('update');
    if (pt) {
      const gone = await db.delete(pages).where(eq(pages.pageTypeId, pt.id)).returning({ id: pages.id, name: pages.name, slug: pages.slug, deletedAt: pages.deletedAt });
      for (const e of gone) if (!e.deletedAt) await ctx.emit('page.deleted', { id: e.id, name: e.name, slug: e.slug }, every);
    }
  } else if (kind === 'collections') {
    const [ct] = await db.select({ id: collectionTypes.id }).from(collectionTypes).where(and(eq(collectionTypes.projectId, projectId), eq(collectionTypes.slug, slug))).for('update');
    if (ct) {
      const gone = await db.delete(collectionItems).where(eq(collectionItems.collectionTypeId, ct.id))
        .returning({ id: collectionItems.id, name: collectionItems.name, slug: collectionItems.slug, deletedAt: collectionItems.deletedAt });
      for (const e of gone) if (!e.deletedAt) await ctx.emit('collection_item.deleted', { id: e.id, name: e.name, slug: e.slug }, every);
    }
  }
  // A component deleted with force takes its values with it: every instance goes from the content
  // that held it (from lists, and as members), so those entries can be saved and published again.
  if (kind === 'components') await rewriteComponentValues(db, projectId, slug, (v) => stripComponentInstances(v, slug));
  const t = tables[kind];
  await db.delete(t).where(and(eq(t.projectId, projectId), eq(t.slug, slug)));
}

export const pushSchema = defineOperation({
  name: 'schema.push',
  input: documentsInput.extend({ force: z.boolean().default(false) }),
  access: { role: 'developer' },
  write: true,
  async run(ctx, input) {
    const { set, issues } = validateDocuments(input);
    if (issues.length) throw schemaFailed(issues);
    const plan = await planPush(ctx.db, ctx.project.id, set);
    const blocked = plan.delete.filter((d) => d.contentCount > 0);
    if (blocked.length && !input.force) {
      throw new CmsError('HAS_REFERENCES',
        `Push would delete ${blocked.map((b) => `${b.kind}/${b.slug} (${b.contentCount} entries)`).join(', ')}; ` +
        'add the schema files back, or run with --force to delete them and their content', { types: blocked });
    }
    const now = ctx.clock.now();
    // Components first, so the types that use them never point at a missing one.
    for (const kind of ['components', 'collections', 'pageTypes'] as const) {
      for (const def of set[kind]) {
        if (plan.unchanged.some((u) => u.kind === kind && u.slug === def.slug)) continue;
        await upsertType(ctx.db, ctx.project.id, kind, def, now);
      }
    }
    for (const d of plan.delete) await dropType(ctx, d.kind, d.slug);
    // Removed fields lose their values, and fields becoming shared their other locales' values,
    // in the same transaction.
    for (const u of plan.update) {
      if (u.kind === 'components') await dropComponentFieldValues(ctx.db, ctx.project.id, u.slug, u.fields.removed.map((r) => r.field));
      else for (const r of u.fields.removed) if (r.entriesWithValues > 0) await dropFieldValues(ctx.db, ctx.project.id, u.kind, u.slug, r.field);
    }
    for (const l of plan.localization ?? []) {
      if (l.direction === 'shared') await dropLocaleValuesOf(ctx.db, ctx.project.id, l.kind, l.slug, l.field);
    }
    ctx.contentChanged();
    return plan;
  },
});

export const pullSchema = defineOperation({
  name: 'schema.pull',
  input: z.strictObject({}),
  access: { role: 'developer' },
  write: false,
  run: (ctx) => loadSchemaSet(ctx.db, ctx.project.id),
});

export const listSchema = defineOperation({
  name: 'schema.list',
  input: z.strictObject({ kind: z.enum(typeKinds).optional() }),
  access: { role: 'viewer' },
  write: false,
  async run(ctx, input) {
    const set = await loadSchemaSet(ctx.db, ctx.project.id);
    const out: Array<{ kind: TypeKind; slug: string; name: string; fields: number; entries: number | null }> = [];
    for (const kind of typeKinds) {
      if (input.kind && input.kind !== kind) continue;
      const counts = await contentCount(ctx.db, ctx.project.id, kind, set[kind].map((d) => d.slug));
      for (const d of set[kind]) {
        out.push({ kind, slug: d.slug, name: d.name, fields: d.fields.length, entries: kind === 'components' ? null : counts.get(d.slug) ?? 0 });
      }
    }
    return out;
  },
});

const kindInput = z.enum(typeKinds);

export const getType = defineOperation({
  name: 'types.get',
  input: z.strictObject({ kind: kindInput, slug: z.string() }),
  access: { role: 'viewer' },
  write: false,
  async run(ctx, input) {
    const t = tables[input.kind];
    const [row] = await ctx.db.select().from(t).where(and(eq(t.projectId, ctx.project.id), eq(t.slug, input.slug)));
    if (!row) throw new CmsError('NOT_FOUND', `${kindLabel[input.kind]} "${input.slug}" not found`);
    return toTypeView(row);
  },
});

export const listTypes = defineOperation({
  name: 'types.list',
  input: z.strictObject({ kind: kindInput }),
  access: { role: 'viewer' },
  write: false,
  async run(ctx, input) {
    const t = tables[input.kind];
    return (await ctx.db.select().from(t).where(eq(t.projectId, ctx.project.id)).orderBy(t.slug)).map(toTypeView);
  },
});

const toTypeView = (row: { id: string; slug: string; name: string; fields: StoredFields; createdAt: Date; updatedAt: Date }) => ({
  id: row.id, slug: row.slug, name: row.name, fields: storedFields(row.fields),
  createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(),
});

/** Checks one changed definition against the rest of the project's schema. */
async function validateOne(db: Db, projectId: string, kind: TypeKind, definition: unknown, replacing: string | null): Promise<TypeDefinition> {
  const result = validateTypeDefinition(definition);
  const slug = slugOf(definition);
  // An invalid definition is checked against the others too, as far as it is valid: every problem at once.
  const checked = result.ok ? result.value : partialTypeDefinition(definition);
  const own = result.ok ? [] : result.issues.map((i) => ({ ...i, kind, slug }));
  if (!checked) throw schemaFailed(own);
  const set = await loadSchemaSet(db, projectId);
  set[kind] = set[kind].filter((d) => d.slug !== (replacing ?? checked.slug));
  set[kind].push(checked);
  const issues = [...own, ...checkSchemaSet(set).filter((i) => i.kind === kind && i.slug === checked.slug)];
  if (issues.length || !result.ok) throw schemaFailed(issues);
  return result.value;
}

/**
 * The problems the other types of the project would have with the type `slug` gone (or, given a
 * replacement, renamed to it): the definitions that name it.
 */
async function typesLeftInvalid(ctx: Ctx, kind: TypeKind, slug: string, replacement: TypeDefinition | null) {
  const set = await loadSchemaSet(ctx.db, ctx.project.id);
  const key = (i: { kind: string; slug: string; path: string; message: string }) => `${i.kind}/${i.slug} ${i.path} ${i.message}`;
  const already = new Set(checkSchemaSet(set).map(key));
  set[kind] = [...set[kind].filter((d) => d.slug !== slug), ...(replacement ? [replacement] : [])];
  return checkSchemaSet(set).filter((i) => !already.has(key(i)) && !(replacement && i.kind === kind && i.slug === replacement.slug));
}

/**
 * A slug change is refused while other types name the old slug (they would be left naming
 * nothing), and for a component while content holds it (its values carry the slug as `_type`).
 */
async function refuseRenameInUse(ctx: Ctx, kind: TypeKind, slug: string, def: TypeDefinition): Promise<void> {
  const users = await typesLeftInvalid(ctx, kind, slug, def);
  if (users.length) {
    throw new CmsError('HAS_REFERENCES',
      `${kindLabel[kind]} ${slug} is used by ${[...new Set(users.map((u) => `${u.kind}/${u.slug}`))].join(', ')} under its slug; change those types first, then rename it`,
      { usedBy: users });
  }
  if (kind !== 'components') return;
  const n = (await contentCount(ctx.db, ctx.project.id, kind, [slug])).get(slug) ?? 0;
  if (n > 0) {
    throw new CmsError('HAS_REFERENCES',
      `${kindLabel[kind]} ${slug} is in the content of ${n} entries, whose values name it; its slug cannot change while content holds it`, { entries: n });
  }
}

export const createType = defineOperation({
  name: 'types.create',
  input: z.strictObject({ kind: kindInput, definition: z.unknown() }),
  access: { role: 'developer' },
  write: true,
  async run(ctx, input) {
    const def = await validateOne(ctx.db, ctx.project.id, input.kind, input.definition, null);
    const t = tables[input.kind];
    const now = ctx.clock.now();
    const [row] = await ctx.db.insert(t).values({ projectId: ctx.project.id, slug: def.slug, name: def.name, fields: def.fields, createdAt: now, updatedAt: now })
      .onConflictDoNothing().returning();
    if (!row) throw new CmsError('SLUG_EXISTS', `${kindLabel[input.kind]} ${def.slug} already exists`);
    return toTypeView(row);
  },
});

export const updateType = defineOperation({
  name: 'types.update',
  input: z.strictObject({ kind: kindInput, slug: z.string(), definition: z.unknown() }),
  access: { role: 'developer' },
  write: true,
  async run(ctx, input) {
    const t = tables[input.kind];
    const [existing] = await ctx.db.select().from(t).where(and(eq(t.projectId, ctx.project.id), eq(t.slug, input.slug)));
    if (!existing) throw new CmsError('NOT_FOUND', `${kindLabel[input.kind]} "${input.slug}" not found`);
    // The path names the type; a body may leave slug and name out and keep them.
    const given = Object.assign({ slug: existing.slug, name: existing.name }, input.definition);
    // A slug another type of the kind has is told as such (409), before the definition's other checks.
    if (typeof given.slug === 'string' && given.slug !== input.slug) {
      const [clash] = await ctx.db.select({ id: t.id }).from(t).where(and(eq(t.projectId, ctx.project.id), eq(t.slug, given.slug)));
      if (clash) throw new CmsError('SLUG_EXISTS', `${kindLabel[input.kind]} ${given.slug} already exists`);
    }
    const def = await validateOne(ctx.db, ctx.project.id, input.kind, given, input.slug);
    if (def.slug !== input.slug) await refuseRenameInUse(ctx, input.kind, input.slug, def);
    const before: TypeDefinition = { slug: existing.slug, name: existing.name, fields: storedFields(existing.fields) };
    const [row] = await ctx.db.update(t).set({ slug: def.slug, name: def.name, fields: def.fields, updatedAt: ctx.clock.now() })
      .where(eq(t.id, existing.id)).returning();
    // As in a push: a removed field loses its values, a field becoming shared its other locales' values.
    const kept = new Set(def.fields.map((f) => f.name));
    const removed = before.fields.filter((f) => !kept.has(f.name)).map((f) => f.name);
    if (input.kind === 'components') await dropComponentFieldValues(ctx.db, ctx.project.id, before.slug, removed);
    else {
      for (const field of removed) await dropFieldValues(ctx.db, ctx.project.id, input.kind, def.slug, field);
      for (const flip of localizationFlips(before, def)) {
        if (flip.direction === 'shared') await dropLocaleValuesOf(ctx.db, ctx.project.id, input.kind, def.slug, flip.field);
      }
    }
    ctx.contentChanged();
    return toTypeView(row!);
  },
});

export const deleteType = defineOperation({
  name: 'types.delete',
  input: z.strictObject({ kind: kindInput, slug: z.string(), force: z.boolean().default(false) }),
  access: { role: 'developer' },
  write: true,
  async run(ctx, input) {
    const t = tables[input.kind];
    // Locked before its entries are counted: a create of one that is running is waited for (and
    // counted), one that comes after waits and finds the type gone (dropType).
    const [existing] = await ctx.db.select({ id: t.id }).from(t).where(and(eq(t.projectId, ctx.project.id), eq(t.slug, input.slug))).for('update');
    if (!existing) throw new CmsError('NOT_FOUND', `${kindLabel[input.kind]} "${input.slug}" not found`);
    const n = (await contentCount(ctx.db, ctx.project.id, input.kind, [input.slug])).get(input.slug) ?? 0;
    if (n > 0 && !input.force) {
      const what = input.kind === 'components' ? `is in the content of ${n} entries` : `has ${n} entries`;
      throw new CmsError('HAS_REFERENCES', `${kindLabel[input.kind]} ${input.slug} ${what}; delete them first or pass force=true`, { entries: n });
    }
    // Other types that name it (a reference's collection or page type, a component's slug) would
    // be left invalid: a pull would write files no push takes. Refused, force or not: `force` is
    // for content, and those definitions are edited first (as a push that removed the type would
    // have to edit them too).
    const users = await typesLeftInvalid(ctx, input.kind, input.slug, null);
    if (users.length) {
      throw new CmsError('HAS_REFERENCES',
        `${kindLabel[input.kind]} ${input.slug} is used by ${[...new Set(users.map((u) => `${u.kind}/${u.slug}`))].join(', ')}; change those types first`,
        { usedBy: users });
    }
    await dropType(ctx, input.kind, input.slug);
    ctx.contentChanged();
    return { success: true as const };
  },
});
