import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { ago, formatCell, headerOf, table, terminalWidth } from '../../src/cli/output.js';

const ioWith = (env: Record<string, string> = {}, stdout: { isTTY?: boolean; columns?: number } = {}): Io =>
  ({ stdout: { write: () => true, ...stdout }, stderr: { write: () => true }, stdinIsTTY: false, readStdin: async () => '', env, cwd: '/' });

describe('human tables', () => {
  it('headers are words, not squashed camelCase', () => {
    expect(['pageTypeSlug', 'updatedAt', 'originalFilename', 'nextAttemptAt', 'createdAt', 'firstName', 'id'].map(headerOf))
      .toEqual(['PAGE TYPE', 'UPDATED', 'FILE NAME', 'NEXT ATTEMPT', 'CREATED', 'FIRST NAME', 'ID']);
  });

  it('timestamps are shown in local time to the minute', () => {
    const iso = '2026-03-01T09:05:59.123Z';
    const d = new Date(iso);
    const two = (n: number) => String(n).padStart(2, '0');
    expect(formatCell(iso)).toBe(`${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`);
    expect(formatCell('2026-03-01')).toBe('2026-03-01');
    expect(formatCell(null)).toBe('');
    expect(formatCell(['a', 'b'])).toBe('a,b');
  });

  it('how long ago a key was last used reads as a short duration, then as a date', () => {
    const now = new Date('2026-03-31T12:00:00Z');
    const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
    expect(ago(null, now)).toBe('never');
    expect(ago(before(20_000), now)).toBe('just now');
    expect(ago(before(5 * 60_000 + 30_000), now)).toBe('5 min ago');
    expect(ago(before(3 * 3_600_000), now)).toBe('3 h ago');
    expect(ago(before(47 * 3_600_000), now)).toBe('47 h ago');
    expect(ago(before(2 * 86_400_000), now)).toBe('2 d ago');
    const old = before(40 * 86_400_000);
    expect(ago(old, now)).toBe(formatCell(old).slice(0, 10));
    expect(headerOf('lastUsed')).toBe('LAST USED');
  });

  it('fit the width: COLUMNS first, then the terminal, else 100', () => {
    expect(terminalWidth(ioWith({ COLUMNS: '60' }, { isTTY: true, columns: 200 }))).toBe(60);
    expect(terminalWidth(ioWith({}, { isTTY: true, columns: 132 }))).toBe(132);
    expect(terminalWidth(ioWith())).toBe(100);
    expect(terminalWidth(ioWith({ COLUMNS: 'wide' }))).toBe(100);
  });

  it('cut the widest cells with an ellipsis to fit, and keep ids whole', () => {
    const id = '0b7f2c4e-9a51-4e0e-8d1c-3f2a9e7b6c55';
    const rows = [{ id, name: 'A rather long name that will not fit in a narrow terminal', status: 'published' }];
    const text = table(ioWith({ COLUMNS: '70' }), rows, ['id', 'name', 'status'], 'none');
    const lines = text.split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS$/);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(70);
    expect(lines[1]).toContain(id);
    expect(lines[1]).toMatch(/A rather long.*… +published$/);
    // Wide enough: nothing cut.
    expect(table(ioWith({ COLUMNS: '200' }), rows, ['id', 'name', 'status'], 'none')).toContain(rows[0]!.name);
  });

  it('an empty list is the one line it is given', () => {
    expect(table(ioWith(), [], ['id'], 'No keys yet. Create one: cms keys create --type public')).toBe('No keys yet. Create one: cms keys create --type public');
  });
});
