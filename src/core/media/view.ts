import type { Ctx } from '../context.js';
import { mediaFileUrl, type MediaRow } from './resolve.js';

/** The media object of the admin and public APIs and of the media.uploaded event. */
export interface MediaView {
  id: string;
  filename: string;
  originalFilename: string;
  mimeType: string;
  size: number;
  width?: number;
  height?: number;
  altText?: string;
  folder: string | null;
  url: string;
  createdAt: string;
  updatedAt: string;
}

export function toMediaView(ctx: Pick<Ctx, 'settings' | 'project'>, row: MediaRow): MediaView {
  return {
    id: row.id,
    filename: row.filename,
    originalFilename: row.originalFilename,
    mimeType: row.mimeType,
    size: row.size,
    ...(row.width !== null ? { width: row.width } : {}),
    ...(row.height !== null ? { height: row.height } : {}),
    ...(row.altText !== null && row.altText !== '' ? { altText: row.altText } : {}),
    folder: row.folder,
    url: mediaFileUrl(ctx.settings.baseUrl, ctx.project.slug, row.filename),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
