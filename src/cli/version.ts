import { readFileSync } from 'node:fs';
import { packageFile } from '../lib/package-files.js';

/**
 * The package's version, from its package.json. A module of its own: bin/cms.mjs answers
 * `cms --version` with it before loading the rest of the CLI.
 */
export function cliVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(packageFile('package.json'), 'utf8'));
  return pkg && typeof pkg === 'object' && 'version' in pkg && typeof pkg.version === 'string' ? pkg.version : 'unknown';
}
