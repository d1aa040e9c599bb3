import { existsSync, statSync } from 'node:fs';
import type { GlobalOptions, Io } from './io.js';
import { cutText } from '../lib/cut-text.js';

/** Exit codes: 0 done, 1 the operation failed, 2 the command line was wrong. */
export const exitCodes = { ok: 0, failed: 1, usage: 2 } as const;

export class UsageError extends Error {
  override name = 'UsageError';
}

/** Commander's own complaints (`error: unknown option '--x'`) in the CLI's form: `USAGE: …`. */
export const usageLine = (commanderMessage: string): string => commanderMessage.replace(/^error:\s*/, 'USAGE: ');

/** Prints a result: exactly one JSON document with --json, readable text otherwise. */
export function printResult<T>(io: Io, globals: GlobalOptions, data: T, human: (data: T) => string): void {
  if (globals.json) {
    io.stdout.write(JSON.stringify({ data: data ?? null }, null, 2) + '\n');
    return;
  }
  const text = human(data);
  if (text) io.stdout.write(text.endsWith('\n') ? text : text + '\n');
}

export function printError(io: Io, globals: GlobalOptions, code: string, message: string, details?: unknown): void {
  io.stderr.write(`${code}: ${message}\n`);
  if (globals.json) {
    io.stdout.write(JSON.stringify({ error: { code, message, ...(details === undefined ? {} : { details }) } }, null, 2) + '\n');
  }
}

/** Header words for column keys that do not read well split (`pageTypeSlug` is the page type). */
const headers: Record<string, string> = {
  pageTypeSlug: 'PAGE TYPE',
  originalFilename: 'FILE NAME',
  mimeType: 'TYPE',
  attemptCount: 'ATTEMPTS',
  lastStatusCode: 'LAST STATUS',
  lastUsed: 'LAST USED',
  createdOn: 'CREATED',
};

/** `updatedAt` → `UPDATED`, `firstName` → `FIRST NAME`. */
export const headerOf = (key: string): string =>
  headers[key] ?? key.replace(/(.)At$/, '$1').replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[-_]+/g, ' ').toUpperCase();

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;
const two = (n: number) => String(n).padStart(2, '0');

/** An ISO timestamp as local time, `2026-03-01 09:30`; anything else as it is. */
export function formatCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.join(',');
  if (v instanceof Date || (typeof v === 'string' && isoDateTime.test(v))) {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) {
      return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
    }
  }
  return String(v).replace(/\s+/g, ' ');
}

/** An ISO timestamp's local day, `2026-03-01`. */
export const formatDay = (v: unknown): string => formatCell(v).slice(0, 10);

/**
 * How long ago a time was, short enough for a table: `just now`, `5 min ago`, `3 h ago`, `2 d ago`,
 * then the local date; `never` for none.
 */
export function ago(v: string | Date | null | undefined, now: Date): string {
  if (v === null || v === undefined) return 'never';
  const d = new Date(v);
  const minutes = Math.floor((now.getTime() - d.getTime()) / 60_000);
  if (Number.isNaN(minutes)) return String(v);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  if (minutes < 48 * 60) return `${Math.floor(minutes / 60)} h ago`;
  if (minutes < 30 * 24 * 60) return `${Math.floor(minutes / (24 * 60))} d ago`;
  return formatDay(d);
}

/** The width tables fit: `COLUMNS` when set, else the terminal's, else 100. */
export function terminalWidth(io: Io): number {
  const fromEnv = Number(io.env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  if (io.stdout.isTTY && io.stdout.columns && io.stdout.columns > 0) return io.stdout.columns;
  return 100;
}

const gap = 2;
/** Ids are what you copy, and a cut date or time ago misleads: those columns are never shortened. */
const keepWhole = (key: string) => key === 'id' || key === 'lastUsed' || /[a-z](?:At|On)$/.test(key);
const truncate = (s: string, width: number) => (s.length <= width ? s : width <= 1 ? '…'.slice(0, width) : `${cutText(s, width - 1)}…`);

/**
 * A plain text table that fits the terminal: readable headers, local dates, long cells cut with an
 * ellipsis (widest columns first; ids and dates stay whole). An empty list is one line,
 * `empty`, which says how to make the first one.
 */
export function table(io: Io, rows: Array<Record<string, unknown>>, columns: string[], empty: string): string {
  if (rows.length === 0) return empty;
  const titles = columns.map(headerOf);
  const cells = rows.map((r) => columns.map((c) => formatCell(r[c])));
  const widths = columns.map((_, i) => Math.max(titles[i]!.length, ...cells.map((row) => row[i]!.length)));
  const total = () => widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1);
  const floor = (i: number) => Math.max(titles[i]!.length, 6);
  const room = terminalWidth(io);
  while (total() > room) {
    let widest = -1;
    widths.forEach((w, i) => { if (!keepWhole(columns[i]!) && w > floor(i) && (widest < 0 || w > widths[widest]!)) widest = i; });
    if (widest < 0) break;
    widths[widest] = widths[widest]! - 1;
  }
  const line = (values: string[]) => values.map((v, i) => truncate(v, widths[i]!).padEnd(widths[i]!)).join(' '.repeat(gap)).trimEnd();
  return [line(titles), ...cells.map(line)].join('\n');
}

/** Lists print `{ data: [...], pagination }` with --json, like the HTTP API; a table otherwise. */
export function printList(io: Io, g: GlobalOptions, result: { data: Array<Record<string, unknown>>; pagination?: Record<string, number> }, columns: string[], empty: string): void {
  if (g.json) {
    io.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return;
  }
  const p = result.pagination;
  if (result.data.length === 0 && p && (p.total ?? 0) > 0) {
    io.stdout.write(`Nothing on page ${p.page}: there ${p.total === 1 ? 'is 1' : `are ${p.total}`} in all, on ${p.totalPages} page${p.totalPages === 1 ? '' : 's'}.\n`);
    return;
  }
  io.stdout.write(table(io, result.data, columns, empty) + (p && result.data.length ? `\npage ${p.page} of ${p.totalPages} (${p.total} in all)` : '') + '\n');
}

/** Progress and notes go to stderr, and only when a person is watching. */
export function note(io: Io, globals: GlobalOptions, message: string): void {
  if (!globals.json && io.stderr.isTTY) io.stderr.write(message + '\n');
}

/**
 * A generated file (`cms types --out`, `cms openapi --out`): written with its folders made, then
 * said where and how many bytes (`{ data: { path, bytes } }` with --json).
 */
/** `--out` names a file to write: a folder there is a usage error (it was EISDIR, told as INTERNAL). */
export function refuseFolder(path: string, given: string): void {
  if (existsSync(path) && statSync(path).isDirectory()) throw new UsageError(`--out ${given} is a folder; name a file`);
}

export async function writeGeneratedFile(io: Io, globals: GlobalOptions, out: string, text: string): Promise<void> {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const { dirname, relative, resolve } = await import('node:path');
  const path = resolve(io.cwd, out);
  refuseFolder(path, out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  const bytes = new TextEncoder().encode(text).byteLength;
  printResult(io, globals, { path, bytes }, (d) => `Wrote ${relative(io.cwd, d.path) || d.path} (${d.bytes} bytes).`);
}
