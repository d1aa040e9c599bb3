import { deflateSync } from 'node:zlib';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveEntry, checksumOf, readArchiveEntries, writeArchive } from '../../src/cli/archive-file.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { createTestDatabase, testDriver } from '../helpers/db.js';

/** Generous: each CLI run starts Node and opens the database, and CI machines may be busy. */
const cliTimeout = 180_000;
const cleanEnv: NodeJS.ProcessEnv = { CMS_DATA_DIR: undefined, CMS_PROJECT: undefined, CMS_PASSWORD: undefined, CMS_BASE_URL: undefined, PORT: undefined, HOST: undefined };

/** A 1×1 PNG, built here so its bytes are known. */
function onePixelPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4); sum.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, sum]);
  };
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(1, 0); ihdr.writeUInt32BE(1, 4); ihdr[8] = 8; ihdr[9] = 2;
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from([0, 0xff, 0, 0]))), chunk('IEND', Buffer.alloc(0))]);
}

/** An archive's content as text by entry name, without the moment it was written. */
function contentOf(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, bytes] of readArchiveEntries(file)) {
    if (name === 'manifest.json') {
      const { exportedAt: _at, ...rest } = JSON.parse(bytes.toString('utf8'));
      out[name] = JSON.stringify(rest);
    } else out[name] = name.startsWith('media/') ? bytes.toString('base64') : bytes.toString('utf8');
  }
  return out;
}

/**
 * `cms export` and `cms import` (issue 18), the built CLI as a child process: a project made on
 * PGlite, exported, imported into this run's database (PostgreSQL with DATABASE_URL), exported
 * again; conflicts in a project that has content; damaged archives refused with nothing written.
 */
