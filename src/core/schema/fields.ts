import { z } from 'zod';
import { slugPattern } from '../../lib/slug.js';
import { formatPath, issuesFromZod, schemaErrorMap, type Issue, type PathSegment } from './issues.js';
import { checkDefaultValue, type ComponentLookup } from './validate-content.js';

export const fieldTypes = [
  'text',
  'textarea',
  'wysiwyg',
  'image',
  'media',
  'number',
  'boolean',
  'date',
  'datetime',
  'color',
  'json',
  'select',
  'reference',
  'componentPicker',
  'nestedComponent',
  'repeater',
] as const;
export type FieldType = (typeof fieldTypes)[number];

export const referenceTypes = ['page', 'collectionItem', 'user', 'blogPost'] as const;
export type ReferenceType = (typeof referenceTypes)[number];

/** Field types that embed components; a repeater may not hold them, and they drive nesting checks. */
export const componentFieldTypes: readonly FieldType[] = ['componentPicker', 'nestedComponent'];

export const fieldNamePattern = /^[a-zA-Z][a-zA-Z0-9_]*$/;
export { slugPattern };

/*
 * The field types are declared by hand rather than inferred: inferring a recursive union of 16
 * variants makes tsc overflow its stack when it emits declarations. The annotation on
 * `schemaFieldSchema` (z.ZodType<SchemaField>) keeps the two in step: if the zod schema's output
 * drifts from these types, it no longer compiles.
 */
interface UiOptions {
  placeholder?: string | undefined;
  helpText?: string | undefined;
}
export interface TextOptions extends UiOptions {
  minLength?: number | undefined;
  maxLength?: number | undefined;
  pattern?: string | undefined;
  patternMessage?: string | undefined;
}
export interface MediaOptions extends UiOptions {
  allowedMimeTypes?: string[] | undefined;
  maxFileSize?: number | undefined;
}
export interface NumberOptions extends UiOptions {
  min?: number | undefined;
  max?: number | undefined;
  step?: number | undefined;
}
export interface SelectChoice {
  label: string;
  value: string;
}
export interface SelectOptions extends UiOptions {
  /**
   * The values a select allows. Optional, as in the contract ("if choices are defined"): a select
   * without them accepts any string; a list given must not be empty.
   */
  choices?: SelectChoice[] | undefined;
}
export interface ReferenceOptions extends UiOptions {
  collectionType?: string | undefined;
  multiple?: boolean | undefined;
  referenceType?: ReferenceType | undefined;
  pageType?: string | undefined;
}
export interface ComponentPickerOptions extends UiOptions {
  allowedComponents?: string[] | undefined;
  maxItems?: number | undefined;
}
export interface NestedComponentOptions extends UiOptions {
  componentSlug: string;
}
export interface RepeaterOptions extends UiOptions {
  fields: SchemaField[];
  minItems?: number | undefined;
  maxItems?: number | undefined;
}
export interface FieldOptionsByType {
  text: TextOptions;
  textarea: TextOptions;
  wysiwyg: UiOptions;
  image: MediaOptions;
  media: MediaOptions;
  number: NumberOptions;
  boolean: UiOptions;
  date: UiOptions;
  datetime: UiOptions;
  color: UiOptions;
  json: UiOptions;
  select: SelectOptions;
  reference: ReferenceOptions;
  componentPicker: ComponentPickerOptions;
  nestedComponent: NestedComponentOptions;
  repeater: RepeaterOptions;
}
/** Types whose options carry a required setting, so `options` itself is always present. */
type OptionsRequired = 'reference' | 'nestedComponent' | 'repeater';

/** A field of one type, with its options narrowed (`FieldOf<'reference'>['options']`). */
export type FieldOf<T extends FieldType> = {
  name: string;
  label?: string | undefined;
  type: T;
  required?: boolean | undefined;
  defaultValue?: unknown;
  /** The value is per locale (the whole value, for repeaters and components); otherwise shared by all locales. */
  localized?: boolean | undefined;
  /** With `localized` and `required`: required in every locale, not only in the default. */
  requiredInAllLocales?: boolean | undefined;
} & (T extends OptionsRequired ? { options: FieldOptionsByType[T] } : { options?: FieldOptionsByType[T] | undefined });

