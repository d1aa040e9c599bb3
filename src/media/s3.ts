import {
  DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, type ListObjectsV2CommandOutput, PutObjectCommand, S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { Readable } from 'node:stream';
import type { S3StorageConfig } from '../config.js';
import { storedFilenamePattern } from '../core/media/file.js';
import type { MediaLocation, MediaStore, StoredFileStat } from '../core/media/storage.js';
import { isSlug } from '../lib/slug.js';
import { byteLengthOf, checkLocation, nodeReadable, probeImage, putBody } from './files.js';

/** Parts of a multipart upload: S3's smallest, so a large upload holds at most a few of them in memory. */
const partSize = 5 * 1024 * 1024;
const statusOf = (e: unknown): number | undefined => (e instanceof S3ServiceException ? e.$metadata.httpStatusCode : undefined);
const isMissing = (e: unknown) => statusOf(e) === 404 || (e instanceof S3ServiceException && (e.name === 'NotFound' || e.name === 'NoSuchKey'));

/** `prefix` with one trailing slash (or empty): keys are `<prefix><project>/<file>`. */
export const normalPrefix = (prefix: string): string => (prefix === '' ? '' : `${prefix.replace(/^\/+|\/+$/g, '')}/`);

/**
 * Media files in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, ...), through the AWS SDK
 * v3. Originals at `<prefix><project>/<sha256>.<ext>`, rendered variants at
 * `<prefix>cache/<project>/<sha256>/<variant>` (`cache` is no project slug's folder: `cache/` keys
 * are never listed as originals because a project folder holds only content-addressed names).
 * Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
 * AWS_SESSION_TOKEN, AWS_PROFILE, instance roles).
 */
export function createS3MediaFiles(config: S3StorageConfig, client?: S3Client): MediaStore {
  const s3 = client ?? new S3Client({
    ...(config.region ? { region: config.region } : { region: 'us-east-1' }),
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible stores do not understand the
    // newer default (aws-chunked bodies with a CRC trailer).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = config.bucket;
  const prefix = normalPrefix(config.prefix);
  const keyOf = (location: MediaLocation): string => {
    checkLocation(location);
    if (location.variant === undefined) return `${prefix}${location.project}/${location.filename}`;
    return `${prefix}cache/${location.project}/${location.filename.slice(0, location.filename.indexOf('.'))}/${location.variant}`;
  };
  const fail = (what: string, e: unknown): Error =>
    new Error(`S3 storage (s3://${bucket}/${prefix}): ${what} failed: ${e instanceof Error ? e.message || e.name : String(e)}`, { cause: e });

  async function stat(location: MediaLocation): Promise<StoredFileStat | null> {
    try {
      const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(location) }));
      return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified ?? new Date(0) };
    } catch (e) {
      if (isMissing(e)) return null;
      throw fail(`stat of ${keyOf(location)}`, e);
    }
  }

  async function write(location: MediaLocation, body: Uint8Array | ReadableStream<Uint8Array>, opts?: { contentType?: string }): Promise<void> {
    const key = keyOf(location);
    try {
      if (body instanceof Uint8Array && body.byteLength <= partSize) {
        await s3.send(new PutObjectCommand({
          Bucket: bucket, Key: key, Body: body, ContentLength: body.byteLength, ...(opts?.contentType ? { ContentType: opts.contentType } : {}),
        }));
        return;
      }
      // Multipart: parts of 5 MB are sent as the stream is read; a failure aborts the upload, so
      // no part and no object is left behind.
      const upload = new Upload({
        client: s3,
        params: { Bucket: bucket, Key: key, Body: nodeReadable(body), ...(opts?.contentType ? { ContentType: opts.contentType } : {}) },
        partSize,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    } catch (e) {
      throw fail(`upload of ${key}`, e);
    }
  }

  return {
    description: `s3://${bucket}/${prefix}`,
    async put(location, bytes) {
      // Same name, same bytes: a complete object already there is the object we would write.
      if ((await stat(location))?.size === byteLengthOf(bytes)) return;
      await write(location, putBody(bytes));
    },
    write,
    async open(location, range) {
      const key = keyOf(location);
      let out;
      try {
        out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }));
      } catch (e) {
        throw fail(`read of ${key}`, e);
      }
      // In Node the body is a node:stream Readable.
      if (!(out.Body instanceof Readable)) throw fail(`read of ${key}`, new Error('no body'));
      return Readable.toWeb(out.Body);
    },
    stat,
    async remove(location) {
      const key = keyOf(location);
      try {
        await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
        if (location.variant === undefined) {
          // The file's rendered variants go with it.
          const variants = `${prefix}cache/${location.project}/${location.filename.slice(0, location.filename.indexOf('.'))}/`;
          for await (const object of listKeys(variants)) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.key }));
        }
      } catch (e) {
        if (isMissing(e)) return;
        throw fail(`delete of ${key}`, e);
      }
    },
    async *list(project) {
      for await (const object of listKeys(project !== undefined ? `${prefix}${project}/` : prefix)) {
        const rest = object.key.slice(prefix.length).split('/');
        // `<prefix>cache/...` keys are rendered variants: four parts, never two.
        if (rest.length !== 2) continue;
        const [slug = '', filename = ''] = rest;
        if (isSlug(slug) && storedFilenamePattern.test(filename)) yield { project: slug, filename, size: object.size };
      }
    },
    async check() {
      try {
        await s3.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (e) {
        const status = statusOf(e);
        throw new Error(status === 404 ? `the bucket ${bucket} does not exist`
          : status === 403 ? `no access to the bucket ${bucket} (check the AWS credentials)`
            : `the bucket ${bucket} cannot be reached: ${e instanceof Error ? e.message || e.name : String(e)}`);
      }
    },
    signedUrl: (location, opts) => getSignedUrl(s3, new GetObjectCommand({
      Bucket: bucket, Key: keyOf(location), ResponseContentType: opts.contentType,
    }), { expiresIn: opts.expiresInSeconds }),
    probeImage,
  };

  async function* listKeys(under: string): AsyncGenerator<{ key: string; size: number }> {
    let token: string | undefined;
    do {
      let page: ListObjectsV2CommandOutput;
      try {
        page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: under, ...(token ? { ContinuationToken: token } : {}) }));
      } catch (e) {
        throw fail(`listing of ${under}`, e);
      }
      for (const object of page.Contents ?? []) if (object.Key) yield { key: object.Key, size: object.Size ?? 0 };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
}
