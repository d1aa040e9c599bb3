import { CmsError } from '../errors.js';

/** The public list and read query of the contract, parsed from raw query-string pairs. */
export interface ListQuery {
  page: number;
  limit: number;
  /** `path` is set for a content field (`fields.a.b` → ['a', 'b']); `field` is then `fields.a.b`. */
  sort: SortKey[];
  fields: FieldSelection;
  media: 'object' | 'url';
  refTypes: boolean;
}

export interface SortKey {
  field: string;
  desc: boolean;
  path?: string[];
}

/** Sort keys per request: enough for any real ordering, and a bound on the ORDER BY it makes. */
export const maxSortKeys = 10;

export interface FieldSelection {
  include: Set<string> | null;
  exclude: Set<string>;
}

export type FilterOperator = 'eq' | 'ne' | 'gt' | 'lt' | 'gte' | 'lte' | 'contains' | 'in';
export const filterOperators: readonly FilterOperator[] = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'contains', 'in'];

export interface FilterCondition {
  /** A core column (`name`, `slug`) or a path inside the content (`fields.a.b` → ['a', 'b']). */
  target: { core: 'name' | 'slug' } | { path: string[] };
  op: FilterOperator;
  value: string;
}

/** Query pairs in query-string order (URLSearchParams keeps it). */
export type QueryPairs = Array<[string, string]>;

export const maxFilterConditions = 20;

export const invalid = (parameter: string, reason: string) =>
  new CmsError('INVALID_QUERY', `Invalid query parameter ${parameter}: ${reason}`, { parameter, reason });

const last = (pairs: QueryPairs, name: string): string | undefined => {
  let v: string | undefined;
  for (const [k, val] of pairs) if (k === name) v = val;
  return v;
};

/** The largest page number: beyond it the row offset would leave the integers both sides handle exactly. */
export const maxPage = 2_147_483_647;

/** `page` and `limit` as every list takes them: page from 1, limit 1–100 (default 20); anything else is INVALID_QUERY. */
export const parsePaging = (pairs: QueryPairs): { page: number; limit: number } => ({
  page: parseIntParam(pairs, 'page', 1, 1, maxPage),
  limit: parseIntParam(pairs, 'limit', 20, 1, 100),
});

function parseIntParam(pairs: QueryPairs, name: string, def: number, min: number, max: number): number {
  const raw = last(pairs, name);
  if (raw === undefined || raw === '') return def;
  if (!/^\d+$/.test(raw.trim())) throw invalid(name, `must be a whole number from ${min}${max === Infinity ? '' : ` to ${max}`}`);
  const n = Number(raw.trim());
  if (n < min || n > max) throw invalid(name, `must be from ${min}${max === Infinity ? '' : ` to ${max}`}, got ${raw}`);
  return n;
}

/** `fields=a,b,-c`: includes win over exclusions; unknown names are simply not there. */
export function parseFieldSelection(raw: string | undefined): FieldSelection {
  const include = new Set<string>();
  const exclude = new Set<string>();
  for (const part of (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    if (part.startsWith('-')) { if (part.length > 1) exclude.add(part.slice(1)); }
    else include.add(part);
  }
  return { include: include.size ? include : null, exclude };
}

export function selectFields(fields: Record<string, unknown>, selection: FieldSelection): Record<string, unknown> {
  if (selection.include) {
    const out: Record<string, unknown> = {};
    for (const name of selection.include) if (Object.hasOwn(fields, name)) out[name] = fields[name];
    return out;
  }
  if (selection.exclude.size === 0) return fields;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) if (!selection.exclude.has(k)) out[k] = v;
  return out;
}

/**
 * `sort=a,-b`: keys in order, `-` for descending. With `contentFields` (collections), a key may
 * also be `fields.<name>[.<name>…]`, a path inside the content, checked like filter paths.
 */
export function parseSort(raw: string | undefined, allowed: readonly string[], def: string, options: { contentFields?: boolean } = {}): ListQuery['sort'] {
  const value = raw === undefined || raw.trim() === '' ? def : raw;
  const keys: ListQuery['sort'] = [];
  const allowedText = [...allowed, ...(options.contentFields ? ['fields.<name>'] : [])].join(', ');
  for (const part of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const desc = part.startsWith('-');
    const field = desc ? part.slice(1) : part;
    let path: string[] | undefined;
    if (options.contentFields && (field === 'fields' || field.startsWith('fields.'))) {
      const rest = field.slice('fields.'.length);
      if (field === 'fields' || !jsonPathPattern.test(rest)) throw invalidPath('sort', field);
      path = rest.split('.');
    } else if (!allowed.includes(field)) {
      throw invalid('sort', `cannot sort by "${field}"; allowed: ${allowedText}`);
    }
    if (keys.some((k) => k.field === field)) continue;
    if (keys.length >= maxSortKeys) throw invalid('sort', `at most ${maxSortKeys} sort keys`);
    keys.push(path ? { field, desc, path } : { field, desc });
  }
  return keys;
}

