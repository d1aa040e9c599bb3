import { createHash } from 'node:crypto';
import { CmsError } from '../core/errors.js';
import type { MediaFileInfo } from '../core/media/file.js';
import type { ByteRange, MediaFiles, MediaLocation, MediaStore } from '../core/media/storage.js';

export const maxTransformSide = 4096;
/** Larger sources are not decoded for transforms (a 10000 × 10000 image needs 400 MB). */
export const maxSourcePixels = 100_000_000;
export const transformFits = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
export const transformFormats = ['webp', 'avif', 'jpeg', 'png'] as const;
export type TransformFit = (typeof transformFits)[number];
export type TransformFormat = (typeof transformFormats)[number];

export interface TransformParams {
  w?: number;
  h?: number;
  fit: TransformFit;
  format?: TransformFormat;
  q?: number;
}

const transformKeys = ['w', 'h', 'fit', 'format', 'q'] as const;

const isFit = (value: string): value is TransformFit => transformFits.some((fit) => fit === value);
const isFormat = (value: string): value is TransformFormat => transformFormats.some((format) => format === value);

const invalid = (parameter: string, reason: string) =>
  new CmsError('INVALID_QUERY', `Invalid query parameter ${parameter}: ${reason}`, { parameter, reason });

function intParam(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  if (!/^\d{1,6}$/.test(value)) throw invalid(name, `must be a whole number from ${min} to ${max}`);
  const n = Number(value);
  if (n < min || n > max) throw invalid(name, `must be a whole number from ${min} to ${max}`);
  return n;
}

/** The transform a file URL asks for, or null for the original. Other query parameters are ignored. */
export function parseTransform(query: URLSearchParams): TransformParams | null {
  if (!transformKeys.some((k) => query.has(k))) return null;
  for (const k of transformKeys) {
    if (query.getAll(k).length > 1) throw invalid(k, 'may be given once');
  }
  const fit = query.get('fit') ?? 'cover';
  if (!isFit(fit)) throw invalid('fit', `must be one of ${transformFits.join(', ')}`);
  const format = query.get('format');
  if (format !== null && !isFormat(format)) {
    throw invalid('format', `must be one of ${transformFormats.join(', ')}`);
  }
  const params: TransformParams = { fit };
  const w = intParam(query, 'w', 1, maxTransformSide);
  const h = intParam(query, 'h', 1, maxTransformSide);
  const q = intParam(query, 'q', 1, 100);
  if (w !== undefined) params.w = w;
  if (h !== undefined) params.h = h;
  if (q !== undefined) params.q = q;
  if (format !== null) params.format = format;
  return params;
}

const outputFormats: Record<string, TransformFormat | 'gif'> = {
  'image/png': 'png', 'image/jpeg': 'jpeg', 'image/gif': 'gif', 'image/webp': 'webp', 'image/avif': 'avif',
};
const mimeOf: Record<TransformFormat | 'gif', string> = {
  png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', avif: 'image/avif',
};

interface ResizePlan {
  width?: number;
  height?: number;
  fit: TransformFit;
}

/**
 * The resize sharp is asked for, kept within 4096 px a side: sizes that only one side or the
 * image's own proportions fix (w alone, fit=outside, no size at all) are scaled down to fit.
 */
export function planResize(params: TransformParams, source: { width: number; height: number }): ResizePlan | null {
  const { w, h, fit } = params;
  const W = source.width;
  const H = source.height;
  if (w !== undefined && h !== undefined && fit !== 'outside') return { width: w, height: h, fit };
  let outW: number;
  let outH: number;
  if (w !== undefined && h !== undefined) {
    const s = Math.max(w / W, h / H);
    outW = W * s;
    outH = H * s;
  } else if (w !== undefined) {
    outW = w;
    outH = (H * w) / W;
  } else if (h !== undefined) {
    outH = h;
    outW = (W * h) / H;
  } else {
    outW = W;
    outH = H;
  }
  const k = Math.min(1, maxTransformSide / outW, maxTransformSide / outH);
  if (w === undefined && h === undefined && k === 1) return null;
  return { width: Math.max(1, Math.round(outW * k)), height: Math.max(1, Math.round(outH * k)), fit: 'fill' };
}

