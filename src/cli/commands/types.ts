import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult } from '../output.js';

/** `cms types [--out FILE]`: TypeScript declarations of the project's schema (docs/client.md). */
export function registerTypes(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('types')
    .description('print (or write with --out) TypeScript types of every page type, collection and component, for cms/client')
    .option('--out <file>', 'write the declarations to this file instead of printing them')
    .action(action(state, async (g, opts: { out?: string }) => {
      const { withEngine } = await import('../engine.js');
      const { text } = await withEngine(g, io, (e) => e.run('schema.typescript', {}));
      const bytes = new TextEncoder().encode(text).byteLength;
      if (opts.out === undefined) {
        if (g.json) printResult(io, g, { path: null, bytes, text }, () => '');
        else io.stdout.write(text);
        return;
      }
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const { dirname, relative, resolve } = await import('node:path');
      const path = resolve(io.cwd, opts.out);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      printResult(io, g, { path, bytes }, (d) => `Wrote ${relative(io.cwd, d.path) || d.path} (${d.bytes} bytes).`);
    }));
}
