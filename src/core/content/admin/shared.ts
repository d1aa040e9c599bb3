import { z } from 'zod';
import type { Access } from '../../operation.js';

/** Admin content work is for signed-in editors (and the terminal); keys never reach it. */
export const editorAccess: Access = { role: 'editor' };
export const viewerAccess: Access = { role: 'viewer' };

export const refSchema = z.union([z.strictObject({ id: z.string().min(1) }), z.strictObject({ slug: z.string().min(1).max(255) })]);
export type Ref = z.infer<typeof refSchema>;

/** Items may be narrowed to their collection type (the CLI's `--collection`); ids need none. */
export const collectionInput = z.string().min(1).optional();

export const fieldsInput = z.record(z.string(), z.unknown());

/** The locale a write is in (the project's default when absent); checked against the project's locales by the write. */
export const localeInput = z.string().optional();

/**
 * The patch that turns `current` into exactly `target` under the key-by-key merge of updates
 * (a key set to null is cleared).
 */
export function replacementPatch(current: Record<string, unknown>, target: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = { ...target };
  for (const key of Object.keys(current)) if (!Object.hasOwn(target, key)) patch[key] = null;
  return patch;
}
