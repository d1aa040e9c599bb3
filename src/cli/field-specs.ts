import { choices, oneOf } from './choices.js';
import { UsageError } from './output.js';

export interface FieldSpec {
  name: string;
  type: string;
  label: string;
  required?: boolean;
  options?: { choices: Array<{ value: string; label: string }> };
}

const fieldGrammar = 'name:type[:required], or for a select name:select[:CHOICES][:required]';

/**
 * `--field` grammar: `name:type[:required]`; a select is `name:select[:CHOICES][:required]`, CHOICES
 * comma-separated, each `value` (its own label) or `value=Label`; without them it takes any string.
 * A select's choices are always the third part, and a final `:required` is never read as a choice.
 */
export function parseFieldSpec(spec: string): FieldSpec {
  const parts = spec.split(':');
  const name = parts[0]?.trim() ?? '';
  const type = parts[1]?.trim() || 'text';
  let rest = parts.slice(2);
  const required = rest.length > 0 && rest[rest.length - 1] === 'required';
  if (required) rest = rest.slice(0, -1);
  if (!name) throw new UsageError(`Field "${spec}" needs a name: ${fieldGrammar}`);
  if (!choices.fieldTypes.some((t) => t === type)) {
    throw new UsageError(`Field "${spec}": "${type}" is not a field type; use ${oneOf(choices.fieldTypes)}`);
  }
  const base = { name, type, label: titleCase(name), ...(required ? { required: true } : {}) };
  if (type !== 'select') {
    if (rest.length) throw new UsageError(`Field "${spec}": after the type only ":required" may follow (${fieldGrammar})`);
    return base;
  }
  // Labels may hold colons: everything between the type and a final :required is the choice list.
  // None (`role:select`, `role:select:required`): a select that takes any string.
  const list = rest.join(':');
  if (!list.trim()) return base;
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

export const titleCase = (s: string) => s.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^\w/, (c) => c.toUpperCase());
