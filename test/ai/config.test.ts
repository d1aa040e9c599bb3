import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

/** The `ai` settings: cms.config.json, the environment over it, and the key from the environment alone. */
describe('AI settings', () => {
  const dirs: string[] = [];
  const folder = (config?: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-ai-config-'));
    dirs.push(dir);
    if (config !== undefined) writeFileSync(join(dir, 'cms.config.json'), JSON.stringify(config));
    return dir;
  };
  afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  it('is off by default, with a 60 s timeout and 30 calls a minute', () => {
    expect(loadConfig({ cwd: folder(), env: {} }).ai).toEqual({
      provider: null, baseUrl: null, model: null, apiKey: null, timeoutMs: 60_000, rateLimit: 30, images: true, structuredOutputs: true,
    });
  });

  it('reads the file, and the environment wins over it', () => {
    const dir = folder({ ai: { provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1/', model: 'llama3.2', timeoutMs: 120000, rateLimit: 10, images: false } });
    expect(loadConfig({ cwd: dir, env: {} }).ai).toMatchObject({
      provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', model: 'llama3.2', apiKey: null, timeoutMs: 120_000, rateLimit: 10, images: false,
    });
    expect(loadConfig({ cwd: dir, env: { CMS_AI_PROVIDER: 'anthropic', CMS_AI_MODEL: 'claude-x', CMS_AI_API_KEY: 'sk-env', CMS_AI_BASE_URL: 'https://api.anthropic.com/v1', CMS_AI_TIMEOUT_MS: '5000' } }).ai)
      .toMatchObject({ provider: 'anthropic', model: 'claude-x', apiKey: 'sk-env', baseUrl: 'https://api.anthropic.com/v1', timeoutMs: 5000, rateLimit: 10 });
  });

  it('never takes the API key from the file, and says what is wrong with a setting', () => {
    expect(() => loadConfig({ cwd: folder({ ai: { apiKey: 'sk-in-file' } }), env: {} })).toThrow(/ai: Unrecognized key: "apiKey"/);
    expect(() => loadConfig({ cwd: folder(), env: { CMS_AI_PROVIDER: 'openai' } })).toThrow('CMS_AI_PROVIDER must be one of openai-compatible, anthropic, got openai');
    expect(() => loadConfig({ cwd: folder(), env: { CMS_AI_BASE_URL: 'localhost:11434' } })).toThrow('CMS_AI_BASE_URL must be an absolute URL');
    expect(() => loadConfig({ cwd: folder(), env: { CMS_AI_RATE_LIMIT: '0' } })).toThrow('CMS_AI_RATE_LIMIT must be a positive whole number, got 0');
  });
});
