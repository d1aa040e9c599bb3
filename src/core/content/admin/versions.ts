import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../../db/client.js';
import { itemVersions, pageVersions, type EntrySnapshot } from '../../../db/schema/index.js';
import { actorLabel } from '../../actor.js';
import { CmsError } from '../../errors.js';
import { defineOperation } from '../../operation.js';
import { findEntry, updateEntry } from '../entries.js';
import type { EntryKind } from '../store.js';
import { collectionInput, editorAccess, opPrefix, refSchema, replacementPatch, viewerAccess } from './shared.js';

export interface VersionView {
  version: number;
  createdAt: string;
  createdBy: string | null;
  status: string;
}

/** Both version tables have the same columns; one query serves either. */
const versionTable = (kind: EntryKind) => (kind === 'page'
  ? { t: pageVersions, owner: pageVersions.pageId }
  : { t: itemVersions as unknown as typeof pageVersions, owner: itemVersions.itemId as unknown as typeof pageVersions.pageId });

async function snapshotsOf(db: Db, kind: EntryKind, entryId: string) {
  const { t, owner } = versionTable(kind);
  return db.select({ version: t.version, status: t.status, createdAt: t.createdAt, createdBy: t.createdBy }).from(t)
    .where(eq(owner, entryId)).orderBy(desc(t.version), desc(t.createdAt));
}

/** The newest snapshot taken at a version (publish and unpublish may both snapshot one version). */
async function snapshotAt(db: Db, kind: EntryKind, entryId: string, version: number): Promise<EntrySnapshot | null> {
  const { t, owner } = versionTable(kind);
  const [row] = await db.select({ snapshot: t.snapshot }).from(t)
    .where(and(eq(owner, entryId), eq(t.version, version))).orderBy(desc(t.createdAt)).limit(1);
  return row?.snapshot ?? null;
}

/** The stored snapshots (publish, unpublish, restore), newest first. */
export function versionsOperation(kind: EntryKind) {
  return defineOperation({
    name: `${opPrefix(kind)}.versions`,
    input: z.strictObject({ ref: refSchema, collection: collectionInput }),
    access: viewerAccess,
    write: false,
    async run(ctx, input): Promise<VersionView[]> {
      const { row } = await findEntry(ctx, kind, input.ref, input.collection);
      return (await snapshotsOf(ctx.db, kind, row.id)).map((s) => ({
        version: s.version, createdAt: s.createdAt.toISOString(), createdBy: s.createdBy, status: s.status,
      }));
    },
  });
}

/**
 * Brings a snapshot's draft (name, slug, fields, SEO) back as a new version: the publication
 * state stays as it is. Emits *.updated with the reverted object and snapshots the result.
 */
export function restoreOperation(kind: EntryKind) {
  return defineOperation({
    name: `${opPrefix(kind)}.restore`,
    input: z.strictObject({
      ref: refSchema,
      collection: collectionInput,
      version: z.coerce.number().int().positive(),
    }),
    access: editorAccess,
    write: true,
    async run(ctx, input) {
      const { row, store } = await findEntry(ctx, kind, input.ref, input.collection, true);
      const snapshot = await snapshotAt(ctx.db, kind, row.id, input.version);
      if (!snapshot) {
        throw new CmsError('NOT_FOUND', `${store.label} ${row.id} has no stored version ${input.version}; list them with versions`);
      }
      const shape = await updateEntry(ctx, kind, {
        ref: { id: row.id },
        name: snapshot.name,
        slug: snapshot.slug,
        fields: replacementPatch(row.draftContent, snapshot.draftContent),
        ...(kind === 'page' ? { seo: replacementPatch(row.seo, snapshot.seo ?? {}) } : {}),
        expectedVersion: row.version,
      });
      const restored = await store.find(ctx.db, ctx.project.id, { id: row.id });
      await store.snapshot(ctx.db, restored!, actorLabel(ctx.actor), ctx.clock.now());
      return shape;
    },
  });
}
