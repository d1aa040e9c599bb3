/**
 * What an `image` field accepts when its options name no `allowedMimeTypes`: every image type the
 * upload sniffing recognises (src/core/media/sniff.ts), and nothing else, so a text file or a PDF
 * cannot be set as an image. A `media` field without `allowedMimeTypes` takes any type.
 */
export const defaultImageMimeTypes: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'image/heic',
  'image/tiff',
  'image/bmp',
  'image/x-icon',
];
