import * as p from '@clack/prompts';
import { choices } from './choices.js';
import { isSlug } from '../lib/slug.js';
import { parseChoices, type FieldSpec } from './field-specs.js';
import { errorMessage } from './inputs.js';

/** Questions are asked only on a terminal, never with --yes or --json (the callers check). */

const fieldTypeChoices = choices.fieldTypes;

export interface TypeAnswers {
  kind: string;
  slug: string;
  name: string | undefined;
  fields: FieldSpec[];
}

export async function askTypeDefinition(start: Partial<TypeAnswers>): Promise<TypeAnswers | null> {
  p.intro('Add a type');
  const kind = start.kind ?? await p.select({
    message: 'What kind of type?',
    options: [{ value: 'page-type', label: 'Page type' }, { value: 'collection', label: 'Collection' }, { value: 'component', label: 'Component' }],
  });
  if (p.isCancel(kind)) return null;
  const slug = start.slug ?? await p.text({
    message: 'Slug (lowercase, hyphens)',
    validate: (v) => (isSlug(v ?? '') ? undefined : 'use lowercase letters, digits and single hyphens'),
  });
  if (p.isCancel(slug)) return null;
  const fields = [...(start.fields ?? [])];
  for (;;) {
    const name = await p.text({ message: fields.length ? 'Another field name (empty to finish)' : 'First field name', placeholder: 'title' });
    if (p.isCancel(name)) return null;
    if (!name) { if (fields.length) break; else continue; }
    const type = await p.select({ message: `Type of ${name}`, options: fieldTypeChoices.map((t) => ({ value: t, label: t })) });
    if (p.isCancel(type)) return null;
    let options: FieldSpec['options'];
    if (type === 'select') {
      const list = await p.text({
        message: `Choices of ${name}: comma-separated values, or value=Label pairs (empty: any text)`,
        placeholder: 'cto=Chief Technology Officer,cfo=Chief Financial Officer',
        validate: (v) => {
          if (!v?.trim()) return undefined;
          try { parseChoices(v, name); return undefined; } catch (e) { return errorMessage(e); }
        },
      });
      if (p.isCancel(list)) return null;
      if (list.trim()) options = { choices: parseChoices(list, name) };
    }
    const required = await p.confirm({ message: `Is ${name} required?`, initialValue: false });
    if (p.isCancel(required)) return null;
    fields.push({ name, type: String(type), label: name, ...(required ? { required: true } : {}), ...(options ? { options } : {}) });
  }
  p.outro(`${String(kind)} ${String(slug)} with ${fields.length} field(s)`);
  return { kind: String(kind), slug: String(slug), name: start.name, fields };
}

export interface InitAnswers {
  project: string;
  starter: boolean;
}

export async function askInit(defaults: InitAnswers): Promise<InitAnswers | null> {
  p.intro('cms init');
  const project = await p.text({
    message: 'Project slug',
    initialValue: defaults.project,
    validate: (v) => (isSlug(v ?? '') ? undefined : 'use lowercase letters, digits and single hyphens'),
  });
  if (p.isCancel(project)) return null;
  const starter = await p.confirm({ message: 'Add the starter schemas (a landing page, products, two components)?', initialValue: defaults.starter });
  if (p.isCancel(starter)) return null;
  p.outro('Writing the project');
  return { project: String(project), starter };
}

/** `cms schema push` on a terminal, before a change that drops content: true to apply. */
export async function confirmApply(): Promise<boolean> {
  const answer = await p.confirm({ message: 'Apply? (y/N)', initialValue: false });
  return answer === true;
}
