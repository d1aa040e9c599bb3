import { z } from 'zod';
import type { Ctx } from '../context.js';
import { validationFailed } from '../errors.js';
import { defineOperation } from '../operation.js';
import { sanitizeWysiwyg } from '../../lib/wysiwyg.js';
import { callAi, providerOf } from './call.js';
import { suggestActions, suggestPrompt } from './prompts.js';
import { loadEntry, localeOf, refOf, type AiLocale } from './source.js';

/** The field types a suggestion can be for. */
const suggestableTypes = new Set(['text', 'textarea', 'wysiwyg']);

/** How much text one suggestion request sends at most (characters). */
export const suggestTextBudget = 20_000;

const ref = z.string().trim().min(1).max(255);

export const aiSuggestInput = z.strictObject({
  page: ref.optional(),
  collection: ref.optional(),
  item: ref.optional(),
  field: z.string().min(1).max(255).optional(),
  text: z.string().min(1).max(suggestTextBudget).optional(),
  format: z.enum(['text', 'html']).optional(),
  action: z.enum(suggestActions),
  instruction: z.string().trim().min(1).max(2000).optional(),
  language: z.string().trim().min(1).max(100).optional(),
  count: z.number().int().min(1).max(3).default(1),
  locale: z.string().min(1).max(35).optional(),
}).superRefine((input, issue) => {
  const add = (path: string, message: string) => issue.addIssue({ code: 'custom', path: [path], message });
  const sources = [input.page !== undefined, input.collection !== undefined || input.item !== undefined, input.text !== undefined].filter(Boolean).length;
  if (sources !== 1) add(input.text !== undefined ? 'text' : 'page', 'give exactly one of page (with field), collection and item (with field), or text');
  if (input.collection !== undefined && input.item === undefined) add('item', 'required with collection (the item\'s slug or id)');
  if (input.item !== undefined && input.collection === undefined) add('collection', 'required with item (the collection type\'s slug)');
  if (input.text === undefined && input.field === undefined) add('field', 'required with page or item: the name of a text, textarea or wysiwyg field');
  if (input.text !== undefined && input.field !== undefined) add('field', 'goes with page or item, not with text');
  if (input.format !== undefined && input.text === undefined) add('format', 'goes with text (a field\'s format comes from its type)');
  if ((input.action === 'custom' || input.action === 'tone') && input.instruction === undefined) {
    add('instruction', input.action === 'tone' ? 'required for tone: the tone to take, like "friendly"' : 'required for custom: what to do with the text');
  }
  if (input.action === 'translate' && input.language === undefined) add('language', 'required for translate: the language to translate into');
});

export interface Suggestions {
  suggestions: string[];
}

/**
 * `POST /api/v1/ai/suggest`, `cms ai suggest`: up to three alternatives for one text, textarea or
 * wysiwyg field of a page's or item's draft (in a locale), or for a text given directly. HTML
 * answers are cut down to the wysiwyg allowlist: the model's output is untrusted.
 */
export const aiSuggest = defineOperation({
  name: 'ai.suggest',
  input: aiSuggestInput,
  access: { role: 'editor', key: 'ai:use' },
  write: false,
  async run(ctx, input): Promise<Suggestions> {
    providerOf(ctx);
    const locale = localeOf(ctx, input.locale);
    const source = await sourceOf(ctx, input, locale);
    const { object } = await callAi(ctx, 'suggest', {
      system: suggestPrompt.system({ format: source.format, count: input.count }),
      prompt: suggestPrompt.user({
        action: input.action, instruction: input.instruction, language: input.language,
        contentLanguage: source.fromEntry || input.locale ? locale.label : null, text: source.text,
      }),
      schema: z.object({ suggestions: z.array(z.string()).min(1) }),
      schemaName: 'suggestions',
    });
    const cleaned = object.suggestions
      .map((s) => (source.format === 'html' ? sanitizeWysiwyg(s) : s.trim()))
      .filter((s) => s !== '');
    return { suggestions: cleaned.slice(0, input.count) };
  },
});

async function sourceOf(ctx: Ctx, input: z.output<typeof aiSuggestInput>, locale: AiLocale): Promise<{ text: string; format: 'text' | 'html'; fromEntry: boolean }> {
  if (input.text !== undefined) return { text: input.text, format: input.format ?? 'text', fromEntry: false };
  const entry = input.page !== undefined
    ? await loadEntry(ctx, 'page', refOf(input.page), locale)
    : await loadEntry(ctx, 'item', refOf(input.item ?? ''), locale, input.collection);
  const name = input.field ?? '';
  const field = entry.type.fields.find((f) => f.name === name);
  if (!field) {
    throw validationFailed([{ path: 'field', message: `"${name}" is not a field of ${entry.type.slug} (its fields: ${entry.type.fields.map((f) => f.name).join(', ') || 'none'})` }]);
  }
  if (!suggestableTypes.has(field.type)) {
    throw validationFailed([{ path: 'field', message: `"${name}" is a ${field.type} field; suggestions are for text, textarea and wysiwyg fields` }]);
  }
  const value = entry.values[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw validationFailed([{ path: 'field', message: `"${name}" is empty in the draft${locale.isDefault ? '' : ` (${locale.code})`}: there is no text to work on` }]);
  }
  if (value.length > suggestTextBudget) {
    throw validationFailed([{ path: 'field', message: `"${name}" holds ${value.length} characters; suggestions take at most ${suggestTextBudget}` }]);
  }
  return { text: value, format: field.type === 'wysiwyg' ? 'html' : 'text', fromEntry: true };
}
