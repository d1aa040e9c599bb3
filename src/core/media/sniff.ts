/**
 * The type of an upload, read from its bytes (magic numbers), never from what the client says.
 * Anything not recognised is `application/octet-stream`; valid UTF-8 without control characters
 * is `text/plain` (HTML included, so an uploaded page is never served as HTML).
 */
export interface SniffedType {
  mimeType: string;
  /** The extension of the stored file name. */
  ext: string;
}

const octetStream: SniffedType = { mimeType: 'application/octet-stream', ext: 'bin' };

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number | null>, offset = 0): boolean => {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((b, i) => b === null || bytes[offset + i] === b);
};

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)));

// ISO base media files (mp4, mov, avif, heic) name their kind in the `ftyp` box.
function sniffFtyp(bytes: Uint8Array): SniffedType | null {
  if (bytes.length < 12 || ascii(bytes, 4, 8) !== 'ftyp') return null;
  const boxSize = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!;
  const brands = [ascii(bytes, 8, 12)];
  for (let at = 16; at + 4 <= Math.min(boxSize, bytes.length, 64); at += 4) brands.push(ascii(bytes, at, at + 4));
  if (brands.includes('avif') || brands.includes('avis')) return { mimeType: 'image/avif', ext: 'avif' };
  if (brands.some((b) => ['heic', 'heix', 'heim', 'heis', 'mif1', 'msf1'].includes(b))) return { mimeType: 'image/heic', ext: 'heic' };
  if (brands[0] === 'qt  ') return { mimeType: 'video/quicktime', ext: 'mov' };
  if (brands.some((b) => b.startsWith('M4A'))) return { mimeType: 'audio/mp4', ext: 'm4a' };
  return { mimeType: 'video/mp4', ext: 'mp4' };
}

// Matroska and WebM share the EBML header; the DocType element tells them apart.
function sniffEbml(bytes: Uint8Array): SniffedType | null {
  if (!startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  const head = ascii(bytes, 4, 64);
  if (head.includes('webm')) return { mimeType: 'video/webm', ext: 'webm' };
  return { mimeType: 'video/x-matroska', ext: 'mkv' };
}

function isMp3(bytes: Uint8Array): boolean {
  if (startsWith(bytes, [0x49, 0x44, 0x33])) return true; // ID3 tag
  // An MPEG audio frame: 11 sync bits, then layer III of MPEG 1, 2 or 2.5.
  return bytes.length >= 3 && bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0 && (bytes[1]! & 0x06) === 0x02 && (bytes[2]! & 0xf0) !== 0xf0;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeText(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return null;
  }
  // Tab, line feed, form feed and carriage return are text; other control characters are not.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text)) return null;
  return text;
}

/** An SVG document: optional XML declaration, comments and doctype, then the `<svg` root. */
function isSvg(text: string): boolean {
  let rest = text.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    if (rest.startsWith('<?xml')) {
      const end = rest.indexOf('?>');
      if (end < 0) return false;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) return false;
      rest = rest.slice(end + 3);
    } else if (/^<!doctype\s+svg/i.test(rest)) {
      const end = rest.indexOf('>');
      if (end < 0) return false;
      rest = rest.slice(end + 1);
    } else {
      return /^<svg[\s>/]/.test(rest);
    }
  }
}

/**
 * The type of `bytes`. For a file too large to hold, `bytes` is its start and `wholeIsText` says
 * whether all of it is text (measured while it streamed); an SVG is then recognised by its start.
 */
export function sniffMediaType(bytes: Uint8Array, wholeIsText?: boolean): SniffedType {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { mimeType: 'image/png', ext: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mimeType: 'image/jpeg', ext: 'jpg' };
  if (startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) {
    return { mimeType: 'image/gif', ext: 'gif' };
  }
  if (ascii(bytes, 0, 4) === 'RIFF' && bytes.length >= 12) {
    const kind = ascii(bytes, 8, 12);
    if (kind === 'WEBP') return { mimeType: 'image/webp', ext: 'webp' };
    if (kind === 'WAVE') return { mimeType: 'audio/wav', ext: 'wav' };
    if (kind === 'AVI ') return { mimeType: 'video/x-msvideo', ext: 'avi' };
  }
  const ftyp = sniffFtyp(bytes);
  if (ftyp) return ftyp;
  const ebml = sniffEbml(bytes);
  if (ebml) return ebml;
  if (ascii(bytes, 0, 5) === '%PDF-') return { mimeType: 'application/pdf', ext: 'pdf' };
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) return { mimeType: 'application/zip', ext: 'zip' };
  if (startsWith(bytes, [0x1f, 0x8b, 0x08])) return { mimeType: 'application/gzip', ext: 'gz' };
  if (ascii(bytes, 0, 4) === 'OggS') return { mimeType: 'audio/ogg', ext: 'ogg' };
  if (ascii(bytes, 0, 4) === 'fLaC') return { mimeType: 'audio/flac', ext: 'flac' };
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return { mimeType: 'image/tiff', ext: 'tif' };
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00]) && bytes.length >= 6 && bytes[4]! + bytes[5]! > 0) return { mimeType: 'image/x-icon', ext: 'ico' };
  if (ascii(bytes, 0, 2) === 'BM' && bytes.length >= 26 && bytes[6] === 0 && bytes[7] === 0 && bytes[8] === 0 && bytes[9] === 0) {
    return { mimeType: 'image/bmp', ext: 'bmp' };
  }
  if (ascii(bytes, 0, 4) === 'wOF2') return { mimeType: 'font/woff2', ext: 'woff2' };
  if (ascii(bytes, 0, 4) === 'wOFF') return { mimeType: 'font/woff', ext: 'woff' };
  if (isMp3(bytes)) return { mimeType: 'audio/mpeg', ext: 'mp3' };
  const text = wholeIsText === undefined ? decodeText(bytes) : wholeIsText ? new TextDecoder('utf-8').decode(bytes) : null;
  if (text !== null) {
    if (isSvg(text)) return { mimeType: 'image/svg+xml', ext: 'svg' };
    return { mimeType: 'text/plain', ext: 'txt' };
  }
  return octetStream;
}

/** Image types whose pixel size is recorded and which the transform endpoint can read. */
export const rasterImageTypes: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);

/** Types a probe is asked for width and height. */
export const measurableTypes: ReadonlySet<string> = new Set([...rasterImageTypes, 'image/svg+xml', 'image/tiff']);
