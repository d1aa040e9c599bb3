// Pure helpers of the entry editor's conflict, versions, preview and locale pieces: field-by-field
// differences, a word/line diff for long values, the preview URL template, and where a localized
// value comes from. No React here, so each rule can be read (and reasoned about) on its own.

export type Fields = Record<string, unknown>;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value with nothing in it: absent, null or the empty string. */
export const isEmpty = (v: unknown): boolean => v === undefined || v === null || v === '';

/** Structural equality of JSON values (key order does not matter). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

export type ChangeKind = 'added' | 'removed' | 'changed';
export interface FieldChange { field: string; kind: ChangeKind; before: unknown; after: unknown }

/** The fields that differ from `before` to `after`, in the order of `order` (then the others, sorted). */
export function diffFields(before: Fields, after: Fields, order: readonly string[] = []): FieldChange[] {
  const names = [...order.filter((n) => n in before || n in after)];
  for (const n of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) if (!names.includes(n)) names.push(n);
  const out: FieldChange[] = [];
  for (const field of names) {
    const b = before[field];
    const a = after[field];
    if (sameValue(a, b)) continue;
    out.push({ field, kind: isEmpty(b) ? 'added' : isEmpty(a) ? 'removed' : 'changed', before: b, after: a });
  }
  return out;
}

/** A value as text to read: strings as they are, everything else as indented JSON. */
export function formatValue(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, 2);
}

export interface DiffPart { op: 'same' | 'add' | 'del'; text: string }

/** A value in a line of text: strings and numbers as they are, cut at `max` characters; others as JSON. */
export function excerpt(v: unknown, max = 80): string {
  const text = typeof v === 'string' ? v : JSON.stringify(v) ?? '';
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Long texts and nested values are compared by line (or by word when both are one line). */
function tokens(text: string, byLine: boolean): string[] {
  if (!text) return [];
  return text.split(byLine ? /(\n)/ : /(\s+)/).filter((t) => t !== '');
}

const maxCells = 4_000_000;

/** The parts of `before` and `after`, kept, removed and added (a longest-common-subsequence diff). */
export function textDiff(before: string, after: string): DiffPart[] {
  const byLine = before.includes('\n') || after.includes('\n');
  const a = tokens(before, byLine);
  const b = tokens(after, byLine);
  if (a.length * b.length > maxCells) {
    return [...(before ? [{ op: 'del' as const, text: before }] : []), ...(after ? [{ op: 'add' as const, text: after }] : [])];
  }
  // lcs[i][j]: the common length of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] = a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    const last = parts[parts.length - 1];
    if (last && last.op === op) last.text += text;
    else parts.push({ op, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) { push('same', a[i]!); i++; j++; }
    else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) push('del', a[i++]!);
    else push('add', b[j++]!);
  }
  while (i < a.length) push('del', a[i++]!);
  while (j < b.length) push('add', b[j++]!);
  return parts;
}

/**
 * The preview URL of an entry from the configured template: `{type}`, `{slug}`, `{id}`, `{locale}`
 * and `{previewKey}` are replaced by their URL-encoded values (an unknown `{name}` stays as it is).
 */
export function previewUrl(template: string, values: { type: string; slug: string; id: string; locale: string; previewKey: string }): string {
  return template.replace(/\{(type|slug|id|locale|previewKey)\}/g, (_, name: keyof typeof values) => encodeURIComponent(values[name]));
}

export interface Locale { code: string; name: string; fallback: string | null; default: boolean }

/** The locales a read in `code` tries, in order: the locale, its fallbacks, then the default. */
export function fallbackChain(locales: readonly Locale[], code: string): string[] {
  const chain: string[] = [];
  let at: string | null = code;
  while (at && !chain.includes(at)) {
    chain.push(at);
    at = locales.find((l) => l.code === at)?.fallback ?? null;
  }
  const def = locales.find((l) => l.default)?.code;
  if (def && !chain.includes(def)) chain.push(def);
  return chain;
}

/** The entry's draft values in one locale: the default's are draftContent, the others' draftLocales. */
export interface LocalizedEntry { draftContent?: unknown; draftLocales?: unknown }

export function ownValues(entry: LocalizedEntry, code: string, defaultCode: string): Fields {
  if (code === defaultCode) return isRecord(entry.draftContent) ? entry.draftContent : {};
  const all = isRecord(entry.draftLocales) ? entry.draftLocales : {};
  const mine = all[code];
  return isRecord(mine) ? mine : {};
}

export type ValueSource = { kind: 'shared' } | { kind: 'own' } | { kind: 'fallback'; from: string; value: unknown } | { kind: 'none' };

/** Where the value of a field shown in locale `code` comes from. */
export function valueSource(entry: LocalizedEntry, locales: readonly Locale[], code: string, field: string, localized: boolean): ValueSource {
  if (!localized) return { kind: 'shared' };
  const def = locales.find((l) => l.default)?.code ?? code;
  for (const c of fallbackChain(locales, code)) {
    const value = ownValues(entry, c, def)[field];
    if (!isEmpty(value)) return c === code ? { kind: 'own' } : { kind: 'fallback', from: c, value };
  }
  return { kind: 'none' };
}

/**
 * The whole document of one locale, as resolve-conflict's `merge` takes it: that locale's own
 * values of the localized fields and the shared fields (which live in draftContent).
 */
export function localeDocument(entry: LocalizedEntry, code: string, defaultCode: string, localized: ReadonlySet<string>): Fields {
  const content = isRecord(entry.draftContent) ? entry.draftContent : {};
  if (code === defaultCode) return { ...content };
  const shared = Object.fromEntries(Object.entries(content).filter(([k]) => !localized.has(k)));
  return { ...shared, ...ownValues(entry, code, defaultCode) };
}

export type Side = 'mine' | 'theirs';

/**
 * Mine and theirs, field by field, taking each field from the side chosen (mine when unchosen); a
 * field the chosen side does not have is null (cleared when laid over the draft).
 */
export function mergeFields(mine: Fields, theirs: Fields, choice: Readonly<Record<string, Side>>): Fields {
  const out: Fields = {};
  for (const k of new Set([...Object.keys(theirs), ...Object.keys(mine)])) {
    const side = choice[k] ?? 'mine';
    const v = side === 'mine' ? mine[k] : theirs[k];
    out[k] = v === undefined ? null : v;
  }
  return out;
}