export type SchemaField = { [T in FieldType]: FieldOf<T> }[FieldType];

export interface TypeDefinition {
  slug: string;
  name: string;
  fields: SchemaField[];
}

/** A type's field list as stored: the database column knows only that it is a list of JSON objects. */
export function storedFields(fields: ReadonlyArray<{ name: string; type: string }>): SchemaField[] {
  // Every stored list passed schemaFieldSchema before it was written (schema.push, types.create and types.update).
  return fields as SchemaField[];
}

const fieldNameSchema = z
  .string()
  .regex(fieldNamePattern, {
    error: 'must match ^[a-zA-Z][a-zA-Z0-9_]*$ (start with a letter; then letters, digits or underscores; no hyphens or spaces)',
  });
// 128 characters: room for any name, and `<slug>.json` stays a valid file name for `schema pull`
// (a far longer slug was past what PostgreSQL's unique index takes, and answered 500).
const slugSchema = z
  .string()
  .max(128, 'must be at most 128 characters')
  .regex(slugPattern, { error: 'must be a kebab-case slug matching ^[a-z0-9]+(?:-[a-z0-9]+)*$' });

// Cross-field rules must run even when a sibling already failed, or the user would fix one problem
// only to be shown the next: zod skips refinements after an aborting issue unless `when` says otherwise.
const always = { when: (): boolean => true };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// The schemas that stand for "no other key is allowed", so the JSON Schema can say so too.
const closedMarkers = new WeakSet<object>();

/**
 * An object that refuses unknown keys one by one, naming each (`options.foo: unknown option "foo"
 * for a text field`). zod's strict objects report all unknown keys in one issue on the parent path,
 * which is why this uses a failing catchall instead (it only ever fails, so no unknown key is let
 * through, whatever the inferred type's index signature says).
 */
function closedObject<S extends z.core.$ZodLooseShape>(shape: S, describeUnknown: (key: string) => string) {
  const strict = z.strictObject(shape);
  const refuse = z.unknown().refine(() => false, { error: (issue) => describeUnknown(String(issue.path?.at(-1) ?? '')) });
  closedMarkers.add(refuse);
  return strict.catchall(refuse);
}

function optionsObject<S extends z.core.$ZodLooseShape>(type: FieldType, shape: S) {
  return closedObject(
    { placeholder: z.string().optional(), helpText: z.string().optional(), ...shape },
    (key) => `unknown option "${key}" for a ${type} field`,
  );
}

/** Refuses `low > high` for two optional numeric options (min/max, minLength/maxLength, minItems/maxItems). */
function orderedPair(low: string, high: string) {
  return (value: unknown, ctx: z.RefinementCtx): void => {
    if (!isRecord(value)) return;
    const lo = value[low];
    const hi = value[high];
    if (typeof lo === 'number' && typeof hi === 'number' && lo > hi) {
      ctx.addIssue({ code: 'custom', path: [low], message: `must not be greater than ${high} (${hi})` });
    }
  };
}

const nonNegativeInt = z.number().int().nonnegative();
const positiveInt = z.number().int().positive();

const regexSource = z.string().superRefine((source, ctx) => {
  try {
    new RegExp(source);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `must be a valid regular expression (${error instanceof Error ? error.message : String(error)})` });
  }
});

function textOptions(type: 'text' | 'textarea') {
  return optionsObject(type, {
    minLength: nonNegativeInt.optional(),
    maxLength: nonNegativeInt.optional(),
    pattern: regexSource.optional(),
    patternMessage: z.string().optional(),
  }).superRefine(orderedPair('minLength', 'maxLength'), always);
}

function mediaOptions(type: 'image' | 'media') {
  return optionsObject(type, {
    allowedMimeTypes: z.array(z.string().min(1)).optional(),
    maxFileSize: positiveInt.optional(),
  });
}

const choiceSchema = closedObject({ label: z.string(), value: z.string() }, (key) => `unknown property "${key}" of a choice`);