describe(`cms export and cms import (PGlite → ${testDriver})`, { timeout: cliTimeout }, () => {
  let root: string;
  const databases: Array<Awaited<ReturnType<typeof createTestDatabase>>> = [];
  const png = onePixelPng();
  /** The source project: always PGlite, in its own data folder. */
  const source = (args: string[]): Promise<CliResult> =>
    runCli(args, { cwd: join(root, 'source'), env: { ...cleanEnv, DATABASE_URL: undefined }, timeoutMs: cliTimeout });
  /** A project folder on a database of its own (this run's driver). */
  const target = async (name: string) => {
    const database = await createTestDatabase();
    databases.push(database);
    const env = { ...cleanEnv, DATABASE_URL: database.url };
    const init = await runCli(['init', name, '--yes'], { cwd: root, env, timeoutMs: cliTimeout });
    expect(init.code, init.stderr).toBe(0);
    return (args: string[]) => runCli(args, { cwd: join(root, name), env, timeoutMs: cliTimeout });
  };
  const ok = (r: CliResult) => { expect(r.code, r.stderr).toBe(0); return r; };
  let archiveA: string;
  let ids: { page: string; media: string; post: string };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cms-export-'));
    ok(await runCli(['init', 'source', '--yes'], { cwd: root, env: { ...cleanEnv, DATABASE_URL: undefined }, timeoutMs: cliTimeout }));
    const landing = join(root, 'source', 'schemas', 'page-types', 'landing-page.json');
    const def = JSON.parse(readFileSync(landing, 'utf8'));
    def.fields[0].localized = true;
    writeFileSync(landing, JSON.stringify(def, null, 2));
    ok(await source(['schema', 'push']));
    ok(await source(['locales', 'add', 'fr']));
    writeFileSync(join(root, 'source', 'dot.png'), png);
    const media = ok(await source(['media', 'upload', 'dot.png', '--alt', 'A dot', '--folder', 'pics', '--json'])).json().data;
    const page = ok(await source(['pages', 'create', '--type', 'landing-page', '--name', 'Home', '--slug', 'home', '--fields', JSON.stringify({ headline: 'Hello', heroImage: media.id }),
      '--seo', '{"metaTitle":"Home page"}', '--status', 'published', '--json'])).json().data;
    ok(await source(['pages', 'update', 'home', '--locale', 'fr', '--fields', '{"headline":"Bonjour"}', '--seo', '{"metaTitle":"Accueil"}']));
    ok(await source(['pages', 'update', 'home', '--slug', 'welcome']));
    ok(await source(['items', 'create', '--collection', 'products', '--name', 'Mug', '--slug', 'mug', '--fields', '{"sku":"MUG-1","price":9.5}', '--status', 'published']));
    ok(await source(['blog', 'authors', 'create', '--first-name', 'Ada', '--last-name', 'Lovelace', '--profile-image', media.id]));
    ok(await source(['blog', 'categories', 'create', '--name', 'News']));
    ok(await source(['blog', 'tags', 'create', '--name', 'Engines']));
    const post = ok(await source(['blog', 'posts', 'create', '--title', 'First post', '--body', '<p>Hi</p>', '--author', 'ada-lovelace', '--categories', 'news', '--tags', 'engines',
      '--featured-image', media.id, '--status', 'published', '--json'])).json().data;
    ok(await source(['webhooks', 'create', '--url', 'https://example.com/hook', '--events', 'page.published']));
    ids = { page: page.id, media: media.id, post: post.id };
    archiveA = join(root, 'a.cms.tar.gz');
    const exported = ok(await source(['export', '--out', archiveA, '--versions', '--json'])).json().data;
    expect(exported).toMatchObject({ path: archiveA, mediaFiles: 1, resources: { pages: 1, items: 1, 'blog-posts': 1, webhooks: 1, 'page-redirects': 1, 'page-types': 1, components: 2 } });
  }, 2 * cliTimeout);
  afterAll(async () => {
    for (const d of databases) await d.drop();
    rmSync(root, { recursive: true, force: true });
  });

  it('the archive is a tar.gz of a manifest, NDJSON per resource and the media bytes; webhook secrets stay out', () => {
    const entries = readArchiveEntries(archiveA);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    expect(manifest).toMatchObject({ format: 'cms-export', version: 1, project: { slug: 'default' }, versions: true });
    expect(JSON.parse(entries.get('project.json')!.toString('utf8'))).toEqual({
      defaultLocale: 'en', locales: [{ code: 'en', name: 'English', fallback: null }, { code: 'fr', name: 'French', fallback: null }],
    });
    const pageRows = entries.get('data/pages.ndjson')!.toString('utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(pageRows).toEqual([expect.objectContaining({
      id: ids.page, slug: 'welcome', draftContent: expect.objectContaining({ headline: 'Hello', heroImage: ids.media }),
      seo: { metaTitle: 'Home page' }, draftLocales: { fr: { headline: 'Bonjour' } }, seoLocales: { fr: { metaTitle: 'Accueil' } },
    })]);
    expect(entries.get('data/page-redirects.ndjson')!.toString('utf8')).toContain('"slug":"home"');
    const mediaFile = [...entries.keys()].find((n) => n.startsWith('media/'))!;
    expect(entries.get(mediaFile)!.equals(png)).toBe(true);
    const all = [...entries.values()].map((b) => b.toString('latin1')).join('\n');
    expect(all).not.toContain('whsec_');
    expect(entries.get('data/webhooks.ndjson')!.toString('utf8')).toContain('https://example.com/hook');
  });

  it('round trip: the archive imported into an empty project exports the same content, ids, media bytes and all', async () => {
    const dst = await target('copy');
    const report = ok(await dst(['import', archiveA, '--json'])).json().data;
    expect(report.conflicts).toEqual([]);
    expect(report.locales).toBe('replaced');
    expect(report.files).toEqual({ written: 1, present: 0 });
    expect(report.resources.pages).toEqual({ created: 1, unchanged: 0, overwritten: 0, conflicts: 0 });
    const archiveB = join(root, 'b.cms.tar.gz');
    ok(await dst(['export', '--out', archiveB, '--versions']));
    expect(contentOf(archiveB)).toEqual(contentOf(archiveA));

    // The copy answers like the original: the page in French, the post with its author and image.
    const page = ok(await dst(['pages', 'get', 'welcome', '--json'])).json().data;
    expect(JSON.stringify(page)).toContain('Bonjour');
    expect(page.id).toBe(ids.page);
    const media = ok(await dst(['media', 'get', ids.media, '--json'])).json().data;
    expect(media).toMatchObject({ altText: 'A dot', folder: 'pics', size: png.length });

    // Importing again changes nothing: every row is there with the same content.
    const again = ok(await dst(['import', archiveA, '--json'])).json().data;
    expect(again.conflicts).toEqual([]);
    expect(Object.values(again.resources).every((c: any) => c.created === 0 && c.overwritten === 0)).toBe(true);
    expect(again.files).toEqual({ written: 0, present: 1 });

    // Into a second project of the same database: every row's id is the first project's, so each
    // is a conflict, versions included (they belong to the first project's pages), none unchanged.
    ok(await dst(['projects', 'create', 'second']));
    const other = ok(await dst(['--project', 'second', 'import', archiveA, '--json'])).json().data;
    expect(other.resources['page-versions']).toMatchObject({ created: 0, unchanged: 0, conflicts: 1 });
    expect(other.conflicts).toContainEqual({ resource: 'page-versions', id: expect.any(String), reason: expect.stringMatching(/^refers to pages .* which was not imported$/) });
    expect(Object.values(other.resources).every((c: any) => c.unchanged === 0 && c.created === 0)).toBe(true);
  });

  it('into a project with content: differences and taken slugs are listed and skipped; --overwrite replaces rows of the same id', async () => {
    const dst = await target('busy');
    ok(await dst(['schema', 'push']));
    const first = ok(await dst(['import', archiveA, '--json'])).json().data;
    const reasons = first.conflicts.map((c: { resource: string; reason: string }) => `${c.resource}: ${c.reason}`);
    expect(reasons).toContainEqual(expect.stringMatching(/^page-types: slug "landing-page" is taken by [0-9a-f-]{36}$/));
    expect(reasons).toContainEqual(expect.stringMatching(/^pages: refers to page-types .* which was not imported$/));
    expect(first.resources['blog-posts']).toMatchObject({ created: 1, conflicts: 0 });
    const human = await dst(['import', archiveA]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/conflict\(s\) skipped/);
    expect(human.stdout).toContain('slug "landing-page" is taken by');

    // A row changed here after the import is a conflict; --overwrite puts the archive's back.
    ok(await dst(['blog', 'posts', 'update', 'first-post', '--title', 'Changed here']));
    const second = ok(await dst(['import', archiveA, '--json'])).json().data;
    expect(second.conflicts).toContainEqual({ resource: 'blog-posts', id: ids.post, reason: 'exists with different content' });
    expect(ok(await dst(['blog', 'posts', 'get', 'first-post', '--json'])).json().data.title).toBe('Changed here');
    const third = ok(await dst(['import', archiveA, '--overwrite', '--json'])).json().data;
    expect(third.resources['blog-posts']).toMatchObject({ overwritten: 1, conflicts: 0 });
    expect(ok(await dst(['blog', 'posts', 'get', 'first-post', '--json'])).json().data.title).toBe('First post');
  });

  it('--overwrite puts an entry back as one more change: its version goes on, never back', async () => {
    const dst = await target('rewind');
    ok(await dst(['import', archiveA]));
    const archived = ok(await dst(['pages', 'get', 'welcome', '--json'])).json().data;
    ok(await dst(['pages', 'update', 'welcome', '--fields', '{"headline":"Changed once"}']));
    const edited = ok(await dst(['pages', 'update', 'welcome', '--fields', '{"headline":"Changed twice"}', '--json'])).json().data;
    expect(edited.version).toBe(archived.version + 2);
    const report = ok(await dst(['import', archiveA, '--overwrite', '--json'])).json().data;
    expect(report.resources.pages).toMatchObject({ overwritten: 1, conflicts: 0 });
    const back = ok(await dst(['pages', 'get', 'welcome', '--json'])).json().data;
    expect(back.draftContent.headline).toBe('Hello');
    expect(back.version).toBe(edited.version + 1);
    // A client that read the archive's version, or the last edit's, is told the page moved on.
    for (const stale of [archived.version, edited.version]) {
      const r = await dst(['pages', 'update', 'welcome', '--version', String(stale), '--fields', '{"headline":"Stale"}']);
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('VERSION_CONFLICT')]);
    }
    // The same archive again: only the version differs, so the page is unchanged.
    const again = ok(await dst(['import', archiveA, '--json'])).json().data;
    expect(again.resources.pages).toMatchObject({ unchanged: 1, conflicts: 0 });
  });

  it('a damaged, foreign or newer archive is refused with INVALID_ARCHIVE (exit 1) and nothing is written', async () => {
    const dst = await target('empty');
    const bytes = readFileSync(archiveA);
    const truncated = join(root, 'truncated.tar.gz');
    writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const notGzip = join(root, 'not.tar.gz');
    writeFileSync(notGzip, 'hello');
    // A newer format, and a data file that no longer matches its checksum: well-formed tar.gz files.
    const entries = readArchiveEntries(archiveA);
    const manifest = JSON.parse(entries.get('manifest.json')!.toString('utf8'));
    const newer = join(root, 'newer.tar.gz');
    await writeArchive(newer, [...entries].map(([name, b]) => archiveEntry(name, name === 'manifest.json' ? JSON.stringify({ ...manifest, version: 99 }) : b)));
    const tampered = join(root, 'tampered.tar.gz');
    await writeArchive(tampered, [...entries].map(([name, b]) => archiveEntry(name, name === 'data/pages.ndjson' ? b.toString('utf8').replace('Hello', 'Hacked') : b)));
    for (const [file, message] of [[truncated, /damaged|not a cms export archive/], [notGzip, /not a cms export archive/], [newer, /version 99 archive; this cms reads version 1/], [tampered, /pages\.ndjson does not match its checksum/]] as const) {
      const r = await dst(['import', file, '--json']);
      expect(r.code, `${file}: ${r.stderr}`).toBe(1);
      const doc = r.json();
      expect(Object.keys(doc)).toEqual(['error']);
      expect(doc.error.code).toBe('INVALID_ARCHIVE');
      expect(doc.error.message).toMatch(message);
    }
    // A well-formed archive whose rows the database refuses: the media file written first is removed again.
    const badRows = join(root, 'bad-rows.tar.gz');
    const pagesText = entries.get('data/pages.ndjson')!.toString('utf8').replace('"name":"Home"', '"name":null');
    const badManifest = { ...manifest, resources: { ...manifest.resources, pages: { ...manifest.resources.pages, sha256: checksumOf(pagesText) } } };
    await writeArchive(badRows, [...entries].map(([name, b]) => archiveEntry(name,
      name === 'manifest.json' ? JSON.stringify(badManifest) : name === 'data/pages.ndjson' ? pagesText : b)));
    const failed = await dst(['import', badRows, '--json']);
    expect(failed.code).toBe(1);
    expect(failed.json().error).toMatchObject({ code: 'INVALID_ARCHIVE', message: expect.stringMatching(/refused a row of the archive.*nothing was imported/) });

    const after = ok(await dst(['export', '--out', join(root, 'empty.cms.tar.gz'), '--json'])).json().data;
    expect(Object.values(after.resources).every((n) => n === 0)).toBe(true);
    expect(after.mediaFiles).toBe(0);
    const mediaDir = join(root, 'empty', '.cms', 'media');
    const files = existsSync(mediaDir) ? readdirSync(mediaDir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()) : [];
    expect(files).toEqual([]);
  });
});
