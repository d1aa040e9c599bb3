import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, writeGeneratedFile } from '../output.js';

/** `cms types [--out FILE]`: TypeScript declarations of the project's schema (docs/client.md). */
export function registerTypes(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('types')
    .description('print (or write with --out) TypeScript types of every page type, collection and component, for cms/client')
    .option('--out <file>', 'write the declarations to this file instead of printing them')
    .action(action(state, async (g, opts: { out?: string }) => {
      const { withEngine } = await import('../engine.js');
      const { text } = await withEngine(g, io, (e) => e.run('schema.typescript', {}));
      if (opts.out !== undefined) return writeGeneratedFile(io, g, opts.out, text);
      if (g.json) printResult(io, g, { path: null, bytes: new TextEncoder().encode(text).byteLength, text }, () => '');
      else io.stdout.write(text);
    }));
}
