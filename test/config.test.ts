import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, findConfigFile, loadConfig } from '../src/config.js';

describe('loadConfig', () => {
  let root: string;
  const write = (path: string, value: unknown) => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
    return path;
  };

  beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'cms-config-')); });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('works without any file: ./.cms, project default, port 3000 on 127.0.0.1', () => {
    const cwd = join(root, 'bare');
    mkdirSync(cwd);
    const config = loadConfig({ cwd, env: {} });
    expect(config).toMatchObject({
      rootDir: cwd,
      configFile: null,
      project: 'default',
      dataDir: join(cwd, '.cms'),
      schemasDir: join(cwd, 'schemas'),
      databaseUrl: undefined,
      port: 3000,
      host: '127.0.0.1',
      baseUrl: 'http://127.0.0.1:3000',
      baseUrlSet: false,
    });
  });

  it('finds the nearest cms.config.json above the working folder and resolves paths against it', () => {
    const project = join(root, 'walk');
    const file = write(join(project, 'cms.config.json'), { project: 'site', dataDir: 'var/data', schemasDir: 'defs', server: { port: 4000, host: '0.0.0.0' } });
    const cwd = join(project, 'a', 'b');
    mkdirSync(cwd, { recursive: true });
    expect(findConfigFile(cwd)).toBe(file);
    expect(loadConfig({ cwd, env: {} })).toMatchObject({
      rootDir: project,
      configFile: file,
      project: 'site',
      dataDir: join(project, 'var', 'data'),
      schemasDir: join(project, 'defs'),
      port: 4000,
      host: '0.0.0.0',
      baseUrl: 'http://localhost:4000',
    });
  });

  it('--config names the file, relative to the working folder', () => {
    const file = write(join(root, 'elsewhere', 'staging.json'), { project: 'staging' });
    const config = loadConfig({ cwd: root, configFile: 'elsewhere/staging.json', env: {} });
    expect(config).toMatchObject({ configFile: file, project: 'staging', dataDir: join(root, 'elsewhere', '.cms') });
  });

  it('the environment wins over the file', () => {
    const project = join(root, 'env');
    write(join(project, 'cms.config.json'), {
      project: 'site', dataDir: 'data', databaseUrl: 'postgres://file@db/site', baseUrl: 'https://file.example', server: { port: 4000, host: '127.0.0.1' },
    });
    const config = loadConfig({
      cwd: project,
      env: {
        DATABASE_URL: 'postgres://env@db/other', CMS_DATA_DIR: '/srv/cms', PORT: '8080', HOST: '0.0.0.0',
        CMS_BASE_URL: 'https://cms.example.com/', CMS_PROJECT: 'other',
      },
    });
    expect(config).toMatchObject({
      databaseUrl: 'postgres://env@db/other', dataDir: '/srv/cms', port: 8080, host: '0.0.0.0',
      baseUrl: 'https://cms.example.com', baseUrlSet: true, project: 'other',
    });
  });

  it('takes the database URL from the file when the environment has none', () => {
    const project = join(root, 'file-db');
    write(join(project, 'cms.config.json'), { databaseUrl: 'postgresql://u@h/d' });
    expect(loadConfig({ cwd: project, env: {} }).databaseUrl).toBe('postgresql://u@h/d');
  });

  it('resolves a relative CMS_DATA_DIR against the working folder, not the config file', () => {
    const project = join(root, 'rel');
    write(join(project, 'cms.config.json'), {});
    const cwd = join(project, 'sub');
    mkdirSync(cwd, { recursive: true });
    expect(loadConfig({ cwd, env: { CMS_DATA_DIR: 'local-data' } }).dataDir).toBe(join(cwd, 'local-data'));
  });

  it('command-line port and host win over the environment, and the base URL follows them', () => {
    const config = loadConfig({ cwd: root, env: { PORT: '8080', HOST: '0.0.0.0' }, port: 5000, host: '127.0.0.2' });
    expect(config).toMatchObject({ port: 5000, host: '127.0.0.2', baseUrl: 'http://127.0.0.2:5000', baseUrlSet: false });
  });

  it('--project wins over CMS_PROJECT and the file', () => {
    const project = join(root, 'proj');
    write(join(project, 'cms.config.json'), { project: 'site' });
    expect(loadConfig({ cwd: project, env: { CMS_PROJECT: 'env' }, project: 'flag' }).project).toBe('flag');
  });

  it('reads the server and media settings', () => {
    const project = join(root, 'settings');
    write(join(project, 'cms.config.json'), { server: { cache: false, corsOrigin: 'https://app.example', rateLimit: null }, media: { maxUploadBytes: 1024 } });
    expect(loadConfig({ cwd: project, env: {} })).toMatchObject({ cache: false, corsOrigin: 'https://app.example', rateLimit: null, maxUploadBytes: 1024 });
    expect(loadConfig({ cwd: project, env: { CMS_CACHE: 'on', CMS_RATE_LIMIT: '100/10', CMS_MAX_UPLOAD_BYTES: '2048' } }))
      .toMatchObject({ cache: true, rateLimit: { requests: 100, windowSeconds: 10 }, maxUploadBytes: 2048 });
    expect(loadConfig({ cwd: project, env: { CMS_RATE_LIMIT: 'off' } }).rateLimit).toBeNull();
  });

  it('reads the webhook policy and the shutdown grace period: private receivers allowed and 10 s by default', () => {
    const bare = join(root, 'bare-webhooks');
    mkdirSync(bare);
    expect(loadConfig({ cwd: bare, env: {} })).toMatchObject({ webhookBlockPrivate: false, shutdownGraceMs: 10_000 });
    const project = join(root, 'webhook-settings');
    write(join(project, 'cms.config.json'), { webhooks: { blockPrivate: true }, server: { shutdownGraceMs: 2500 } });
    expect(loadConfig({ cwd: project, env: {} })).toMatchObject({ webhookBlockPrivate: true, shutdownGraceMs: 2500 });
    expect(loadConfig({ cwd: project, env: { CMS_WEBHOOK_BLOCK_PRIVATE: 'false', CMS_SHUTDOWN_GRACE_MS: '0' } }))
      .toMatchObject({ webhookBlockPrivate: false, shutdownGraceMs: 0 });
    expect(loadConfig({ cwd: bare, env: { CMS_WEBHOOK_BLOCK_PRIVATE: 'TRUE' } }).webhookBlockPrivate).toBe(true);
  });

  it('reads the response cache size in megabytes: 64 by default, then the file, then CMS_CACHE_MB', () => {
    const bare = join(root, 'bare-cache');
    mkdirSync(bare);
    expect(loadConfig({ cwd: bare, env: {} }).cacheMaxBytes).toBe(64 * 1024 * 1024);
    const project = join(root, 'cache-size');
    write(join(project, 'cms.config.json'), { server: { cacheMegabytes: 8 } });
    expect(loadConfig({ cwd: project, env: {} }).cacheMaxBytes).toBe(8 * 1024 * 1024);
    expect(loadConfig({ cwd: project, env: { CMS_CACHE_MB: '0.5' } }).cacheMaxBytes).toBe(512 * 1024);
    expect(() => loadConfig({ cwd: project, env: { CMS_CACHE_MB: '0' } })).toThrow(/CMS_CACHE_MB must be a positive number of megabytes, got 0/);
    expect(() => loadConfig({ cwd: project, env: { CMS_CACHE_MB: 'lots' } })).toThrow(/CMS_CACHE_MB must be a positive number of megabytes, got lots/);
  });

  it('reads the PostgreSQL prepared statements setting: on by default, then the file, then CMS_PG_PREPARED_STATEMENTS', () => {
    const bare = join(root, 'bare-prepared');
    mkdirSync(bare);
    expect(loadConfig({ cwd: bare, env: {} }).preparedStatements).toBe(true);
    const project = join(root, 'prepared-off');
    write(join(project, 'cms.config.json'), { postgres: { preparedStatements: false } });
    expect(loadConfig({ cwd: project, env: {} }).preparedStatements).toBe(false);
    expect(loadConfig({ cwd: project, env: { CMS_PG_PREPARED_STATEMENTS: 'true' } }).preparedStatements).toBe(true);
    expect(() => loadConfig({ cwd: bare, env: { CMS_PG_PREPARED_STATEMENTS: 'maybe' } })).toThrow(/CMS_PG_PREPARED_STATEMENTS must be true or false, got maybe/);
  });

  it('reads the trusted proxy setting: unset means the client address is unknown', () => {
    const project = join(root, 'proxy');
    write(join(project, 'cms.config.json'), {});
    expect(loadConfig({ cwd: project, env: {} }).trustProxy).toBeNull();
    write(join(project, 'cms.config.json'), { server: { trustProxy: 2 } });
    expect(loadConfig({ cwd: project, env: {} }).trustProxy).toBe(2);
    expect(loadConfig({ cwd: project, env: { CMS_TRUST_PROXY: '0' } }).trustProxy).toBe(0);
    expect(loadConfig({ cwd: project, env: { CMS_TRUST_PROXY: 'false' } }).trustProxy).toBeNull();
    write(join(project, 'cms.config.json'), { server: { trustProxy: false } });
    expect(loadConfig({ cwd: project, env: {} }).trustProxy).toBeNull();
    expect(loadConfig({ cwd: project, env: { CMS_TRUST_PROXY: '1' } }).trustProxy).toBe(1);
    for (const bad of ['yes', '-1', '1.5', '11', 'true']) {
      expect(() => loadConfig({ cwd: project, env: { CMS_TRUST_PROXY: bad } })).toThrow(/CMS_TRUST_PROXY must be the number of proxies/);
    }
    write(join(project, 'cms.config.json'), { server: { trustProxy: true } });
    expect(() => loadConfig({ cwd: project, env: {} })).toThrow(/server\.trustProxy/);
  });

  describe('refuses with a ConfigError that says what is wrong', () => {
    const refuses = (options: Parameters<typeof loadConfig>[0], message: RegExp) => {
      expect(() => loadConfig(options)).toThrow(ConfigError);
      expect(() => loadConfig(options)).toThrow(message);
    };

    it('a --config file that does not exist', () => {
      refuses({ cwd: root, configFile: 'missing.json', env: {} }, /missing\.json does not exist/);
    });

    it('a file that is not JSON', () => {
      write(join(root, 'bad-json', 'cms.config.json'), '{ "project": ');
      refuses({ cwd: join(root, 'bad-json'), env: {} }, /cms\.config\.json is not valid JSON/);
    });

    it('unknown keys and wrong types, all named at once', () => {
      write(join(root, 'bad-shape', 'cms.config.json'), { project: 'Bad Slug', server: { port: 'eighty' }, colour: 'blue' });
      const cwd = join(root, 'bad-shape');
      refuses({ cwd, env: {} }, /is invalid: .*project: must be a slug/);
      refuses({ cwd, env: {} }, /server\.port: /);
      refuses({ cwd, env: {} }, /colour/);
    });

    it('a PORT that is not a port number', () => {
      refuses({ cwd: root, env: { PORT: 'http' } }, /PORT must be a port number/);
      refuses({ cwd: root, env: { PORT: '70000' } }, /PORT must be a port number/);
    });

    it('a project slug from the command line or the environment that is not a slug', () => {
      refuses({ cwd: root, env: {}, project: 'My Site' }, /--project must be a project slug/);
      refuses({ cwd: root, env: { CMS_PROJECT: 'a--b' } }, /CMS_PROJECT must be a project slug/);
    });

    it('a CMS_BASE_URL that is not a URL, a bad CMS_RATE_LIMIT or CMS_MAX_UPLOAD_BYTES', () => {
      refuses({ cwd: root, env: { CMS_BASE_URL: 'cms.example.com' } }, /CMS_BASE_URL must be an absolute URL/);
      refuses({ cwd: root, env: { CMS_RATE_LIMIT: 'lots' } }, /CMS_RATE_LIMIT must look like 600\/60/);
      refuses({ cwd: root, env: { CMS_MAX_UPLOAD_BYTES: 'big' } }, /CMS_MAX_UPLOAD_BYTES must be a positive number/);
    });

    it('a CMS_WEBHOOK_BLOCK_PRIVATE that is not true or false, a bad CMS_SHUTDOWN_GRACE_MS or webhooks member', () => {
      refuses({ cwd: root, env: { CMS_WEBHOOK_BLOCK_PRIVATE: 'on' } }, /CMS_WEBHOOK_BLOCK_PRIVATE must be true or false, got on/);
      refuses({ cwd: root, env: { CMS_SHUTDOWN_GRACE_MS: '10s' } }, /CMS_SHUTDOWN_GRACE_MS must be a number of milliseconds/);
      refuses({ cwd: root, env: { CMS_SHUTDOWN_GRACE_MS: '-1' } }, /CMS_SHUTDOWN_GRACE_MS must be a number of milliseconds/);
      write(join(root, 'bad-webhooks', 'cms.config.json'), { webhooks: { blockPrivate: 'yes', allowMetadata: true } });
      refuses({ cwd: join(root, 'bad-webhooks'), env: {} }, /webhooks\.blockPrivate: /);
      refuses({ cwd: join(root, 'bad-webhooks'), env: {} }, /allowMetadata/);
    });
  });
});
