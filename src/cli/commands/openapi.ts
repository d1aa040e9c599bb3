import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { writeGeneratedFile } from '../output.js';

/** `cms openapi [--out FILE]`: the OpenAPI 3.1 document `GET /api/v1/openapi.json` serves (docs/openapi.md). */
export function registerOpenApi(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('openapi')
    .description('print (or write with --out) the OpenAPI 3.1 description of the HTTP API, with the project\'s content types')
    .option('--out <file>', 'write the document to this file instead of printing it')
    .action(action(state, async (g, opts: { out?: string }) => {
      const { withEngine } = await import('../engine.js');
      const content = await withEngine(g, io, (e) => e.run('schema.jsonSchema', {}));
      // The document describes the HTTP door's route table: read from it, as `cms serve` serves it.
      const { openApiDocument } = await import('../../http/openapi.js');
      const { appRoutes } = await import('../../http/app.js');
      const text = `${JSON.stringify(openApiDocument(content, appRoutes().filter((r) => !r.path.startsWith('/api/v1/_cli/'))), null, 2)}\n`;
      if (opts.out !== undefined) return writeGeneratedFile(io, g, opts.out, text);
      io.stdout.write(text);
    }));
}
