import type { Command } from 'commander';
import type { CmsConfig } from '../../config.js';
import { action, type ProgramState } from '../command-kit.js';
import { printResult } from '../output.js';

export function registerDb(program: Command, state: ProgramState): void {
  const { io } = state;
  const db = program.command('db').description('the database');
  db.command('status').description('which database, and which migrations are applied').action(action(state, async (g) => {
    const { withDatabaseAsItIs } = await import('../engine.js');
    const { isPostgresUrl } = await import('../../db/client.js');
    const { readDbStatus } = await import('../../core/db/status.js');
    const where = (config: CmsConfig, via: 'local' | 'server') => ({
      driver: isPostgresUrl(config.databaseUrl) ? 'postgres' : 'pglite',
      database: isPostgresUrl(config.databaseUrl) ? config.databaseUrl.replace(/\/\/[^@/]*@/, '//***@') : `${config.dataDir}/db (PGlite)`,
      via,
    });
    // Read as it is: opening the engine would apply the pending migrations first.
    const data = await withDatabaseAsItIs(g, io,
      async (db, config) => ({ ...(await readDbStatus(db, config.project)), ...where(config, 'local') }),
      async (e) => ({ ...(await e.run('db.status', {})), ...where(e.config, 'server') }));
    printResult(io, g, data, (s) =>
      [`Database: ${s.database} (${s.server})`, `Project: ${s.project}`,
        `Migrations: ${s.migrations.length - s.pending} applied, ${s.pending} pending`,
        ...s.migrations.map((m) => `  ${m.applied ? '✓' : '·'} ${m.name}`),
        s.via === 'server' ? '(answered by the running cms serve)' : ''].filter(Boolean).join('\n'));
  }));
}
