import { resolve } from 'node:path';
import type { Command } from 'commander';
import { action, type ProgramState } from '../command-kit.js';
import { printResult, refuseFolder } from '../output.js';

/** `cms export [--out FILE] [--versions]` and `cms import FILE [--overwrite]` (docs/export-import.md). */
export function registerTransfer(program: Command, state: ProgramState): void {
  const { io } = state;
  program.command('export')
    .description('write the whole project (schemas, content, blog, media files, webhooks, locales, redirects) to one .tar.gz archive')
    .option('--out <file>', 'the archive to write (default: <project>-<date>.cms.tar.gz here)')
    .option('--versions', 'also export the version history of pages and items')
    .action(action(state, async (g, opts: { out?: string; versions?: boolean }) => {
      // Told before the work: a folder is no file to write the archive to.
      if (opts.out !== undefined) refuseFolder(resolve(io.cwd, opts.out), opts.out);
      const { withEngine } = await import('../engine.js');
      const { archiveEntry, checksumOf, writeArchive } = await import('../archive-file.js');
      const { canonicalJson } = await import('../../lib/canonical-json.js');
      const { cliVersion } = await import('../version.js');
      const data = await withEngine(g, io, (e) => e.run('project.export', { versions: opts.versions === true }));
      const stamp = new Date().toISOString().replace(/[:.]/g, '-').slice(0, 19);
      const out = resolve(io.cwd, opts.out ?? `${data.project.slug}-${stamp}.cms.tar.gz`);
      const projectJson = `${canonicalJson({ locales: data.project.locales, defaultLocale: data.project.defaultLocale })}\n`;
      const dataFiles = Object.entries(data.resources).map(([name, rows]) => ({
        name, file: `data/${name}.ndjson`, count: rows.length, text: rows.map((r) => `${canonicalJson(r)}\n`).join(''),
      }));
      const manifest = {
        format: data.format,
        version: data.version,
        cmsVersion: cliVersion(),
        exportedAt: new Date().toISOString(),
        project: { slug: data.project.slug },
        versions: data.versions,
        projectFile: { file: 'project.json', sha256: checksumOf(projectJson) },
        resources: Object.fromEntries(dataFiles.map((d) => [d.name, { file: d.file, count: d.count, sha256: checksumOf(d.text) }])),
        media: { count: data.files.length, missing: data.missingFiles },
      };
      function* entries() {
        yield archiveEntry('manifest.json', `${JSON.stringify(manifest, null, 2)}\n`);
        yield archiveEntry('project.json', projectJson);
        for (const d of dataFiles) yield archiveEntry(d.file, d.text);
        for (const f of data.files) yield archiveEntry(`media/${f.filename}`, Buffer.from(f.data, 'base64'));
      }
      const bytes = await writeArchive(out, entries());
      const counts = Object.fromEntries(dataFiles.map((d) => [d.name, d.count]));
      printResult(io, g, { path: out, bytes, resources: counts, mediaFiles: data.files.length, missingMediaFiles: data.missingFiles }, (r) => [
        `Exported project ${data.project.slug} to ${r.path} (${r.bytes} bytes)`,
        ...Object.entries(r.resources).filter(([, n]) => n > 0).map(([name, n]) => `  ${name}: ${n}`),
        `  media files: ${r.mediaFiles}`,
        ...(r.missingMediaFiles.length ? [`warning: ${r.missingMediaFiles.length} media file(s) were missing from the store and are not in the archive`] : []),
      ].join('\n'));
    }));

  program.command('import')
    .description('load an archive of cms export into this project: new rows are added, rows with the same id and content are kept, differences are listed')
    .argument('<file>', 'the .tar.gz archive written by cms export')
    .option('--overwrite', 'replace rows whose id exists with different content (default: skip and list them)')
    .action(action(state, async (g, file: string, opts: { overwrite?: boolean }) => {
      const { readArchive } = await import('../archive-file.js');
      const { archiveVersion } = await import('../../core/projects/archive.js');
      // The archive is read and checked whole before the engine opens: a damaged one writes nothing.
      const archive = readArchive(resolve(io.cwd, file), archiveVersion);
      const { withEngine } = await import('../engine.js');
      const { CmsError } = await import('../../core/errors.js');
      const report = await withEngine(g, io, (e) => e.runRequest('project.import', {
        project: archive.project, resources: archive.resources, files: archive.files, overwrite: opts.overwrite === true,
      }).catch((err: unknown) => {
        // Through a running server an archive is one request, and requests have a size limit.
        if (e.mode === 'server' && err instanceof CmsError && err.code === 'PAYLOAD_TOO_LARGE') {
          throw new CmsError('PAYLOAD_TOO_LARGE', `${err.message}: the archive goes through the running cms serve, which takes requests up to that size; stop the server and run the import again (nothing was imported)`);
        }
        throw err;
      }));
      printResult(io, g, report, (r) => [
        `Imported ${file} (from project ${archive.manifest.project.slug}, exported ${archive.manifest.exportedAt})`,
        ...Object.entries(r.resources).filter(([, c]) => c.created + c.overwritten + c.conflicts + c.unchanged > 0)
          .map(([name, c]) => `  ${name}: ${c.created} created, ${c.unchanged} unchanged, ${c.overwritten} overwritten, ${c.conflicts} conflicts`),
        `  media files: ${r.files.written} written, ${r.files.present} already there`,
        `  locales: ${r.locales}`,
        ...(r.conflicts.length
          ? [`${r.conflicts.length} conflict(s) skipped${opts.overwrite ? '' : ' (--overwrite replaces the rows of the same id with different content; a slug taken by another id is always skipped)'}:`,
            ...r.conflicts.map((c) => `  ${c.resource} ${c.id}: ${c.reason}`)]
          : []),
        ...(r.locales === 'conflict' ? ['The archive\'s default locale differs from this project\'s: kept this project\'s (see docs/export-import.md).'] : []),
      ].join('\n'));
    }));
}
