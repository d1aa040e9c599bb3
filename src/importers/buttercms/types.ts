// The importer's own view of schema shapes: looser than the core's (src/core/schema), because
// inferred fields are built up step by step; the schema rules check them when they are written.

export interface SchemaField {
  name: string;
  label?: string;
  type: string;
  required?: boolean;
  /** Per locale (an import in several locales, where the values differ between them). */
  localized?: boolean;
  options?: Record<string, unknown>;
}

/** The fields of a repeater's options (or none, when they are not a list of fields). */
export function fieldListOf(value: unknown): SchemaField[] {
  if (!Array.isArray(value)) return [];
  return value.filter((f): f is SchemaField =>
    typeof f === 'object' && f !== null && typeof Reflect.get(f, 'name') === 'string' && typeof Reflect.get(f, 'type') === 'string');
}

/** The strings of a list option (a picker's allowed components). */
export const stringListOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];

export interface ComponentDefinition {
  slug: string;
  name: string;
  fields: SchemaField[];
}

/** Same levels as the migration log (contract: error, warning, info). */
export interface ImportWarning {
  level: 'error' | 'warning' | 'info';
  message: string;
}

export type ReferenceKind = 'collectionItem' | 'page';

/** JSON as delivered by the source API. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
