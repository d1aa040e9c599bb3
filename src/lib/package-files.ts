import { fileURLToPath } from 'node:url';

/**
 * A file shipped with the package (package.json, db-migrations/, templates/, dist/admin/), by its
 * path from the package root. The one place that knows where the root is: this module sits two
 * folders below it (dist/lib/), as the CLI's bundle does (dist/cli-bundle/, scripts/build.mjs), so
 * the path is the same from either. test/architecture.test.ts checks that no other module finds
 * files relative to itself from another depth.
 */
export const packageFile = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
