import { describe, expect, it } from 'vitest';
import { isShortCommand } from '../../src/cli/main.js';

// bin/cms.mjs compiles PGlite's WebAssembly with the baseline compiler only for short commands;
// the long-running and heavy ones (a server, a migration, an archive) keep the optimising compiler.
const argv = (...args: string[]) => ['node', 'cms', ...args];

describe('isShortCommand', () => {
  it('takes one-shot commands as short, whatever global options come first', () => {
    expect(isShortCommand(argv('pages', 'list'))).toBe(true);
    expect(isShortCommand(argv('--json', 'keys', 'list'))).toBe(true);
    expect(isShortCommand(argv('--config', 'serve.json', '--project', 'serve', 'keys', 'create'))).toBe(true);
    expect(isShortCommand(argv('--config=other.json', 'schema', 'push'))).toBe(true);
  });

  it('keeps the optimising compiler for servers, migrations and archives', () => {
    for (const command of ['serve', 'dev', 'migrate', 'import', 'export']) {
      expect(isShortCommand(argv(command))).toBe(false);
      expect(isShortCommand(argv('--project', 'blog', '--json', command, '--port', '0'))).toBe(false);
    }
  });

  it('decides nothing for a command line without a command', () => {
    expect(isShortCommand(argv())).toBe(false);
    expect(isShortCommand(argv('--help'))).toBe(false);
  });
});
