/**
 * Moves an MP4's media data references by the bytes inserted before it. A C2PA manifest goes into a `uuid` box right
 * after `ftyp`, ahead of `mdat`; the sample tables (`stco`, `co64`) hold absolute file offsets into `mdat`, so every
 * offset past the insertion must grow by the box's size or players read garbage (the file still validates: the hash
 * covers the boxes as written, not whether they make sense). c2pa-ts inserts the box without this; the CAI's own SDK
 * does it (c2pa-rs adjusts stco/co64). Written by hand: no maintained JavaScript library rewrites these tables in
 * place (mp4box.js re-muxes the whole file), and the walk is a few boxes deep.
 */

/** Boxes that only contain other boxes, on the way from the top level down to the chunk offset tables. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts', 'dinf', 'mvex', 'moof', 'traf']);

interface Box {
  type: string;
  start: number;
  headerSize: number;
  end: number;
}

function* boxes(data: Buffer, from: number, to: number): Generator<Box> {
  let at = from;
  while (at + 8 <= to) {
    let size = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    let headerSize = 8;
    if (size === 1) {
      size = Number(data.readBigUInt64BE(at + 8));
      headerSize = 16;
    } else if (size === 0) size = to - at;
    if (size < headerSize || at + size > to) throw new Error(`Malformed MP4: box ${type} at ${at} runs past its parent`);
    yield { type, start: at, headerSize, end: at + size };
    at += size;
  }
}

/**
 * A copy of `file` whose chunk offsets at or past `insertAt` are increased by `delta`: the offsets the file will need
 * once `delta` bytes are inserted at `insertAt`. Fragmented files (offsets relative to their `moof`) need nothing.
 */
export function shiftChunkOffsets(file: Buffer, insertAt: number, delta: number): Buffer {
  const data = Buffer.from(file);
  const walk = (from: number, to: number) => {
    for (const box of boxes(data, from, to)) {
      if (CONTAINERS.has(box.type)) walk(box.start + box.headerSize, box.end);
      else if (box.type === 'stco' || box.type === 'co64') {
        // FullBox: version and flags (4 bytes), then the entry count and the entries.
        const countAt = box.start + box.headerSize + 4;
        const count = data.readUInt32BE(countAt);
        const width = box.type === 'stco' ? 4 : 8;
        if (countAt + 4 + count * width > box.end) throw new Error(`Malformed MP4: ${box.type} holds fewer entries than it counts`);
        for (let i = 0; i < count; i++) {
          const at = countAt + 4 + i * width;
          if (width === 4) {
            const offset = data.readUInt32BE(at);
            if (offset < insertAt) continue;
            if (offset + delta > 0xffff_ffff) throw new Error('MP4 chunk offset past 4 GB after the manifest');
            data.writeUInt32BE(offset + delta, at);
          } else {
            const offset = data.readBigUInt64BE(at);
            if (offset >= BigInt(insertAt)) data.writeBigUInt64BE(offset + BigInt(delta), at);
          }
        }
      }
    }
  };
  walk(0, data.length);
  return data;
}

/** Where `after` differs from `before` by one inserted run of bytes: its offset (top-level boxes compared). */
export function insertionPoint(before: Buffer, after: Buffer): number {
  const a = [...boxes(before, 0, before.length)];
  const b = [...boxes(after, 0, after.length)];
  for (let i = 0; i < a.length; i++) {
    if (a[i]!.type !== b[i]?.type || a[i]!.end - a[i]!.start !== b[i]!.end - b[i]!.start) return b[i]?.start ?? before.length;
  }
  return before.length;
}