const selectOptions = optionsObject('select', {
  // Without choices a select takes any string (the contract's rule 4: "if choices are defined").
  choices: z
    .array(choiceSchema)
    .min(1, { error: 'must not be empty: give at least one choice, like [{ "label": "Red", "value": "red" }], or leave choices out to allow any string' })
    .optional()
    .superRefine((choices: unknown, ctx) => {
      if (!Array.isArray(choices)) return;
      const seen = new Set<string>();
      choices.forEach((choice: unknown, index) => {
        if (!isRecord(choice) || typeof choice.value !== 'string') return;
        if (seen.has(choice.value)) {
          ctx.addIssue({ code: 'custom', path: [index, 'value'], message: `duplicate choice value "${choice.value}"` });
        }
        seen.add(choice.value);
      });
    }, always),
});

const referenceOptions = optionsObject('reference', {
  collectionType: slugSchema.optional(),
  multiple: z.boolean().optional(),
  referenceType: z.enum(referenceTypes).optional(),
  pageType: slugSchema.optional(),
}).superRefine((options: unknown, ctx) => {
  if (!isRecord(options)) return;
  const referenceType = options.referenceType ?? 'collectionItem';
  if (!referenceTypes.some((t) => t === referenceType)) return;
  const has = (key: string): boolean => options[key] !== undefined;
  if (referenceType === 'collectionItem') {
    if (!has('collectionType')) {
      ctx.addIssue({ code: 'custom', path: ['collectionType'], message: 'required when referenceType is collectionItem (the default)' });
    }
    if (has('pageType')) {
      ctx.addIssue({ code: 'custom', path: ['pageType'], message: 'only allowed when referenceType is page' });
    }
  } else if (referenceType === 'page') {
    // A collectionType beside it is accepted and unused (contract, reference option rule 2).
  } else {
    for (const key of ['collectionType', 'pageType']) {
      if (has(key)) ctx.addIssue({ code: 'custom', path: [key], message: `must not be set when referenceType is ${referenceType}` });
    }
  }
}, always);

const componentPickerOptions = optionsObject('componentPicker', {
  allowedComponents: z.array(slugSchema).min(1).optional(),
  maxItems: positiveInt.optional(),
});

const nestedComponentOptions = optionsObject('nestedComponent', { componentSlug: slugSchema });

const disallowedInRepeater: readonly string[] = ['componentPicker', 'nestedComponent', 'repeater'];

const repeaterOptions = closedObject(
  {
    placeholder: z.string().optional(),
    helpText: z.string().optional(),
    // A getter, because the sub-field list refers back to the field schema defined below.
    get fields(): z.ZodType<SchemaField[]> {
      return repeaterFieldListSchema;
    },
    minItems: nonNegativeInt.optional(),
    maxItems: positiveInt.optional(),
  },
  (key) => `unknown option "${key}" for a repeater field`,
)
  .superRefine(orderedPair('minItems', 'maxItems'), always)
  .superRefine((options: unknown, ctx) => {
    if (!isRecord(options) || !Array.isArray(options.fields)) return;
    options.fields.forEach((sub: unknown, index) => {
      if (isRecord(sub) && typeof sub.type === 'string' && disallowedInRepeater.includes(sub.type)) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', index, 'type'],
          message: `a repeater sub-field cannot be of type ${sub.type} (componentPicker, nestedComponent and repeater are not allowed inside a repeater)`,
        });
      }
    });
  }, always);

/**
 * Options that carry required settings are parsed even when `options` is left out, so the user is
 * told which setting is missing (`options.componentSlug: required`) rather than just `options`.
 */
function requiredOptions<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === undefined ? {} : value), schema);
}

const optionsByType = {
  text: textOptions('text').optional(),
  textarea: textOptions('textarea').optional(),
  wysiwyg: optionsObject('wysiwyg', {}).optional(),
  image: mediaOptions('image').optional(),
  media: mediaOptions('media').optional(),
  number: optionsObject('number', {
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
  })
    .superRefine(orderedPair('min', 'max'), always)
    .optional(),
  boolean: optionsObject('boolean', {}).optional(),
  date: optionsObject('date', {}).optional(),
  datetime: optionsObject('datetime', {}).optional(),
  color: optionsObject('color', {}).optional(),
  json: optionsObject('json', {}).optional(),
  select: selectOptions.optional(),
  reference: requiredOptions(referenceOptions),
  componentPicker: componentPickerOptions.optional(),
  nestedComponent: requiredOptions(nestedComponentOptions),
  repeater: requiredOptions(repeaterOptions),
} as const;

