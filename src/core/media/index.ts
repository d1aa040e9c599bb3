import { deleteMedia } from './delete.js';
import { mediaFile } from './file.js';
import { listMediaFolders, moveMedia, renameMediaFolder } from './folders.js';
import { getMedia } from './get.js';
import { listMedia } from './list.js';
import { migrateStorage } from './migrate-storage.js';
import { findOrphans } from './orphans.js';
import { updateMedia } from './update.js';
import { bulkUploadMedia, uploadMedia } from './upload.js';

export { loadMedia, toResolvedMedia, mediaFileUrl, type MediaRow, type ResolvedMedia } from './resolve.js';
export type { MediaFiles, MediaStore, MediaStores, MediaLocation, ImageSize } from './storage.js';
export type { MigrateStorageReport } from './migrate-storage.js';
export type { MediaView } from './view.js';
export type { MediaFileInfo } from './file.js';
export { findMediaReferrers, type MediaReferrer } from './references.js';

/** The media operations, by name; core/registry.ts merges them into the one table. */
export const mediaOperations = {
  'media.upload': uploadMedia,
  'media.bulkUpload': bulkUploadMedia,
  'media.get': getMedia,
  'media.list': listMedia,
  'media.update': updateMedia,
  'media.move': moveMedia,
  'media.folders': listMediaFolders,
  'media.renameFolder': renameMediaFolder,
  'media.delete': deleteMedia,
  'media.file': mediaFile,
  'media.migrateStorage': migrateStorage,
  'media.orphans': findOrphans,
} as const;
