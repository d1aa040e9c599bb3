import { fileURLToPath } from 'node:url';

/**
 * A file shipped with the package (package.json, templates/), by its path from the package root.
 * The CLI runs from a bundle (dist/cli-bundle/, scripts/build.mjs): a module that finds a file
 * relative to itself must sit two folders below the root, as this one does (dist/cli/) and as the
 * bundle does, so the path is the same from either (test/architecture.test.ts checks every such
 * module).
 */
export const packageFile = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