export interface TransformedFile {
  size: number;
  mimeType: string;
  etag: string;
  /** The rendered bytes (only `range` of them when given). */
  open(range?: ByteRange): Promise<ReadableStream<Uint8Array>>;
  /** The variant's place in the store. */
  location: MediaLocation;
}

/**
 * Renders a transform of a stored image (read from the media store) once and keeps it in the same
 * store, as a variant of the file; later requests for the same file and parameters, on this
 * instance or any other sharing the store, are served from there.
 */
export async function transformImage(files: MediaStore, info: MediaFileInfo, params: TransformParams): Promise<TransformedFile> {
  const sourceFormat = outputFormats[info.mimeType];
  if (!sourceFormat) throw invalid('format', `images of type ${info.mimeType} cannot be transformed (PNG, JPEG, GIF, WebP and AVIF can)`);
  if ((info.width ?? 0) * (info.height ?? 0) > maxSourcePixels) {
    const given = (['w', 'h', 'format', 'q', 'fit'] as const).find((k) => params[k] !== undefined) ?? 'w';
    throw invalid(given, `the image is ${info.width}×${info.height}; images over ${maxSourcePixels} pixels are served only as they are`);
  }
  const format = params.format ?? sourceFormat;
  const plan = planResize(params, { width: info.width ?? maxTransformSide, height: info.height ?? maxTransformSide });
  const key = [
    plan ? `${plan.width ?? ''}x${plan.height ?? ''}-${plan.fit}` : 'orig',
    params.q !== undefined ? `q${params.q}` : 'qd',
  ].join('-');
  const variant: MediaLocation = { ...info.location, variant: `${key}.${format}` };
  const etag = `"${info.sha256.slice(0, 32)}-${createHash('sha256').update(`${key}.${format}`).digest('hex').slice(0, 16)}"`;
  const open = (range?: ByteRange) => files.open(variant, range);
  const cached = await files.stat(variant);
  if (cached) return { size: cached.size, mimeType: mimeOf[format], etag, open, location: variant };
  // Requests for the same uncached result wait for one rendering instead of starting their own.
  const id = `${files.description}|${variant.project}/${variant.filename}/${variant.variant}`;
  let pending = rendering.get(id);
  if (!pending) {
    pending = render(files, info, params, plan, format, variant).finally(() => rendering.delete(id));
    rendering.set(id, pending);
  }
  return { size: await pending, mimeType: mimeOf[format], etag, open, location: variant };
}

/** The whole stored file, read through the store. */
async function readStored(files: MediaFiles, info: MediaFileInfo): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await files.open(info.location)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const rendering = new Map<string, Promise<number>>();

/** Renders and stores one transform; answers its size in bytes. */
async function render(files: MediaStore, info: MediaFileInfo, params: TransformParams, plan: ResizePlan | null, format: TransformFormat | 'gif', variant: MediaLocation): Promise<number> {
  const { default: sharp } = await import('sharp');
  let pipeline = sharp(await readStored(files, info), { limitInputPixels: maxSourcePixels }).rotate();
  if (plan) {
    pipeline = pipeline.resize({
      ...(plan.width !== undefined ? { width: plan.width } : {}),
      ...(plan.height !== undefined ? { height: plan.height } : {}),
      fit: plan.fit,
      background: { r: 0, g: 0, b: 0, alpha: 0 },
    });
  }
  const quality = params.q !== undefined ? { quality: params.q } : {};
  switch (format) {
    case 'jpeg': pipeline = pipeline.flatten({ background: '#ffffff' }).jpeg({ mozjpeg: true, ...quality }); break;
    case 'webp': pipeline = pipeline.webp(quality); break;
    case 'avif': pipeline = pipeline.avif(quality); break;
    case 'png': pipeline = pipeline.png(params.q !== undefined ? { quality: params.q, palette: params.q < 100 } : {}); break;
    case 'gif': pipeline = pipeline.gif(); break;
  }
  const output = await pipeline.toBuffer();
  await files.write(variant, output, { contentType: mimeOf[format] });
  return output.byteLength;
}
