/**
 * A single `Range: bytes=...` request against a body of `size` bytes, as S3 and CloudFront answer it (Chromium
 * seeks video with ranges): undefined to send the whole body (no header, or a form we do not serve),
 * 'unsatisfiable' for a 416, or the inclusive span to send with a 206.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const range = /^bytes=(\d*)-(\d*)$/.exec(header ?? '');
  if (!range || !(range[1] || range[2])) return undefined;
  // bytes=a-b, bytes=a- (to the end) or bytes=-n (the last n bytes)
  const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
  const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
