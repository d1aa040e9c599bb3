import { formatPath, type Issue, type PathSegment } from '../core/schema/issues.js';

/** A lone surrogate: in a `u` regex, a pair is one code point and does not match. */
const loneSurrogate = /[\uD800-\uDFFF]/u;

/** Where a value sits in the parsed JSON: its key under its parent, up to the root. */
interface Place { key: PathSegment; parent: Place | null }

const pathOf = (place: Place | null): string => {
  const path: PathSegment[] = [];
  for (let p = place; p; p = p.parent) path.unshift(p.key);
  return formatPath(path) || '(body)';
};

/**
 * How deep JSON from outside may nest. A content value nests at most 200 levels (a json field's
 * rule) inside a body's few; far deeper documents would overflow the call stack of the code that
 * walks them (serialising, validating) and answer 500.
 */
export const maxJsonDepth = 256;

/** The deepest nesting of arrays and objects in a JSON text (brackets inside strings not counted). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) { if (++depth > deepest) deepest = depth; }
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * What JSON from outside (a request body, a CLI `--fields`) may hold that no operation could take
 * as it is: a member named `__proto__`, which JSON.parse keeps but every object built from it
 * (zod's, a spread) silently drops, so a write would succeed without it; and a string with a lone
 * surrogate (`"\ud800"`), which is not text: PostgreSQL refuses it in JSON, and as a column's value
 * it becomes U+FFFD. Each is a problem at its path, all found at once. `text` is the JSON `value`
 * was parsed from: both can only come from a `\u` escape or the name itself, so most texts are not
 * walked at all; the walk keeps its own stack (a body may nest deeper than the call stack).
 */
export function jsonInputIssues(text: string, value: unknown): Issue[] {
  // Nesting past the limit takes at least as many characters: a shorter text is not scanned.
  if (text.length > maxJsonDepth && nestingDepth(text) > maxJsonDepth) return [{ path: '(body)', message: `nests deeper than ${maxJsonDepth} levels` }];
  if (!text.includes('\\u') && !text.includes('__proto__')) return [];
  const issues: Issue[] = [];
  // Each value with the problem of its own member name, if any: reported as it is reached, so that
  // problems come in the document's order.
  const stack: Array<{ value: unknown; place: Place | null; nameProblem?: string }> = [{ value, place: null }];
  while (stack.length > 0) {
    const { value: v, place, nameProblem } = stack.pop()!;
    if (nameProblem) issues.push({ path: pathOf(place), message: nameProblem });
    if (typeof v === 'string') {
      if (loneSurrogate.test(v)) issues.push({ path: pathOf(place), message: 'must be valid Unicode text (it holds a lone surrogate)' });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], place: { key: i, parent: place } });
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        const nameProblem = key === '__proto__' ? 'is not an allowed member name'
          : loneSurrogate.test(key) ? 'member name must be valid Unicode text (it holds a lone surrogate)' : undefined;
        stack.push({ value: item, place: { key, parent: place }, ...(nameProblem ? { nameProblem } : {}) });
      }
    }
  }
  return issues;
}
