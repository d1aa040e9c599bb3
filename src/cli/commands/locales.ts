import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, table } from '../output.js';

/** `cms locales`: the languages the project's content is written in. */
export function registerLocales(program: Command, state: ProgramState): void {
  const locales = program.command('locales').description('the languages content is written in: codes, names, fallbacks and the default');
  const { io } = state;
  const show = (rows: Array<{ code: string; name: string; fallback: string | null; default: boolean }>) =>
    table(io, rows.map((l) => ({ ...l, fallback: l.fallback ?? '', default: l.default ? 'yes' : '' })), ['code', 'name', 'fallback', 'default'], 'No locales.');

  locales.command('list')
    .description('list the locales (the default one marked)')
    .action(action(state, async (g) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('locales.list', {}));
      printResult(io, g, data, show);
    }));

  locales.command('add')
    .description('add a locale, like fr or pt-BR')
    .argument('<code>', 'the locale code (BCP 47: en, fr, pt-BR)')
    .option('--name <name>', 'a name people read (default: the language\'s English name)')
    .option('--fallback <code>', 'where missing values are read from (the default locale always comes last)')
    .action(action(state, async (g, code: string, opts: { name?: string; fallback?: string }) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('locales.add', { code, name: opts.name, fallback: opts.fallback }));
      printResult(io, g, data, (rows) => `Added locale ${code}.\n${show(rows)}`);
    }));

  locales.command('update')
    .description('rename a locale or change its fallback')
    .argument('<code>', 'the locale code')
    .option('--name <name>', 'a new name')
    .option('--fallback <code>', 'a new fallback locale ("none" for none)')
    .action(action(state, async (g, code: string, opts: { name?: string; fallback?: string }) => {
      const { withEngine } = await import('../engine.js');
      const fallback = opts.fallback === undefined ? undefined : opts.fallback === 'none' ? null : opts.fallback;
      const data = await withEngine(g, io, (e) => e.run('locales.update', { code, name: opts.name, fallback }));
      printResult(io, g, data, (rows) => `Updated locale ${code}.\n${show(rows)}`);
    }));

  locales.command('remove')
    .description('remove a locale and every value written in it (not the default)')
    .argument('<code>', 'the locale code')
    .action(action(state, async (g, code: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('locales.remove', { code }));
      printResult(io, g, data, (rows) => `Removed locale ${code} and its values.\n${show(rows)}`);
    }));

  locales.command('set-default')
    .description('make a locale the default (reads without ?locale= answer it; required fields are checked in it)')
    .argument('<code>', 'the locale code')
    .action(action(state, async (g, code: string) => {
      const { withEngine } = await import('../engine.js');
      const data = await withEngine(g, io, (e) => e.run('locales.setDefault', { code }));
      printResult(io, g, data, (rows) => `${code} is now the default locale.\n${show(rows)}`);
    }));
}
