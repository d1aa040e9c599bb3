import type { Command } from 'commander';
import { ownOptions, type GlobalOptions } from '../io.js';
import { action, type ProgramState } from '../command-kit.js';
import type { Engine } from '../engine.js';
import { given } from '../inputs.js';
import { printList, printResult, table, UsageError } from '../output.js';
import { countOption } from '../choices.js';

const columns = ['id', 'originalFilename', 'mimeType', 'size', 'folder', 'createdAt'];

export function registerMedia(program: Command, state: ProgramState): void {
  const media = program.command('media').description('media files: upload, list, describe, move and delete');
  const { io } = state;
  const run = async <T>(g: GlobalOptions, fn: (e: Engine) => Promise<T>): Promise<T> => {
    const { withEngine } = await import('../engine.js');
    return withEngine(g, io, fn);
  };

  media.command('upload')
    .description('upload files; the type is read from the bytes, and the same bytes are stored once')
    .argument('<files...>', 'files to upload')
    .option('--alt <text>', 'alt text')
    .option('--folder <name>', 'folder to put the files in')
    .action(action(state, async (g, files: string[], opts: { alt?: string; folder?: string }) => {
      const { createReadStream } = await import('node:fs');
      const { readFile, stat } = await import('node:fs/promises');
      const { basename, resolve } = await import('node:path');
      const { withEngine } = await import('../engine.js');
      const { removeStaged, stageStream, uploadTempDir } = await import('../../media/staging.js');
      const data = await withEngine(g, io, async (e) => {
        const inputs = [];
        const staged: import('../../core/media/staged.js').StagedUpload[] = [];
        try {
          for (const file of files) {
            const path = resolve(io.cwd, file);
            const info = await stat(path).catch(() => null);
            if (!info?.isFile()) throw new UsageError(`${file} is not a file`);
            if (info.size > e.config.maxUploadBytes) {
              const { CmsError } = await import('../../core/errors.js');
              throw new CmsError('PAYLOAD_TOO_LARGE', `${file} is ${info.size} bytes; uploads are limited to ${e.config.maxUploadBytes} bytes (media.maxUploadBytes in cms.config.json)`);
            }
            let body;
            if (e.mode === 'local') {
              // Streamed to a temporary copy (hashed and measured on the way), never held whole.
              body = await stageStream(createReadStream(path), uploadTempDir(e.config.dataDir), e.config.maxUploadBytes);
              staged.push(body);
            } else {
              // Base64, so the input crosses to a running `cms serve` as JSON.
              body = (await readFile(path)).toString('base64');
            }
            inputs.push({
              data: body,
              filename: basename(path),
              ...(opts.alt ? { altText: opts.alt } : {}),
              ...(opts.folder ? { folder: opts.folder } : {}),
            });
          }
          const [only] = inputs;
          return only && inputs.length === 1 ? await e.run('media.upload', only) : await e.run('media.bulkUpload', { files: inputs });
        } finally {
          await removeStaged(staged);
        }
      });
      printResult(io, g, data, (d) =>
        (Array.isArray(d) ? d : [d]).map((m) => `Uploaded ${m.originalFilename} (${m.mimeType}, ${m.size} bytes) as ${m.id}\n  ${m.url}`).join('\n'));
    }));

  media.command('list')
    .description('list media, newest first')
    .option('--folder <name>', 'only this folder ("" for files in no folder)')
    .option('--search <text>', 'part of the file name')
    .option('--type <mime>', 'a MIME type (image/png) or its first part (image)')
    .addOption(countOption('--page <n>', 'page number', 1))
    .addOption(countOption('--limit <n>', 'page size (1-100)', 1))
    .action(action(state, async (g, opts: { folder?: string; search?: string; type?: string; page?: string; limit?: string }) => {
      const input = Object.fromEntries(Object.entries(ownOptions(opts)).filter(([, v]) => v !== undefined));
      const result = await run(g, (e) => e.runRequest('media.list', input));
      printList(io, g, result, columns, Object.keys(input).some((k) => k !== 'page' && k !== 'limit')
        ? 'No media match.' : 'No media yet. Upload a file: cms media upload photo.jpg');
    }));

  media.command('get')
    .description('show one media item')
    .argument('<id>')
    .action(action(state, async (g, id: string) => {
      const data = await run(g, (e) => e.run('media.get', { id }));
      printResult(io, g, data, (d) => JSON.stringify(d, null, 2));
    }));

  media.command('update')
    .description('change the alt text or the display file name (the stored file stays)')
    .argument('<id>')
    .option('--alt <text>', 'alt text ("" clears it)')
    .option('--filename <name>', 'the name shown for the file')
    .action(action(state, async (g, id: string, opts: { alt?: string; filename?: string }) => {
      if (opts.alt === undefined && opts.filename === undefined) throw new UsageError('Give --alt or --filename');
      const input = {
        id,
        ...(opts.alt !== undefined ? { altText: opts.alt === '' ? null : opts.alt } : {}),
        ...(opts.filename !== undefined ? { filename: opts.filename } : {}),
      };
      const data = await run(g, (e) => e.run('media.update', input));
      printResult(io, g, data, (d) => `Updated ${d.originalFilename} (${d.id}).`);
    }));

  media.command('move')
    .description('move a file into a folder, or out of every folder with --root')
    .argument('<id>')
    .option('--folder <name>', 'the folder')
    .option('--root', 'no folder')
    .action(action(state, async (g, id: string, opts: { folder?: string; root?: boolean }) => {
      if (!opts.folder === !opts.root) throw new UsageError('Give either --folder NAME or --root');
      const data = await run(g, (e) => e.run('media.move', { id, folder: opts.root ? null : given(opts.folder, '--folder') }));
      printResult(io, g, data, (d) => `Moved ${d.originalFilename} to ${d.folder ?? 'no folder'}.`);
    }));

  const folders = media.command('folders').description('media folders');
  folders.command('list')
    .description('folders and how many files each holds')
    .action(action(state, async (g) => {
      const data = await run(g, (e) => e.run('media.folders', {}));
      printResult(io, g, data, (rows) => table(io, rows, ['name', 'count'], 'No folders yet. Upload into one: cms media upload photo.jpg --folder photos'));
    }));
  folders.command('rename')
    .description('rename a folder; its files move with it')
    .argument('<name>', 'the folder now').argument('<to>', 'its new name')
    .action(action(state, async (g, name: string, to: string) => {
      const data = await run(g, (e) => e.run('media.renameFolder', { name, to }));
      printResult(io, g, data, (d) => `Renamed ${name} to ${d.name} (${d.moved} files).`);
    }));

  media.command('delete')
    .description('delete a media item (refused while content uses it, unless --force)')
    .argument('<id>')
    .option('--force', 'delete even if content references it')
    .action(action(state, async (g, id: string, opts: { force?: boolean }) => {
      const data = await run(g, (e) => e.run('media.delete', { id, force: !!opts.force }));
      printResult(io, g, data, (d) => `Deleted ${d.originalFilename} (${d.id}).`);
    }));

  media.command('migrate-storage')
    .description('copy every media file into the other store (s3 or local) and verify each by its SHA-256; run again to resume. Switches nothing: change storage in the config after')
    .requiredOption('--to <store>', 'the store to copy into: s3 or local')
    .action(action(state, async (g, opts: { to: string }) => {
      if (opts.to !== 's3' && opts.to !== 'local') throw new UsageError(`--to must be s3 or local, got ${opts.to}`);
      const to = opts.to;
      const data = await run(g, (e) => e.run('media.migrateStorage', { to }));
      printResult(io, g, data, (d) => [
        `Copied media files from ${d.from} to ${d.to}: ${d.files} files, ${d.copied} copied (${d.bytesCopied} bytes), ${d.skipped} already there and verified.`,
        ...d.missing.map((m) => `  missing from the source (a media row without its file): ${m.project}/${m.filename}`),
        ...d.failed.map((f) => `  FAILED ${f.project}/${f.filename}: ${f.reason}`),
        d.failed.length > 0
          ? `${d.failed.length} file(s) failed: run the command again to copy them (copied files are skipped).`
          : `Every file is in ${d.to} now. Switch the store in cms.config.json (storage.driver) or CMS_STORAGE, then restart the servers.`,
      ].join('\n'));
      if (data.failed.length > 0) state.exitCode = 1;
    }));

  media.command('orphans')
    .description('list stored files that no media item names (left by a failed commit or a deleted project); --delete removes them')
    .option('--delete', 'remove the files found')
    .action(action(state, async (g, opts: { delete?: boolean }) => {
      const data = await run(g, (e) => e.run('media.orphans', { delete: !!opts.delete }));
      printResult(io, g, data, (d) => [
        ...d.orphans.map((o) => `  ${o.project}/${o.filename} (${o.size} bytes)`),
        d.orphans.length === 0 ? `No orphan files in ${d.store}.`
          : opts.delete ? `Removed ${d.removed} of ${d.orphans.length} orphan file(s) from ${d.store}.`
            : `${d.orphans.length} orphan file(s) in ${d.store}; remove them with cms media orphans --delete.`,
      ].join('\n'));
    }));
}
