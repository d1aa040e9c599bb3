export declare function crc32(data: Uint8Array): number;
export type Rgb = readonly [number, number, number];
/** 8-bit truecolour (colour type 2), no interlace, filter 0 on every row. */
export declare function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer;
