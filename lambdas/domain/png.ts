const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's size from its first 24 bytes (the signature and the IHDR chunk), or undefined when it is not a PNG. */
export function pngSize(start: Buffer): { width: number; height: number } | undefined {
  if (start.length < 24 || !start.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  return { width: start.readUInt32BE(16), height: start.readUInt32BE(20) };
}
