import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult } from '../output.js';

export function registerDb(program: Command, state: ProgramState): void {
  const { io } = state;
  const db = program.command('db').description('the database');
  db.command('status').description('which database, and which migrations are applied').action(action(state, async (g) => {
    const { withEngine } = await import('../engine.js');
    const { isPostgresUrl } = await import('../../db/client.js');
    const data = await withEngine(g, io, async (e) => {
      const status = await e.run('db.status', {});
      const where = isPostgresUrl(e.config.databaseUrl) ? e.config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@') : `${e.config.dataDir}/db (PGlite)`;
      return { ...status, driver: isPostgresUrl(e.config.databaseUrl) ? 'postgres' : 'pglite', database: where, via: e.mode };
    });
    printResult(io, g, data, (s) =>
      [`Database: ${s.database} (${s.server})`, `Project: ${s.project}`,
        `Migrations: ${s.migrations.length - s.pending} applied, ${s.pending} pending`,
        ...s.migrations.map((m) => `  ${m.applied ? '✓' : '·'} ${m.name}`),
        s.via === 'server' ? '(answered by the running cms serve)' : ''].filter(Boolean).join('\n'));
  }));
}
