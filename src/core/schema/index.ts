export {
  fieldTypes,
  referenceTypes,
  fieldNamePattern,
  slugPattern,
  schemaFieldSchema,
  typeDefinitionSchema,
  partialTypeDefinition,
  validateTypeDefinition,
  checkSchemaSet,
  typeDefinitionJsonSchema,
  storedFields,
} from './fields.js';
export type {
  FieldType,
  FieldOf,
  ReferenceType,
  SchemaField,
  TypeDefinition,
  ValidationResult,
  SchemaKind,
  SchemaSet,
  SchemaSetIssue,
} from './fields.js';
export { validateContent, requiredMissing, collectRefs } from './validate-content.js';
export type {
  ContentLookups,
  ContentTarget,
  ContentRef,
  ComponentLookup,
  MediaInfo,
  ValidateContentOptions,
  ValidateContentResult,
} from './validate-content.js';
export { isValidColor, cssColorNames } from './colors.js';
export { formatPath, issuesFromZod, schemaErrorMap } from './issues.js';
export type { Issue, PathSegment } from './issues.js';
