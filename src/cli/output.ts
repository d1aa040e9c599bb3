import type { GlobalOptions, Io } from './io.js';

/** Exit codes: 0 done, 1 the operation failed, 2 the command line was wrong. */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Prints a result: exactly one JSON document with --json, readable text otherwise. */
export function printResult(io: Io, globals: GlobalOptions, data: unknown, human: (data: never) => string): void {
  if (globals.json) {
    io.stdout.write(JSON.stringify({ data: data ?? null }, null, 2) + '\n');
    return;
  }
  const text = human(data as never);
  if (text) io.stdout.write(text.endsWith('\n') ? text : text + '\n');
}

export function printError(io: Io, globals: GlobalOptions, code: string, message: string, details?: unknown): void {
  io.stderr.write(`${code}: ${message}\n`);
  if (globals.json) {
    io.stdout.write(JSON.stringify({ error: { code, message, ...(details === undefined ? {} : { details }) } }, null, 2) + '\n');
  }
}

/** A plain text table, columns sized to their content. */
export function table(rows: Array<Record<string, unknown>>, columns: string[]): string {
  if (rows.length === 0) return '(none)';
  const cell = (v: unknown) => (v === null || v === undefined ? '' : Array.isArray(v) ? v.join(',') : String(v));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(columns.map((c) => c.toUpperCase())), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))].join('\n');
}

/** Progress and notes go to stderr, and only when a person is watching. */
export function note(io: Io, globals: GlobalOptions, message: string): void {
  if (!globals.json && io.stderr.isTTY) io.stderr.write(message + '\n');
}
