import { createHash } from 'node:crypto';
import { isSlug } from '../../lib/slug.js';
import type { Actor } from '../../core/actor.js';
import { CmsError } from '../../core/errors.js';
import { storedFilenamePattern } from '../../core/media/file.js';
import type { StagedUpload } from '../../core/media/staged.js';
import { mediaFilesOf, type ByteRange, type MediaLocation, type MediaStore } from '../../core/media/storage.js';
import { uploadTempDir, uploadTooLarge } from '../../media/staging.js';
import { parseTransform, transformImage } from '../../media/transform.js';
import { responseOf } from '../cache.js';
import { answerIdempotentWrite } from '../idempotent-write.js';
import { matchesEtag } from '../preconditions.js';
import { readStagedForm, type StagedForm } from '../multipart.js';
import { json } from '../response.js';
import { bodyObject, bodyWithId, opRoute, pagedOpRoute, type RequestContext, type RouteDef } from '../route.js';
import { respond } from './read-route.js';

// Multipart framing and the other form fields, on top of the file itself.
const multipartSlack = 1024 * 1024;
// A bulk request may carry several files, each up to the limit, up to this many times it in all.
const bulkFactor = 4;
// A single upload reads its first "file"; a few more files in the form are read and ignored, as before.
const singleMaxFiles = 10;

// ---------------------------------------------------------------------------------------------
// Uploads (multipart, streamed: every file is spooled to <dataDir>/tmp/uploads as it arrives)

/**
 * The form of a multipart request, read as a stream: files are spooled to temporary files (never
 * held whole in memory) and refused with 413 as soon as one passes the limit.
 */
async function readForm(rc: RequestContext, maxBodyBytes: number, maxFiles: number): Promise<StagedForm> {
  const type = rc.headers.get('content-type') ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) {
    throw new CmsError('VALIDATION_FAILED', 'Send the file as multipart/form-data with a "file" field', [
      { path: '(body)', message: 'must be multipart/form-data' },
    ]);
  }
  const maxFileBytes = rc.cms.config.maxUploadBytes;
  const declared = Number(rc.headers.get('content-length') ?? '0');
  if (declared > maxBodyBytes + multipartSlack) throw uploadTooLarge(maxFileBytes);
  return readStagedForm(rc.req.body, type, {
    maxFileBytes,
    maxBodyBytes: maxBodyBytes + multipartSlack,
    maxFiles,
    dir: uploadTempDir(rc.cms.config.dataDir),
  });
}

const noFile = () => new CmsError('VALIDATION_FAILED', 'The form has no "file" field with a file', [{ path: 'file', message: 'required' }]);

function fileInput(file: { filename: string; staged: StagedUpload }, form: StagedForm, single: boolean) {
  const altText = form.text('altText', 'alt');
  const folder = form.text('folder');
  const filename = single ? form.text('filename') : undefined;
  return {
    data: file.staged,
    filename: filename || file.filename || 'upload',
    ...(altText ? { altText } : {}),
    ...(folder ? { folder } : {}),
  };
}

/** Method, path and every form entry (files by their SHA-256): a repeat must be this same request. */
function hashUpload(rc: RequestContext, form: StagedForm): string {
  const hash = createHash('sha256').update(`POST ${rc.url.pathname}${rc.url.search}\n`);
  for (const entry of form.entries) {
    hash.update(`${entry.name}=${entry.file ? `file:${entry.file.filename}:${entry.file.staged.sha256}` : entry.value}\n`);
  }
  return hash.digest('hex');
}

/** Runs `use` with the request's form, and removes its temporary files afterwards, whatever happened. */
async function withForm<T>(read: () => Promise<StagedForm>, use: (form: StagedForm) => Promise<T>): Promise<T> {
  const form = await read();
  try {
    return await use(form);
  } finally {
    await form.cleanup();
  }
}

/**
 * `POST /api/v1/media`: a secret key with media:write and, like every public write, an
 * Idempotency-Key; the first answer is stored with the upload and replayed to repeats.
 */
