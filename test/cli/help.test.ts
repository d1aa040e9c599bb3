import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { choices } from '../../src/cli/choices.js';
import { createProgram } from '../../src/cli/main.js';
import { postStatuses } from '../../src/core/blog/schemas.js';
import { logLevels, migrationModes } from '../../src/core/migrations/schemas.js';
import { fieldTypes } from '../../src/core/schema/fields.js';
import { deliveryStatuses } from '../../src/core/webhooks/schemas.js';

/** Every command of the program, with its path (`cms pages update`). */
function commandsOf(): Array<{ path: string; command: Command }> {
  const io = { stdout: { write: () => true }, stderr: { write: () => true }, stdinIsTTY: false, readStdin: async () => '', env: {}, cwd: '/' };
  const out: Array<{ path: string; command: Command }> = [];
  const walk = (c: Command, path: string) => {
    out.push({ path, command: c });
    for (const sub of c.commands) walk(sub, `${path} ${sub.name()}`);
  };
  walk(createProgram({ io, exitCode: 0 }), 'cms');
  return out;
}

describe('cms --help texts', () => {
  const all = commandsOf();

  it('every command, argument and shown option says what it is for', () => {
    const missing: string[] = [];
    for (const { path, command } of all) {
      if (!command.description()) missing.push(path);
      for (const a of command.registeredArguments) if (!a.description && !/^(idOrSlug|id|ids)$/.test(a.name())) missing.push(`${path} <${a.name()}>`);
      for (const o of command.options) if (!o.hidden && !o.description) missing.push(`${path} ${o.flags}`);
    }
    expect(missing).toEqual([]);
  });

  it('items say "an item" and never mention SEO (items have none)', () => {
    const items = all.filter((c) => c.path.startsWith('cms items'));
    expect(items.length).toBeGreaterThan(10);
    for (const { path, command } of items) {
      const help = command.helpInformation();
      expect(help, path).not.toMatch(/\ba item\b/);
      expect(help, path).not.toMatch(/\bseo\b/i);
    }
    expect(all.find((c) => c.path === 'cms items update')!.command.description()).toContain('fields merge key by key');
    expect(all.find((c) => c.path === 'cms pages update')!.command.description()).toContain('fields and seo merge key by key');
  });

  it('update commands do not promise a slug made from the name', () => {
    for (const { path, command } of all.filter((c) => c.path.endsWith(' update'))) {
      expect(command.helpInformation(), path).not.toMatch(/made from the (name|title)/);
    }
  });

  it('the CLI\'s lists of allowed values are the core\'s', () => {
    expect(choices.postStatuses).toEqual(postStatuses);
    expect(choices.migrationModes).toEqual(migrationModes);
    expect(choices.logLevels).toEqual(logLevels);
    expect(choices.deliveryStatuses).toEqual(deliveryStatuses);
    expect(choices.fieldTypes).toEqual(fieldTypes);
  });
});
