/**
 * The text of a `schemas/<kind>/<slug>.json` file, as `cms schema pull` writes it and as the admin
 * app's schema builder downloads it. Pure (no Node imports) so the browser app can use it too.
 */
export function schemaFileText(definition: { slug: string; name?: unknown; fields?: unknown }): string {
  return JSON.stringify({ $schema: '../cms-schema.json', ...inFileOrder(definition) }, null, 2) + '\n';
}

const definitionKeys = ['slug', 'name', 'fields'];
const fieldKeys = ['name', 'label', 'type', 'required', 'defaultValue', 'options'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The database keeps definitions as JSONB, which does not keep key order; files get the order
 * people write them in, so a pulled file diffs cleanly against the one that was pushed.
 */
function inFileOrder(definition: object): Record<string, unknown> {
  const ordered = (obj: Record<string, unknown>, keys: string[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const k of keys) if (k in obj) out[k] = obj[k];
    for (const k of Object.keys(obj)) if (!(k in out)) out[k] = obj[k];
    return out;
  };
  const field = (f: unknown): unknown => {
    if (!isObject(f)) return f;
    const o = ordered(f, fieldKeys);
    const options = o.options;
    if (isObject(options) && Array.isArray(options.fields)) o.options = { ...options, fields: options.fields.map(field) };
    return o;
  };
  const def = ordered({ ...definition }, definitionKeys);
  if (Array.isArray(def.fields)) def.fields = def.fields.map(field);
  return def;
}
