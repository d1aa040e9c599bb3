import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The `storage` settings of cms.config.json and CMS_STORAGE / CMS_S3_*. */
describe('media storage configuration', () => {
  let dir: string;
  const withFile = (storage: unknown, env: NodeJS.ProcessEnv = {}) => {
    writeFileSync(join(dir, 'cms.config.json'), JSON.stringify({ storage }));
    return loadConfig({ cwd: dir, env });
  };

  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'cms-storage-config-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps media in the data folder by default', () => {
    expect(loadConfig({ cwd: dir, env: {} }).storage).toEqual({ driver: 'local', s3: null });
  });

  it('reads the bucket from the file', () => {
    const config = withFile({ driver: 's3', bucket: 'site-media', prefix: 'prod', region: 'eu-central-1', endpoint: 'https://minio.internal:9000', forcePathStyle: true, redirect: true });
    expect(config.storage).toEqual({
      driver: 's3',
      s3: { bucket: 'site-media', prefix: 'prod', region: 'eu-central-1', endpoint: 'https://minio.internal:9000', forcePathStyle: true, redirect: true, redirectSeconds: 300 },
    });
  });

  it('lets each CMS_S3_* variable win over the file, and CMS_STORAGE switch the driver', () => {
    const config = withFile({ driver: 'local', bucket: 'from-file', region: 'eu-west-1' }, {
      CMS_STORAGE: 's3', CMS_S3_BUCKET: 'from-env', CMS_S3_PREFIX: 'p', CMS_S3_ENDPOINT: 'http://127.0.0.1:9000',
      CMS_S3_FORCE_PATH_STYLE: 'true', CMS_S3_REDIRECT: 'false', CMS_S3_REDIRECT_SECONDS: '600',
    });
    expect(config.storage).toEqual({
      driver: 's3',
      s3: { bucket: 'from-env', prefix: 'p', region: 'eu-west-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, redirect: false, redirectSeconds: 600 },
    });
    // The bucket's settings without the switch: files stay in the data folder (migrate-storage copies into the bucket).
    expect(withFile({}, { CMS_S3_BUCKET: 'later', AWS_REGION: 'us-west-2' }).storage).toMatchObject({ driver: 'local', s3: { bucket: 'later', region: 'us-west-2' } });
  });

  it('refuses settings that cannot work, saying what to set', () => {
    expect(() => withFile({}, { CMS_STORAGE: 's3' })).toThrow(/S3 storage needs a bucket: set CMS_S3_BUCKET or storage.bucket/);
    expect(() => withFile({}, { CMS_STORAGE: 'gcs' })).toThrow(/CMS_STORAGE must be one of local, s3, got gcs/);
    expect(() => withFile({}, { CMS_S3_BUCKET: 'b-1', CMS_S3_ENDPOINT: 'minio:9000' })).toThrow(/CMS_S3_ENDPOINT must be an http\(s\) URL/);
    expect(() => withFile({}, { CMS_S3_BUCKET: 'b-1', CMS_S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/CMS_S3_FORCE_PATH_STYLE must be true or false/);
    expect(() => withFile({}, { CMS_S3_BUCKET: 'b-1', CMS_S3_REDIRECT_SECONDS: '5' })).toThrow(/CMS_S3_REDIRECT_SECONDS must be a number of seconds from 60 to 604800/);
    expect(() => withFile({ driver: 'ftp' })).toThrow(ConfigError);
    expect(() => withFile({ driver: 's3', bucket: 'ok-bucket', secretAccessKey: 'x' })).toThrow(/storage: Unrecognized key/);
  });
});