const publicUploadRoute: RouteDef = {
  method: 'POST',
  path: '/api/v1/media',
  auth: 'key',
  doc: { status: 201, form: { files: 'file' } },
  async handle(rc) {
    // The form is read inside the idempotent write (a replay reads none); its files are removed after.
    const read: { form: StagedForm | null } = { form: null };
    try {
      return await answerIdempotentWrite(rc, 'media.upload', 'media:write', async () => {
        const form = read.form = await readForm(rc, rc.cms.config.maxUploadBytes, singleMaxFiles);
        const [file] = form.files('file');
        if (!file) throw noFile();
        return { input: fileInput(file, form, true), requestHash: hashUpload(rc, form) };
      }, { status: 201, wrap: (r) => ({ data: r }) });
    } finally {
      await read.form?.cleanup();
    }
  },
};

const adminUploadRoute: RouteDef = {
  method: 'POST',
  path: '/api/v1/admin/media/upload',
  auth: 'session',
  doc: { status: 201, form: { files: 'file' } },
  async handle(rc) {
    await rc.cms.authorize('media.upload', { actor: rc.actor, project: rc.project });
    return withForm(() => readForm(rc, rc.cms.config.maxUploadBytes, singleMaxFiles), async (form) => {
      const [file] = form.files('file');
      if (!file) throw noFile();
      return json({ data: await rc.run('media.upload', fileInput(file, form, true)) }, 201);
    });
  },
};

const adminBulkUploadRoute: RouteDef = {
  method: 'POST',
  path: '/api/v1/admin/media/bulk-upload',
  auth: 'session',
  doc: { status: 201, form: { files: 'files', many: true } },
  async handle(rc) {
    await rc.cms.authorize('media.bulkUpload', { actor: rc.actor, project: rc.project });
    return withForm(() => readForm(rc, rc.cms.config.maxUploadBytes * bulkFactor, 100), async (form) => {
      const files = form.files('files', 'file');
      if (files.length === 0) {
        throw new CmsError('VALIDATION_FAILED', 'The form has no "files" fields with files', [{ path: 'files', message: 'required' }]);
      }
      return json({ data: await rc.run('media.bulkUpload', { files: files.map((f) => fileInput(f, form, false)) }) }, 201);
    });
  },
};

// ---------------------------------------------------------------------------------------------
// Files