function fieldVariant<T extends FieldType, O extends z.ZodType>(type: T, options: O) {
  return closedObject(
    {
      name: fieldNameSchema,
      label: z.string().optional(),
      type: z.literal(type),
      required: z.boolean().optional(),
      options,
      defaultValue: z.unknown().optional(),
      localized: z.boolean().optional(),
      requiredInAllLocales: z.boolean().optional(),
    },
    (key) => `unknown property "${key}" of a field`,
  ).superRefine(
    (field, ctx) => {
      if (field.requiredInAllLocales === true && (field.localized !== true || field.required !== true)) {
        ctx.addIssue({ code: 'custom', path: ['requiredInAllLocales'], message: 'needs "required": true and "localized": true beside it' });
      }
      if (field.defaultValue === undefined) return;
      // The field is fully parsed here (see `when`), so it is a well-formed SchemaField.
      for (const issue of checkDefaultValue(field as SchemaField)) {
        ctx.addIssue({ code: 'custom', path: ['defaultValue', ...issue.path], message: issue.message });
      }
    },
    {
      // A default can only be judged against options that are themselves valid.
      when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === 'options' || issue.path?.[0] === 'type'),
    },
  );
}

const fieldVariants = [
  fieldVariant('text', optionsByType.text),
  fieldVariant('textarea', optionsByType.textarea),
  fieldVariant('wysiwyg', optionsByType.wysiwyg),
  fieldVariant('image', optionsByType.image),
  fieldVariant('media', optionsByType.media),
  fieldVariant('number', optionsByType.number),
  fieldVariant('boolean', optionsByType.boolean),
  fieldVariant('date', optionsByType.date),
  fieldVariant('datetime', optionsByType.datetime),
  fieldVariant('color', optionsByType.color),
  fieldVariant('json', optionsByType.json),
  fieldVariant('select', optionsByType.select),
  fieldVariant('reference', optionsByType.reference),
  fieldVariant('componentPicker', optionsByType.componentPicker),
  fieldVariant('nestedComponent', optionsByType.nestedComponent),
  fieldVariant('repeater', optionsByType.repeater),
] as const;

export const schemaFieldSchema: z.ZodType<SchemaField> = z
  .discriminatedUnion('type', fieldVariants, {
    error: (issue) => {
      if (issue.code !== 'invalid_union') return undefined;
      const type = isRecord(issue.input) ? issue.input.type : undefined;
      if (type === undefined) return 'required';
      return `unknown field type ${JSON.stringify(type)} (expected one of: ${fieldTypes.join(', ')})`;
    },
  })
  .meta({ id: 'SchemaField' });

// Checked when a field's type is unknown: the variant could not be chosen, yet a bad name should
// still be reported in the same pass.
const fieldBaseSchema = z.object({
  name: fieldNameSchema,
  label: z.string().optional(),
  required: z.boolean().optional(),
});

