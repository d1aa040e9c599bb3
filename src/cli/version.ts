import { readFileSync } from 'node:fs';

/**
 * The package's version, from its package.json. A module of its own: bin/cms.mjs answers
 * `cms --version` with it before loading the rest of the CLI.
 */
export function cliVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return pkg && typeof pkg === 'object' && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