/** Parameters every read shares: fields, media, refTypes. */
export function parseReadOptions(pairs: QueryPairs): Pick<ListQuery, 'fields' | 'media' | 'refTypes'> {
  const refTypes = last(pairs, 'refTypes');
  return {
    fields: parseFieldSelection(last(pairs, 'fields')),
    // The contract: `url` gives URL strings; anything else is treated as `object`.
    media: last(pairs, 'media') === 'url' ? 'url' : 'object',
    refTypes: !(refTypes !== undefined && ['false', '0', 'no'].includes(refTypes.toLowerCase())),
  };
}

export function parseListQuery(pairs: QueryPairs, sortable: readonly string[], options: { sortByContentFields?: boolean } = {}): ListQuery {
  return {
    ...parsePaging(pairs),
    sort: parseSort(last(pairs, 'sort'), sortable, '-publishedAt', { contentFields: options.sortByContentFields === true }),
    ...parseReadOptions(pairs),
  };
}

const filterKey = /^filter\[([^\]]*)\](?:\[([^\]]*)\])?$/;
const jsonPathPattern = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;

/** The page list accepts only `pageType` and its equivalent `filter[pageTypeId]` (a slug). */
export function parsePageTypeFilter(pairs: QueryPairs): string | undefined {
  let pageType = last(pairs, 'pageType') || undefined;
  for (const [key, value] of pairs) {
    const m = filterKey.exec(key);
    if (!m && key.startsWith('filter')) throw invalid(key, 'pages can only be filtered by pageType');
    if (!m) continue;
    if (m[1] === 'pageTypeId' && (m[2] === undefined || m[2] === 'eq')) pageType = value;
    else throw invalid(key, 'pages can only be filtered by pageType (or filter[pageTypeId]=<slug>)');
  }
  return pageType;
}

const invalidPath = (parameter: string, field: string) => new CmsError('INVALID_JSON_FIELD_PATH',
  `Invalid field path "${field}": use fields.<name>[.<name>…] with letters, digits and underscores, no leading, trailing or double dots`,
  { parameter, field });

/** Collection filters: `filter[field][op]=value`, the first 20 in query-string order. */
export function parseCollectionFilters(pairs: QueryPairs): FilterCondition[] {
  const out: FilterCondition[] = [];
  for (const [key, value] of pairs) {
    if (!key.startsWith('filter')) continue;
    // Extra conditions are dropped silently (the contract), before they are even checked.
    if (out.length >= maxFilterConditions) continue;
    const m = filterKey.exec(key);
    if (!m) {
      // `filter[fields.list[0]]`: brackets are not path characters either.
      if (key.startsWith('filter[fields')) throw invalidPath(key, key.slice('filter['.length).replace(/\](\[[^\]]*\])?$/, ''));
      throw invalid(key, 'filters look like filter[field][operator]=value');
    }
    const field = m[1]!;
    const op = filterOperators.find((o) => o === (m[2] ?? 'eq'));
    if (!op) throw invalid(key, `unknown operator "${m[2]}"; use ${filterOperators.join(', ')}`);
    let target: FilterCondition['target'];
    if (field === 'name' || field === 'slug') target = { core: field };
    else if (field === 'fields' || field.startsWith('fields.')) {
      const path = field.slice('fields.'.length);
      if (field === 'fields' || !jsonPathPattern.test(path)) throw invalidPath(key, field);
      target = { path: path.split('.') };
    } else {
      throw new CmsError('INVALID_FILTER_FIELD', `Cannot filter by "${field}": use name, slug or fields.<name>`, { parameter: key, field });
    }
    if ((op === 'gt' || op === 'lt' || op === 'gte' || op === 'lte') && (value.trim() === '' || !Number.isFinite(Number(value)))) {
      throw invalid(key, `${op} compares numbers; "${value}" is not a number`);
    }
    out.push({ target, op, value });
  }
  return out;
}
