/**
 * Broken outputs on demand: what a succeeded prediction's files look like when something between the model and the
 * download goes wrong (prompt markers [truncated], [garbage], [html]; [stall] is in routes.ts, being about the
 * connection rather than the bytes). The prediction itself still reports success with its usual output URLs.
 */
import { randomBytes } from 'node:crypto';
import type { OutputFile, SimMarker } from './types';

const GARBAGE_BYTES = 300 * 1024;

/** What a proxy in front of a file host answers with 200 when its upstream fails. */
const ERROR_PAGE = Buffer.from(
  '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n',
);

export function damaged(files: Map<string, OutputFile>, markers: ReadonlySet<SimMarker>): Map<string, OutputFile> {
  const out = new Map<string, OutputFile>();
  for (const [name, file] of files) {
    let f = file;
    // An MP4 is encoded with its index first (faststart): the first half holds the index and the early frames.
    if (markers.has('truncated')) f = { ...f, data: f.data.subarray(0, Math.floor(f.data.length / 2)) };
    if (markers.has('garbage')) f = { ...f, data: randomBytes(GARBAGE_BYTES) };
    if (markers.has('html')) f = { data: ERROR_PAGE, type: 'text/html; charset=utf-8' };
    out.set(name, f);
  }
  return out;
}
