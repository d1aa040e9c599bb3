import { ApiError } from '../api';

// The media routes of the admin API as the media library and the media field use them
// (docs/media-and-blog.md, "Admin"), and the checks made in the browser before an upload.

export interface Media {
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
  /** Only in upload answers: the project already held these bytes. */
  deduplicated?: true;
}

export interface MediaFolder { name: string; count: number }
export interface MediaReferrer { id: string; slug?: string; type: string }

/** Types the transform route renders (thumbnails); others are shown as they are or as a type label. */
const transformable = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

let webp: boolean | null = null;
function supportsWebp(): boolean {
  if (webp === null) {
    try {
      webp = document.createElement('canvas').toDataURL('image/webp').startsWith('data:image/webp');
    } catch {
      webp = false;
    }
  }
  return webp;
}

/**
 * The URL of a thumbnail of `width` pixels (square, cropped), same-origin (the admin's CSP allows
 * images from 'self' only, and `url` carries the configured base URL), WebP where the browser takes
 * it; `inside` keeps the whole picture (the detail view); null for files that are not images (the caller shows a type label).
 */
export function thumbnailUrl(project: string, m: Pick<Media, 'filename' | 'mimeType'>, width = 240, fit: 'cover' | 'inside' = 'cover'): string | null {
  const path = `/api/v1/media/${encodeURIComponent(project)}/${encodeURIComponent(m.filename)}`;
  if (transformable.has(m.mimeType)) return `${path}?w=${width}&h=${width}&fit=${fit}${supportsWebp() ? '&format=webp' : ''}`;
  if (m.mimeType.startsWith('image/')) return path;
  return null;
}

/** The original file, same-origin. */
export const fileUrl = (project: string, m: Pick<Media, 'filename'>) => `/api/v1/media/${encodeURIComponent(project)}/${encodeURIComponent(m.filename)}`;

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
}

/** A short label of a type: PNG, PDF, MP4… */
export function typeLabel(mimeType: string): string {
  const sub = mimeType.split('/')[1] ?? mimeType;
  const short: Record<string, string> = { 'svg+xml': 'SVG', 'x-icon': 'ICO', 'octet-stream': 'file', plain: 'TXT', quicktime: 'MOV', mpeg: 'MP3', 'x-matroska': 'MKV' };
  return short[sub] ?? sub.toUpperCase();
}

/** Whether a type matches one of the patterns (`image/png`, `image/*`, `*` / `*\/*`). Empty list: any. */
export function typeAllowed(mimeType: string, patterns: readonly string[] | undefined): boolean {
  if (!patterns || patterns.length === 0) return true;
  const type = mimeType.toLowerCase();
  return patterns.some((p) => {
    const pat = p.toLowerCase().trim();
    if (pat === '*' || pat === '*/*') return true;
    if (pat.endsWith('/*')) return type.startsWith(pat.slice(0, -1));
    return type === pat;
  });
}

/** What a field accepts: the field's allowedMimeTypes, or images only for an image field. */
export function acceptedTypes(kind: 'image' | 'media', allowedMimeTypes: string[] | undefined): string[] | undefined {
  if (allowedMimeTypes && allowedMimeTypes.length > 0) {
    // An image field takes only images, whatever else its list names.
    return kind === 'image' ? allowedMimeTypes.filter((t) => t.toLowerCase().startsWith('image/') || t === '*' || t === '*/*').map((t) => (t.startsWith('image/') ? t : 'image/*')) : allowedMimeTypes;
  }
  return kind === 'image' ? ['image/*'] : undefined;
}

/** The list route's `type` filter when the accepted types are one type or one family; else none. */
export function typeFilter(accept: string[] | undefined): string | undefined {
  if (!accept || accept.length !== 1) return undefined;
  const only = accept[0]!;
  if (only === '*' || only === '*/*') return undefined;
  return only.endsWith('/*') ? only.slice(0, -2) : only;
}

/** Why a file may not be used here, or null when it may. Checked before any upload. */
export function refusal(file: { name: string; type: string; size: number }, accept: string[] | undefined, maxFileSize: number | undefined): string | null {
  const type = file.type || 'an unknown type';
  if (accept && !typeAllowed(file.type, accept)) {
    return `${file.name} is ${type}; this field allows ${accept.join(', ')}.`;
  }
  if (maxFileSize !== undefined && file.size > maxFileSize) {
    return `${file.name} is ${formatSize(file.size)}; this field allows at most ${formatSize(maxFileSize)}.`;
  }
  return null;
}

/**
 * Uploads one file to POST /api/v1/admin/media/upload with XMLHttpRequest (fetch reports no upload
 * progress). The browser sends Origin, which satisfies the CSRF rule for multipart bodies.
 */
export function uploadFile(
  project: string,
  file: File,
  options: { folder?: string | null; onProgress?(fraction: number): void; signal?: AbortSignal } = {},
): Promise<Media> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/v1/admin/media/upload');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('x-project', project);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => { if (e.lengthComputable) options.onProgress?.(e.loaded / e.total); };
    xhr.onload = () => {
      let body: unknown = null;
      try { body = JSON.parse(xhr.responseText); } catch { body = null; }
      const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {}; // cast: a JSON object
      if (xhr.status >= 200 && xhr.status < 300 && typeof record.data === 'object' && record.data !== null) {
        options.onProgress?.(1);
        resolve(record.data as Media); // cast: the route's answer, { data: <media> }
        return;
      }
      const error = typeof record.error === 'object' && record.error !== null ? (record.error as Record<string, unknown>) : {}; // cast: the error body
      reject(new ApiError(xhr.status, typeof error.code === 'string' ? error.code : `HTTP_${xhr.status}`,
        typeof error.message === 'string' ? error.message : `The server answered ${xhr.status}`, error.details));
    };
    xhr.onerror = () => reject(new Error('The upload could not reach the server. Check your connection and try again.'));
    xhr.onabort = () => reject(new Error('The upload was cancelled.'));
    options.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    if (options.folder) form.append('folder', options.folder);
    xhr.send(form);
  });
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'PAYLOAD_TOO_LARGE') return `Too large: ${error.message}`;
    return error.message;
  }
  return error instanceof Error ? error.message : 'Something went wrong.';
}

export function referrersOf(error: unknown): MediaReferrer[] | null {
  if (!(error instanceof ApiError) || error.code !== 'HAS_REFERENCES') return null;
  const details = error.details;
  if (typeof details !== 'object' || details === null) return [];
  const list = (details as { referrers?: unknown }).referrers; // cast: HAS_REFERENCES details
  return Array.isArray(list) ? list.filter((r): r is MediaReferrer => typeof r === 'object' && r !== null && typeof (r as MediaReferrer).id === 'string') : [];
}
