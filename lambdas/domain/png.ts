import zlib from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its first 24 bytes (the signature and the IHDR chunk), or undefined when it is not a PNG. */
export function pngSize(start: Buffer): { width: number; height: number } | undefined {
  if (start.length < 24 || !start.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  return { width: start.readUInt32BE(16), height: start.readUInt32BE(20) };
}

/** Samples per pixel of each PNG colour type (grey, RGB, palette, grey + alpha, RGBA). */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Bit depths each colour type may have. */
const DEPTHS: Readonly<Record<number, readonly number[]>> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
/** Adam7's passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The bytes the image data must inflate to: each scanline of each pass is a filter byte and its packed samples. */
function rawSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
  let total = 0;
  for (const [x0, y0, dx, dy] of passes) {
    const w = Math.ceil((width - x0) / dx);
    const h = Math.ceil((height - y0) / dy);
    if (w > 0 && h > 0) total += h * (1 + Math.ceil((w * bitsPerPixel) / 8));
  }
  return total;
}

/**
 * Checks a whole PNG as a decoder reads it: the signature, a valid IHDR first, every chunk's CRC, the image data
 * inflating to exactly the size IHDR declares with a valid filter byte on every scanline (non-interlaced), and IEND
 * last. Answers the size, or why the file is not a usable PNG. Written here rather than with a decoder package: the
 * common pure-JS one (pngjs 7) accepts image data that inflates to half its declared rows, and everything needed is
 * node:zlib (inflate, crc32); the pixels themselves are never needed, so none are unfiltered.
 */
export function checkPng(file: Buffer): { ok: true; width: number; height: number } | { ok: false; why: string } {
  const bad = (why: string) => ({ ok: false as const, why });
  if (file.length < 8 || !file.subarray(0, 8).equals(PNG_SIGNATURE)) return bad('not a PNG (no signature)');
  let at = 8;
  let header: { width: number; height: number; bitsPerPixel: number; interlaced: boolean } | undefined;
  const data: Buffer[] = [];
  let ended = false;
  while (at < file.length) {
    if (at + 12 > file.length) return bad(`truncated chunk at byte ${at}`);
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > file.length) return bad(`truncated ${type} chunk`);
    if ((zlib.crc32(file.subarray(at + 4, at + 8 + length)) >>> 0) !== file.readUInt32BE(end - 4)) return bad(`bad CRC in ${type} chunk`);
    const body = file.subarray(at + 8, at + 8 + length);
    if (!header && type !== 'IHDR') return bad('IHDR is not the first chunk');
    if (type === 'IHDR') {
      if (header || length !== 13) return bad('bad IHDR');
      const [width, height, depth, colour, compression, filter, interlace] = [body.readUInt32BE(0), body.readUInt32BE(4), body[8]!, body[9]!, body[10], body[11], body[12]!];
      if (!width || !height || !DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1) return bad('bad IHDR');
      header = { width, height, bitsPerPixel: depth * CHANNELS[colour]!, interlaced: interlace === 1 };
    } else if (type === 'IDAT') data.push(body);
    else if (type === 'IEND') {
      ended = true;
      at = end;
      break;
    }
    at = end;
  }
  if (!header || !ended) return bad('no IEND chunk (truncated)');
  if (at !== file.length) return bad('data after IEND');
  if (!data.length) return bad('no image data');
  const expected = rawSize(header.width, header.height, header.bitsPerPixel, header.interlaced);
  let raw: Buffer;
  try {
    // One byte more than declared: more data than the image holds is an error too.
    raw = zlib.inflateSync(Buffer.concat(data), { maxOutputLength: expected + 1 });
  } catch (err) {
    return bad(`image data does not inflate (${(err as Error).message})`);
  }
  if (raw.length !== expected) return bad(`image data is ${raw.length} bytes, ${expected} declared`);
  if (!header.interlaced) {
    const stride = 1 + Math.ceil((header.width * header.bitsPerPixel) / 8);
    for (let row = 0; row < raw.length; row += stride) if (raw[row]! > 4) return bad(`bad filter on row ${row / stride}`);
  }
  return { ok: true, width: header.width, height: header.height };
}
