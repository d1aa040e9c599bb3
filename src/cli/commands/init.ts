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
      if (dir.trim() === '') throw new UsageError('init needs a folder (leave it out for the current one)');
      const { existsSync, mkdirSync, writeFileSync, cpSync, readFileSync, readdirSync, rmSync, statSync } = await import('node:fs');
      const { join, resolve, relative } = await import('node:path');
      const { packageFile } = await import('../../lib/package-files.js');
      const target = resolve(io.cwd, dir);
      if (existsSync(target) && !statSync(target).isDirectory()) throw new UsageError(`${dir} is a file, not a folder`);
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
      const configFile = join(target, 'cms.config.json');
      writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n');
      const templates = packageFile('templates/schemas');
      const schemasDir = join(target, 'schemas');
      mkdirSync(schemasDir, { recursive: true });
      // A schema file already there is the user's: kept, never replaced by a starter one.
      const starterFiles = answers.starter
        ? readdirSync(templates, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(templates, f)).isFile())
        : [];
      const kept = starterFiles.filter((f) => existsSync(join(schemasDir, f)));
      const copied = starterFiles.filter((f) => !kept.includes(f));
      if (answers.starter) cpSync(templates, schemasDir, { recursive: true, force: false });
      const { writeJsonSchema } = await import('../schema-files.js');
      await writeJsonSchema(schemasDir);
      // Opening the engine once creates the database and the project, so the folder is ready. If
      // it cannot, what this run wrote goes again, so that `cms init` can be run once more.
      const { withEngine } = await import('../engine.js');
      try {
        await withEngine({ ...g, project: undefined, config: configFile }, { ...io, cwd: target }, async (e) => {
          // A new project has English alone; other languages are added, the first made the default.
          const [first] = locales as [string, ...string[]];
          for (const code of locales) if (code !== 'en') await e.run('locales.add', { code });
          if (first !== 'en') await e.run('locales.setDefault', { code: first });
          if (!locales.includes('en')) await e.run('locales.remove', { code: 'en' });
        });
      } catch (e) {
        rmSync(configFile, { force: true });
        for (const f of copied) rmSync(join(schemasDir, f), { force: true });
        throw e;
      }
      const gitignore = join(target, '.gitignore');
      if (!existsSync(gitignore)) writeFileSync(gitignore, '.cms/\n');
      else if (!readFileSync(gitignore, 'utf8').split('\n').includes('.cms/')) writeFileSync(gitignore, readFileSync(gitignore, 'utf8') + '\n.cms/\n');
      const data = {
        dir: target, project: answers.project, config: configFile, schemas: schemasDir, dataDir: join(target, '.cms'),
        ...(opts.locales === undefined ? {} : { locales }),
        ...(kept.length ? { keptSchemaFiles: kept } : {}),
      };
      printResult(io, g, data, () => {
        const rel = relative(io.cwd, target) || '.';
        return [`Created ${rel}/ with project "${answers.project}".`,
          ...(kept.length ? [`Kept your ${kept.map((f) => `schemas/${f}`).join(', ')} (not replaced by the starter's).`] : []), 'Next:', ...(rel === '.' ? [] : [`  cd ${rel}`]),
          '  npx cms schema push', '  npx cms keys create --type public', '  npx cms serve'].join('\n');
      });
    }));
}
