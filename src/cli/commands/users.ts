import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, table, UsageError } from '../output.js';
import { choiceOption, choices, chosen } from '../choices.js';

export function registerUsers(program: Command, state: ProgramState): void {
  const { io } = state;
  const users = program.command('users').description('admin users and their roles in the project');

  users.command('create')
    .description('create a user who is a member of the project (the first owner included)')
    .requiredOption('--email <email>', 'sign-in email')
    .option('--password <password>', 'password (better: the CMS_PASSWORD environment variable, kept out of process lists)')
    .addOption(choiceOption('--role <role>', 'the role in the project, low to high', choices.roles).makeOptionMandatory())
    .option('--name <name>', 'display name')
    .action(action(state, async (g, opts: { email: string; password?: string; role: string; name?: string }) => {
      const password = opts.password ?? io.env.CMS_PASSWORD;
      if (!password) throw new UsageError('A password is needed: pass --password or set CMS_PASSWORD');
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('users.create', { email: opts.email, password, role: chosen(choices.roles, opts.role, '--role'), name: opts.name }));
      printResult(io, g, data, (u) => `Created ${u.email} (${u.role}), id ${u.id}.`);
    }));

  users.command('list')
    .description('list the members of the project')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('users.list', {}));
      printResult(io, g, data, (rows) => table(io, rows, ['id', 'email', 'name', 'role', 'createdAt'],
        'No members yet. Create the first owner: CMS_PASSWORD=… cms users create --email you@example.com --role owner'));
    }));

  users.command('add')
    .description('add an existing user to the project with a role')
    .requiredOption('--email <email>', 'the user\'s email')
    .addOption(choiceOption('--role <role>', 'the role in the project, low to high', choices.roles).makeOptionMandatory())
    .action(action(state, async (g, opts: { email: string; role: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('members.add', { email: opts.email, role: chosen(choices.roles, opts.role, '--role') }));
      printResult(io, g, data, (u) => `Added ${u.email} as ${u.role}.`);
    }));

  users.command('set-role')
    .description('change a member\'s role')
    .argument('<userId>', 'user id')
    .addOption(choiceOption('--role <role>', 'the role in the project, low to high', choices.roles).makeOptionMandatory())
    .action(action(state, async (g, userId: string, opts: { role: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('members.update', { userId, role: chosen(choices.roles, opts.role, '--role') }));
      printResult(io, g, data, (u) => `${u.email} is now ${u.role}.`);
    }));

  users.command('remove')
    .description('remove a member from the project (the last owner stays)')
    .argument('<userId>', 'user id')
    .action(action(state, async (g, userId: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('members.remove', { userId }));
      printResult(io, g, data, () => 'Removed.');
    }));
}
