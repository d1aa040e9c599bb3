import { join } from 'node:path';
import type { CmsConfig, StorageConfig } from '../config.js';
import type { MediaFiles, MediaStore } from '../core/media/storage.js';
import { CmsError } from '../core/errors.js';
import { createDiskMediaFiles } from './files.js';

/** Where rendered transforms of the local store are kept (as before the S3 store existed). */
export const transformCacheDir = (dataDir: string): string => join(dataDir, 'cache', 'media');

/**
 * The store a storage configuration names: the data folder (`<dataDir>/media`, transforms under
 * `<dataDir>/cache/media`) or an S3-compatible bucket. The AWS SDK is loaded only for the second.
 */
export async function openMediaStore(config: Pick<CmsConfig, 'dataDir'> & { storage: StorageConfig }): Promise<MediaStore> {
  return openStoreOf(config, config.storage.driver);
}

/** The store of `driver` with this configuration's settings (the bucket's may be set while the local store is in use). */
export async function openStoreOf(config: Pick<CmsConfig, 'dataDir'> & { storage: StorageConfig }, driver: StorageConfig['driver']): Promise<MediaStore> {
  if (driver === 's3') {
    if (!config.storage.s3) throw new CmsError('VALIDATION_FAILED', 'S3 storage needs a bucket: set CMS_S3_BUCKET (and CMS_S3_REGION, CMS_S3_ENDPOINT ... as needed) or storage.bucket in cms.config.json');
    const { createS3MediaFiles } = await import('./s3.js');
    return createS3MediaFiles(config.storage.s3);
  }
  return createDiskMediaFiles(join(config.dataDir, 'media'), transformCacheDir(config.dataDir));
}

/**
 * A store handed in with only the media operations' methods (a test's wrapper of the disk store)
 * made whole: a write collects the bytes and puts them, listing finds nothing, it is always
 * reachable, and it has no signed URLs.
 */
export function completeMediaStore(files: MediaFiles | MediaStore): MediaStore {
  if ('write' in files && 'list' in files && 'check' in files) return files;
  return {
    description: 'a media store handed to createCms',
    put: (location, bytes) => files.put(location, bytes),
    open: (location, range) => files.open(location, range),
    stat: (location) => files.stat(location),
    remove: (location) => files.remove(location),
    probeImage: (bytes) => files.probeImage(bytes),
    async write(location, body) {
      if (body instanceof Uint8Array) return files.put(location, body);
      const chunks: Uint8Array[] = [];
      for await (const chunk of body) chunks.push(chunk);
      return files.put(location, Buffer.concat(chunks));
    },
    async *list() {},
    check: async () => {},
    signedUrl: async () => null,
  };
}