/** A file to answer with: a stored original or a rendered transform, read through its store. */
interface FileSource {
  size: number;
  mimeType: string;
  etag: string;
  open(range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** Where the bytes are in the store (the original or a rendered variant). */
  location: MediaLocation;
}

const notFound = () => new CmsError('NOT_FOUND', 'File not found');

type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/** One `bytes=` range; several ranges or a malformed header are ignored (the whole file is sent). */
export function parseRange(header: string | null, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return { kind: 'full' };
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return { kind: 'full' };
  }
  if (start >= size || size === 0) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

function fileHeaders(source: FileSource): Headers {
  const h = new Headers({
    'content-type': source.mimeType.startsWith('text/') ? `${source.mimeType}; charset=utf-8` : source.mimeType,
    etag: source.etag,
    'cache-control': 'public, max-age=31536000, immutable',
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
  });
  // An SVG opened on its own is a document: no scripts, no requests of its own.
  if (source.mimeType === 'image/svg+xml') h.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  return h;
}

async function sendFile(req: Request, source: FileSource): Promise<Response> {
  const headers = fileHeaders(source);
  if (matchesEtag(req.headers.get('if-none-match'), source.etag)) return new Response(null, { status: 304, headers });
  const ifRange = req.headers.get('if-range');
  const range = ifRange && ifRange.trim() !== source.etag ? { kind: 'full' as const } : parseRange(req.headers.get('range'), source.size);
  if (range.kind === 'unsatisfiable') {
    headers.set('content-range', `bytes */${source.size}`);
    headers.set('content-type', 'application/json; charset=utf-8');
    // An error like any other: the API's JSON error shape.
    const error = { error: { code: 'BAD_REQUEST', message: `The Range header asks for bytes beyond the file's ${source.size} bytes` } };
    return new Response(JSON.stringify(error), { status: 416, headers });
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end : source.size - 1;
  headers.set('content-length', String(end - start + 1));
  if (range.kind === 'partial') headers.set('content-range', `bytes ${start}-${end}/${source.size}`);
  const status = range.kind === 'partial' ? 206 : 200;
  if (source.size === 0) return new Response(null, { status, headers });
  return new Response(await source.open({ start, end }), { status, headers });
}

/**
 * The redirect mode of S3 storage (`storage.redirect`): a conditional request still gets its 304
 * here, anything else a 302 to a signed URL of the bucket, valid for `seconds`, which the bucket
 * answers itself (Range included). The redirect may be cached for a fifth of that time, so a
 * cached one never points at an expired URL.
 */
async function redirectToStore(req: Request, source: FileSource, files: MediaStore, seconds: number): Promise<Response> {
  if (matchesEtag(req.headers.get('if-none-match'), source.etag)) return new Response(null, { status: 304, headers: fileHeaders(source) });
  const url = await files.signedUrl(source.location, { expiresInSeconds: seconds, contentType: source.mimeType });
  if (!url) return sendFile(req, source);
  return new Response(null, {
    status: 302,
    headers: { location: url, etag: source.etag, 'cache-control': `public, max-age=${Math.floor(seconds / 5)}`, 'x-content-type-options': 'nosniff' },
  });
}

const anonymous: Actor = { kind: 'anonymous' };

const serveFileRoute: RouteDef = {
  method: 'GET',
  path: '/api/v1/media/:project/:file',
  auth: 'none',
  async handle(rc) {
    const { project = '', file = '' } = rc.params;
    if (!isSlug(project) || !storedFilenamePattern.test(file)) throw notFound();
    const transform = parseTransform(rc.query);
    const info = await rc.cms.run('media.file', { filename: file }, { actor: anonymous, project });
    const files = mediaFilesOf(rc.cms);
    const stats = await files.stat(info.location);
    if (!stats) {
      rc.cms.log.warn('media file missing from the store', { project, file });
      throw notFound();
    }
    const source: FileSource = transform
      ? await transformImage(files, info, transform)
      : { size: stats.size, mimeType: info.mimeType, etag: `"${info.sha256}"`, open: (range) => files.open(info.location, range), location: info.location };
    const storage = rc.cms.config.storage;
    if (storage.driver === 's3' && storage.s3?.redirect) return redirectToStore(rc.req, source, files, storage.s3.redirectSeconds);
    return sendFile(rc.req, source);
  },
};

// ---------------------------------------------------------------------------------------------
// Metadata

const metadataRoute: RouteDef = {
  method: 'GET',
  path: '/api/v1/media/:id',
  auth: 'key',
  // Media has no draft state: a preview key (valid, unknown or revoked) is not looked at; the
  // API key rules apply as on every public read.
  ignorePreviewKeys: true,
  doc: { conditional: true },
  async handle(rc) {
    const actor = rc.keys.apiKey ?? anonymous;
    const data = await rc.cms.runRequest('media.get', { id: rc.params.id }, { actor });
    // As every public single read: an ETag, and 304 when If-None-Match matches it.
    return respond(rc, responseOf({ data }, false), true);
  },
};

const admin = '/api/v1/admin/media';

const listQuery = (rc: RequestContext) => {
  const q = rc.query;
  const input: Record<string, string> = {};
  for (const k of ['page', 'limit', 'folder', 'search', 'type']) {
    const v = q.get(k);
    if (v !== null) input[k] = v;
  }
  return input;
};

export const mediaRoutes: RouteDef[] = [
  publicUploadRoute,
  metadataRoute,
  serveFileRoute,
  adminUploadRoute,
  adminBulkUploadRoute,
  opRoute('GET', admin, 'session', 'media.list', listQuery, { wrap: (r) => r }),
  pagedOpRoute(`${admin}/folders`, 'session', 'media.folders', () => ({})),
  opRoute('PUT', `${admin}/folders/:name`, 'session', 'media.renameFolder', async (rc) => {
    const body = await bodyObject(rc);
    return { name: rc.params.name, to: body.name ?? body.to };
  }),
  opRoute('GET', `${admin}/:id`, 'session', 'media.get', (rc) => ({ id: rc.params.id })),
  opRoute('PUT', `${admin}/:id`, 'session', 'media.update', bodyWithId),
  opRoute('POST', `${admin}/:id/move`, 'session', 'media.move', async (rc) => {
    const body = await bodyObject(rc);
    return { id: rc.params.id, folder: body.folder ?? null };
  }),
  opRoute('DELETE', `${admin}/:id`, 'session', 'media.delete', (rc) => ({ id: rc.params.id, force: rc.query.get('force') === 'true' }),
    { wrap: (r) => ({ success: true, data: r }) }),
];
