import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, UsageError } from '../output.js';

export function registerInit(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('init')
    .description('create a project folder: cms.config.json, schemas/ with starter types, and the .cms/ data folder')
    .argument('[dir]', 'folder to create or fill', '.')
    .option('--yes', 'ask nothing; use the defaults')
    .option('--no-starter', 'leave schemas/ empty')
    .option('--locales <codes>', 'the content languages, comma-separated, the default first (like en,fr; default: en)')
    .action(action(state, async (g, dir: string, opts: { yes?: boolean; starter: boolean; locales?: string }) => {
      const { localeCodePattern } = await import('../../core/locales/model.js');
      const locales = opts.locales === undefined ? ['en'] : [...new Set(opts.locales.split(',').map((c) => c.trim()).filter(Boolean))];
      const badLocale = locales.find((c) => !localeCodePattern.test(c));
      if (!locales.length || badLocale !== undefined) {
        throw new UsageError(`--locales: ${badLocale === undefined ? 'name at least one locale' : `"${badLocale}" is not a locale code`} (codes like en, fr, pt-BR; the default first)`);
      }
      const { existsSync, mkdirSync, writeFileSync, cpSync, readFileSync } = await import('node:fs');
      const { join, resolve, relative } = await import('node:path');
      const { packageFile } = await import('../../lib/package-files.js');
      const target = resolve(io.cwd, dir);
      if (existsSync(join(target, 'cms.config.json'))) {
        throw new UsageError(`${relative(io.cwd, target) || '.'} already has a cms.config.json; edit it, or init another folder`);
      }
      let answers = { project: g.project ?? 'default', starter: opts.starter };
      if (!opts.yes && !g.json && io.stdinIsTTY && io.stdout.isTTY) {
        const { askInit } = await import('../prompts.js');
        const asked = await askInit(answers);
        if (!asked) throw new UsageError('Cancelled');
        answers = asked;
      }
      // The data folder as decisions §2 lays it out: the database in .cms/db, media files in .cms/media.
      mkdirSync(join(target, '.cms', 'media'), { recursive: true, mode: 0o700 });
      const config = { $schema: undefined, project: answers.project, dataDir: '.cms', schemasDir: 'schemas' };
      delete config.$schema;
      writeFileSync(join(target, 'cms.config.json'), JSON.stringify(config, null, 2) + '\n');
      const templates = packageFile('templates/schemas');
      mkdirSync(join(target, 'schemas'), { recursive: true });
      if (answers.starter) cpSync(templates, join(target, 'schemas'), { recursive: true });
      const { writeJsonSchema } = await import('../schema-files.js');
      await writeJsonSchema(join(target, 'schemas'));
      const gitignore = join(target, '.gitignore');
      if (!existsSync(gitignore)) writeFileSync(gitignore, '.cms/\n');
      else if (!readFileSync(gitignore, 'utf8').split('\n').includes('.cms/')) writeFileSync(gitignore, readFileSync(gitignore, 'utf8') + '\n.cms/\n');
      // Opening the engine once creates the database and the project, so the folder is ready.
      const { withEngine } = await import('../engine.js');
      await withEngine({ ...g, project: undefined, config: join(target, 'cms.config.json') }, { ...io, cwd: target }, async (e) => {
        // A new project has English alone; other languages are added, the first made the default.
        const [first] = locales as [string, ...string[]];
        for (const code of locales) if (code !== 'en') await e.run('locales.add', { code });
        if (first !== 'en') await e.run('locales.setDefault', { code: first });
        if (!locales.includes('en')) await e.run('locales.remove', { code: 'en' });
      });
      const data = {
        dir: target, project: answers.project, config: join(target, 'cms.config.json'), schemas: join(target, 'schemas'), dataDir: join(target, '.cms'),
        ...(opts.locales === undefined ? {} : { locales }),
      };
      printResult(io, g, data, () => {
        const rel = relative(io.cwd, target) || '.';
        return [`Created ${rel}/ with project "${answers.project}".`, 'Next:', ...(rel === '.' ? [] : [`  cd ${rel}`]),
          '  npx cms schema push', '  npx cms keys create --type public', '  npx cms serve'].join('\n');
      });
    }));
}
