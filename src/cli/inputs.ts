import { CmsError } from '../core/errors.js';
import { jsonInputIssues } from '../lib/json-input.js';
import type { Io } from './io.js';
import { UsageError } from './output.js';
import { withoutBom } from '../lib/bom.js';

/** A JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The message of anything thrown. */
export const errorMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** A required option's value (commander has made sure it was given). */
export const given = (value: string | undefined, flag: string): string => {
  if (value === undefined) throw new UsageError(`${flag} is required`);
  return value;
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A page or item named on the command line by its id or its slug. */
export const refOf = (idOrSlug: string) => (uuidPattern.test(idOrSlug) ? { id: idOrSlug } : { slug: idOrSlug });

/** `--fields '{"title":"Hi"}'`, `--fields @content.json`, or `--fields @-` (standard input, as curl's `-d @-`). */
export async function readJsonOption(io: Io, name: string, value: string | undefined): Promise<Record<string, unknown> | undefined> {
  if (value === undefined) return undefined;
  let text = value;
  if (value === '@-') {
    try { text = withoutBom(await io.readStdin()); } catch (e) { throw new UsageError(`--${name}: cannot read standard input: ${errorMessage(e)}`); }
  } else if (value.startsWith('@')) {
    const { readFileSync } = await import('node:fs');
    const { resolve } = await import('node:path');
    try { text = withoutBom(readFileSync(resolve(io.cwd, value.slice(1)), 'utf8')); } catch (e) { throw new UsageError(`--${name}: cannot read ${value.slice(1)}: ${errorMessage(e)}`); }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--${name} must be a JSON object (or @file.json, or @- for standard input): ${errorMessage(e)}`);
  }
  if (!isJsonObject(parsed)) throw new UsageError(`--${name} must be a JSON object (or @file.json, or @- for standard input): not an object`);
  const issues = jsonInputIssues(text, parsed);
  if (issues.length > 0) throw new CmsError('VALIDATION_FAILED', `--${name} holds what no write can take`, issues.map((x) => ({ ...x, path: x.path.startsWith('[') ? `${name}${x.path}` : `${name}.${x.path}` })));
  return parsed;
}