function checkFieldList(list: unknown, ctx: z.RefinementCtx): void {
  if (!Array.isArray(list)) return;
  const firstIndex = new Map<string, number>();
  list.forEach((field: unknown, index) => {
    if (!isRecord(field)) return;
    if (typeof field.name === 'string') {
      const first = firstIndex.get(field.name);
      if (first === undefined) firstIndex.set(field.name, index);
      else ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate field name "${field.name}" (also used by fields[${first}])` });
    }
    if (!fieldTypes.some((t) => t === field.type)) {
      const base = fieldBaseSchema.safeParse(field, { error: schemaErrorMap });
      for (const issue of base.error?.issues ?? []) {
        ctx.addIssue({ code: 'custom', path: [index, ...issue.path], message: issue.message });
      }
    }
  });
}

const fieldListSchema = z.array(schemaFieldSchema).superRefine(checkFieldList, always);
/** Only top-level fields are localized: a repeater (or a component field) is marked as a whole. */
function notLocalizedIssues(fields: readonly unknown[], where: string): Array<{ path: PathSegment[]; message: string }> {
  return fields.flatMap((field, index) => (['localized', 'requiredInAllLocales'] as const)
    .filter((key) => isRecord(field) && field[key] === true)
    .map((key) => ({ path: [index, key], message: `not allowed on ${where}: mark the field that holds it` })));
}

const repeaterFieldListSchema: z.ZodType<SchemaField[]> = fieldListSchema.min(1).superRefine((list: unknown, ctx) => {
  // Run on an invalid list too (every problem at once), so it may not even be an array.
  if (!Array.isArray(list)) return;
  for (const issue of notLocalizedIssues(list, "a repeater's own fields")) ctx.addIssue({ code: 'custom', ...issue });
}, always);

export const typeDefinitionSchema = closedObject(
  {
    // Allowed so files can point editors at the generated JSON Schema; never stored.
    $schema: z.string().optional(),
    slug: slugSchema,
    name: z.string().min(1).max(255),
    fields: fieldListSchema,
  },
  (key) => `unknown property "${key}"`,
);


export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** Validates one page type, collection or component definition, reporting every problem at once. */
export function validateTypeDefinition(input: unknown): ValidationResult<TypeDefinition> {
  const result = typeDefinitionSchema.safeParse(input, { error: schemaErrorMap });
  if (!result.success) return { ok: false, issues: issuesFromZod(result.error) };
  const { slug, name, fields } = result.data;
  return { ok: true, value: { slug, name, fields } };
}

/** What stands in an invalid definition's place for a field that is not valid on its own (no options, nothing to check). */
const placeholderField: SchemaField = { name: 'invalid', type: 'text' };

/**
 * What of an invalid definition the checks across definitions (`checkSchemaSet`) can still look
 * at, so that one push reports every problem at once: its slug, and each field that is valid on
 * its own (one that is not keeps its index as a placeholder, so that paths stay right). Null
 * without a valid slug or a fields array.
 */
export function partialTypeDefinition(input: unknown): TypeDefinition | null {
  if (!isRecord(input) || !Array.isArray(input.fields)) return null;
  const slug = slugSchema.safeParse(input.slug);
  if (!slug.success) return null;
  const fields = input.fields.map((field: unknown) => {
    const alone = typeDefinitionSchema.safeParse({ slug: slug.data, name: slug.data, fields: [field] });
    return alone.success ? alone.data.fields[0] ?? placeholderField : placeholderField;
  });
  return { slug: slug.data, name: slug.data, fields };
}

/** JSON Schema of a type-definition file, for editor autocompletion (`"$schema": "..."`). */
export function typeDefinitionJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(typeDefinitionSchema, {
    override: (ctx) => {
      // Our closed objects refuse unknown keys through a failing catchall, which zod renders as
      // "anything goes"; `{ not: {} }` is the object form of `additionalProperties: false`.
      if (!closedMarkers.has(ctx.zodSchema)) return;
      const json: Record<string, unknown> = ctx.jsonSchema;
      for (const key of Object.keys(json)) delete json[key];
      json.not = {};
    },
  });
}

export type SchemaKind = 'pageTypes' | 'collections' | 'components';

export interface SchemaSet {
  pageTypes: TypeDefinition[];
  collections: TypeDefinition[];
  components: TypeDefinition[];
}

export type SchemaSetIssue = Issue & { kind: SchemaKind; slug: string };

const kindLabels: Record<SchemaKind, string> = { pageTypes: 'page type', collections: 'collection', components: 'component' };

interface ComponentUse {
  path: PathSegment[];
  slug: string;
}

/** Every component a field list names, with the path of the option that names it. */
function componentUses(fields: readonly SchemaField[], base: PathSegment[]): ComponentUse[] {
  const uses: ComponentUse[] = [];
  fields.forEach((field, index) => {
    const path = [...base, index, 'options'];
    if (field.type === 'nestedComponent') uses.push({ path: [...path, 'componentSlug'], slug: field.options.componentSlug });
    if (field.type === 'componentPicker') {
      field.options?.allowedComponents?.forEach((slug, i) => uses.push({ path: [...path, 'allowedComponents', i], slug }));
    }
    if (field.type === 'repeater') uses.push(...componentUses(field.options.fields, [...path, 'fields']));
  });
  return uses;
}

function hasComponentFields(fields: readonly SchemaField[]): boolean {
  return fields.some(
    (field) =>
      componentFieldTypes.includes(field.type) || (field.type === 'repeater' && hasComponentFields(field.options.fields)),
  );
}

/** True when `from` reaches `target` through component fields (any depth, cycles tolerated). */
function reaches(from: string, target: string, components: ReadonlyMap<string, TypeDefinition>, seen = new Set<string>()): boolean {
  if (seen.has(from)) return false;
  seen.add(from);
  const definition = components.get(from);
  if (!definition) return false;
  return componentUses(definition.fields, []).some((use) => use.slug === target || reaches(use.slug, target, components, seen));
}

function firstBySlug(definitions: readonly TypeDefinition[]): Map<string, TypeDefinition> {
  const map = new Map<string, TypeDefinition>();
  for (const definition of definitions) if (!map.has(definition.slug)) map.set(definition.slug, definition);
  return map;
}

/**
 * Checks what a single definition cannot: that the components, collections and page types it names
 * exist, that components nest at most one level and never contain themselves, that slugs are unique
 * per kind, and that defaults of component fields match the components they name.
 */
export function checkSchemaSet(set: SchemaSet): SchemaSetIssue[] {
  const issues: SchemaSetIssue[] = [];
  const components = firstBySlug(set.components);
  const collections = firstBySlug(set.collections);
  const pageTypes = firstBySlug(set.pageTypes);
  const lookup: ComponentLookup = (slug) => components.get(slug);

  for (const kind of ['pageTypes', 'collections', 'components'] as const) {
    const seen = new Set<string>();
    for (const definition of set[kind]) {
      const add = (path: PathSegment[], message: string): void => {
        issues.push({ kind, slug: definition.slug, path: formatPath(path), message });
      };
      if (seen.has(definition.slug)) add(['slug'], `duplicate ${kindLabels[kind]} slug "${definition.slug}"`);
      seen.add(definition.slug);

      for (const use of componentUses(definition.fields, ['fields'])) {
        if (!components.has(use.slug)) {
          add(use.path, `unknown component "${use.slug}"`);
        } else if (kind === 'components') {
          if (use.slug === definition.slug) {
            add(use.path, `component "${definition.slug}" cannot contain itself`);
          } else if (reaches(use.slug, definition.slug, components)) {
            add(use.path, `component "${definition.slug}" would contain itself through component "${use.slug}"`);
          } else if (hasComponentFields(components.get(use.slug)?.fields ?? [])) {
            add(use.path, `component "${use.slug}" contains components itself; components nest at most 1 level`);
          }
        }
      }

      checkTargets(definition.fields, ['fields'], { collections, pageTypes }, add);
      if (kind === 'components') {
        for (const issue of notLocalizedIssues(definition.fields, "a component's own fields")) add(['fields', ...issue.path], issue.message);
      }

      definition.fields.forEach((field, index) => {
        if (field.defaultValue === undefined || !componentFieldTypes.includes(field.type)) return;
        if (field.type === 'nestedComponent' && !components.has(field.options.componentSlug)) return;
        const chain = kind === 'components' ? [definition.slug] : [];
        for (const issue of checkDefaultValue(field, lookup, chain)) add(['fields', index, 'defaultValue', ...issue.path], issue.message);
      });
    }
  }
  return issues;
}

function checkTargets(
  fields: readonly SchemaField[],
  base: PathSegment[],
  known: { collections: ReadonlyMap<string, TypeDefinition>; pageTypes: ReadonlyMap<string, TypeDefinition> },
  add: (path: PathSegment[], message: string) => void,
): void {
  fields.forEach((field, index) => {
    const path = [...base, index, 'options'];
    if (field.type === 'reference') {
      const { collectionType, pageType, referenceType } = field.options;
      // A page reference's collectionType is unused (contract, reference option rule 2): not checked.
      if (collectionType !== undefined && referenceType !== 'page' && !known.collections.has(collectionType)) {
        add([...path, 'collectionType'], `unknown collection "${collectionType}"`);
      }
      if (pageType !== undefined && !known.pageTypes.has(pageType)) add([...path, 'pageType'], `unknown page type "${pageType}"`);
    }
    if (field.type === 'repeater') checkTargets(field.options.fields, [...path, 'fields'], known, add);
  });
}
