// Local stand-ins for shapes owned elsewhere. The real schema module (src/core/schema) is being
// written in parallel; these mirror the contract's "Schema field definition" closely enough that the
// importer can hand its output over without conversion once that module lands.

export interface SchemaField {
  name: string;
  label?: string;
  type: string;
  required?: boolean;
  options?: Record<string, unknown>;
}

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
