import type { z } from 'zod';

/** One problem found in a schema definition or in content, located by a JSON path. */
export interface Issue {
  path: string;
  message: string;
}

export type PathSegment = string | number;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Renders `['fields', 2, 'options', 'collectionType']` as `fields[2].options.collectionType`.
 * Keys that are not identifiers are bracket-quoted so the path stays unambiguous
 * (an unknown key such as `foo-bar` is reported as `fields["foo-bar"]`).
 */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/**
 * Messages for zod's generic issue codes that read like the rest of ours. Passed per parse rather
 * than installed with `z.config`, because the zod configuration is global and shared with other modules.
 */
export const schemaErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return 'required';
      const expected = String(issue.expected);
      if (expected === 'int') return 'must be an integer';
      return `must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}`;
    }
    case 'too_small': {
      const inclusive = issue.inclusive !== false;
      const min = String(issue.minimum);
      if (issue.origin === 'string') return min === '1' ? 'must not be empty' : `must be at least ${min} characters`;
      if (issue.origin === 'array') return `must have at least ${min} item${min === '1' ? '' : 's'}`;
      return `must be ${inclusive ? '>=' : '>'} ${min}`;
    }
    case 'too_big': {
      const inclusive = issue.inclusive !== false;
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${max} characters`;
      if (issue.origin === 'array') return `must have at most ${max} item${max === '1' ? '' : 's'}`;
      return `must be ${inclusive ? '<=' : '<'} ${max}`;
    }
    case 'invalid_value':
      return `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown propert${issue.keys.length === 1 ? 'y' : 'ies'} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
    default:
      return undefined;
  }
};

/** Converts zod issues to our `{ path, message }` form, one issue per unknown key. */
export function issuesFromZod(error: z.ZodError): Issue[] {
  const out: Issue[] = [];
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: formatPath([...issue.path, key]), message: `unknown property "${key}"` });
    } else {
      out.push({ path: formatPath(issue.path), message: issue.message });
    }
  }
  return out;
}
