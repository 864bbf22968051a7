/**
 * CRC-32 (IEEE 802.3, polynomial 0xEDB88320, the one zlib uses), as PayPal uses it in the webhook
 * signature string `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(rawBody)}` (decimal).
 */
const TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** Unsigned CRC-32 of the bytes (strings are hashed as UTF-8). */
export function crc32(data: string | Uint8Array): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) {
    crc = (TABLE[(crc ^ (bytes[i] ?? 0)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
