import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The type-level tests (expectTypeOf in test/core/registry.test.ts and test/cli/jsonified.test.ts,
 * the typed import of 'cms' in test/local-api.test.ts) only fail under the compiler: this runs it
 * over src/ and test/ the way `npm run typecheck` does.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

describe('types', () => {
  it('src/ and test/ type-check (tsc --noEmit)', () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--noEmit', '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
    expect(result.status).toBe(0);
  }, 240_000);
});
