import { InvalidArgumentError, Option } from 'commander';
import { keyTypes, permissions, roles } from '../core/roles.js';
import { eventKinds } from '../core/context.js';
import { UsageError } from './output.js';

/**
 * The values of every enumerated option, for commander to check before anything runs (a wrong
 * value is a usage error, exit 2, in plain words). Lists the core keeps in modules that load zod are
 * repeated here so `cms --help` stays fast; test/cli/choices.test.ts checks that they match.
 */
export const choices = {
  keyTypes,
  permissions,
  roles,
  eventKinds,
  contentStatuses: ['draft', 'published'],
  postStatuses: ['draft', 'published'],
  conflictStrategies: ['mine', 'theirs', 'merge'],
  deliveryStatuses: ['pending', 'success', 'failed', 'exhausted'],
  migrationSources: ['buttercms'],
  migrationModes: ['dry_run', 'schema_only', 'full', 'incremental'],
  logLevels: ['error', 'warning', 'info'],
  typeKinds: ['page-type', 'collection', 'component'],
  fieldTypes: [
    'text', 'textarea', 'wysiwyg', 'image', 'media', 'number', 'boolean', 'date', 'datetime', 'color', 'json',
    'select', 'reference', 'componentPicker', 'nestedComponent', 'repeater',
  ],
} as const satisfies Record<string, readonly string[]>;

/** "a, b or c" */
export const oneOf = (values: readonly string[]): string =>
  values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

/** An option that takes one of `values`. */
export const choiceOption = (flags: string, description: string, values: readonly string[]): Option =>
  new Option(flags, description).choices(values);

/** An option that takes a comma-separated list of `values`; passed on as written. */
export const listOption = (flags: string, description: string, values: readonly string[]): Option =>
  new Option(flags, `${description} (any of: ${values.join(', ')})`).argParser((value: string) => {
    const items = value.split(',').map((s) => s.trim()).filter(Boolean);
    if (items.length === 0) throw new InvalidArgumentError(`Give at least one of ${oneOf(values)}.`);
    const wrong = items.filter((v) => !values.includes(v));
    if (wrong.length) {
      throw new InvalidArgumentError(`${wrong.map((w) => `"${w}"`).join(', ')} ${wrong.length === 1 ? 'is' : 'are'} not allowed; use ${oneOf(values)}, comma-separated.`);
    }
    return value;
  });

/** `--port`: a whole number from 0 to 65535 (0: any free port). */
export const portOption = (description: string): Option =>
  new Option('--port <port>', description).argParser((value: string) => {
    if (!/^\d+$/.test(value) || Number(value) > 65535) throw new InvalidArgumentError('Use a whole number from 0 to 65535.');
    return value;
  });

/** `--host`: an address to listen on (not empty). */
export const hostOption = (description: string): Option =>
  new Option('--host <host>', description).argParser((value: string) => {
    if (value.trim() === '') throw new InvalidArgumentError('Give an address, like 127.0.0.1 or 0.0.0.0.');
    return value;
  });

/** An option that takes a whole number (`min` and up, when given); passed on as written. */
export const countOption = (flags: string, description: string, min?: number): Option =>
  new Option(flags, description).argParser((value: string) => {
    if (!/^-?\d+$/.test(value.trim()) || (min !== undefined && Number(value) < min)) {
      throw new InvalidArgumentError(`Use a whole number${min === undefined ? '' : `, ${min} or more`}.`);
    }
    return value.trim();
  });

/**
 * A flag's value as one of `values` (commander has checked it already, so a miss is a usage
 * error that cannot happen from the command line; it types the value).
 */
export function chosen<T extends string>(values: readonly T[], value: string, flag: string): T;
export function chosen<T extends string>(values: readonly T[], value: string | undefined, flag: string): T | undefined;
export function chosen<T extends string>(values: readonly T[], value: string | undefined, flag: string): T | undefined {
  if (value === undefined) return undefined;
  const found = values.find((v) => v === value);
  if (found === undefined) throw new UsageError(`${flag}: use ${oneOf(values)}.`);
  return found;
}
