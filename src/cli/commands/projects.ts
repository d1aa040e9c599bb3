import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, table } from '../output.js';

export function registerProjects(program: Command, state: ProgramState): void {
  const { io } = state;
  const projects = program.command('projects').description('projects in this database');
  projects.command('list').description('list projects').action(action(state, async (g) => {
    const { withEngine } = await import('../engine.js');
    const data = await withEngine(g, io, (e) => e.run('projects.list', {}));
    printResult(io, g, data, (rows) => table(io, rows, ['slug', 'name', 'id', 'createdAt'], 'No projects yet. Create one: cms projects create my-site'));
  }));
  projects.command('create').description('create a project').argument('<slug>', 'the project\'s slug, like my-site').option('--name <name>', 'display name')
    .action(action(state, async (g, slug: string, opts: { name?: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('projects.create', { slug, name: opts.name }));
      printResult(io, g, data, (p) => `Created project ${p.slug}. Use it with --project ${p.slug}.`);
    }));
}
