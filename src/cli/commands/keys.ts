import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { ago, formatDay, printResult, table } from '../output.js';
import { choiceOption, choices, chosen, listOption } from '../choices.js';

export function registerKeys(program: Command, state: ProgramState): void {
  const keys = program.command('keys').description('API keys: public (read), secret (write) and preview (drafts)');
  const { io } = state;

  keys.command('create')
    .description('create a key; the whole key is shown only now')
    .addOption(choiceOption('--type <type>', 'public reads, secret writes (with --permissions), preview reads drafts', choices.keyTypes).makeOptionMandatory())
    .option('--name <name>', 'a name to tell keys apart')
    .addOption(listOption('--permissions <list>', 'secret keys: comma-separated permissions', choices.permissions))
    .action(action(state, async (g, opts: { type: string; name?: string; permissions?: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('keys.create', { type: chosen(choices.keyTypes, opts.type, '--type'), name: opts.name, permissions: opts.permissions }));
      printResult(io, g, data, (k) =>
        `Created ${k.type} key ${k.id}${k.permissions.length ? ` (${k.permissions.join(', ')})` : ''}.\n` +
        `Key (shown only once, store it now):\n${k.key}`);
    }));

  keys.command('list')
    .description('list keys (revoked ones with --all)')
    .option('--all', 'include revoked keys')
    .action(action(state, async (g, opts: { all?: boolean }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('keys.list', { includeRevoked: !!opts.all }));
      // When a key was last used, as how long ago (it is written at most once a minute), and the
      // day it was made (the minute would leave the other columns no room in 100 columns); revoked
      // keys are listed only with --all, so only then has their column anything to show.
      const columns = ['id', 'type', 'name', 'prefix', 'permissions', 'createdOn', 'lastUsed', ...(opts.all ? ['revokedAt'] : [])];
      const now = new Date();
      printResult(io, g, data, (rows) => table(io, rows.map((k) => ({ ...k, createdOn: formatDay(k.createdAt), lastUsed: ago(k.lastUsedAt, now) })), columns,
        'No keys yet. Create one: cms keys create --type public'));
    }));

  keys.command('revoke')
    .description('revoke a key by its id (or by the key itself)')
    .argument('<id>', 'the key\'s id, or the key itself')
    .action(action(state, async (g, id: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('keys.revoke', { id }));
      printResult(io, g, data, (k) => `Revoked key ${k.id}.`);
    }));
}
