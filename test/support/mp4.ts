/** A minimal MP4 (ISO BMFF) reader for tests: the brand, the movie's length and the video track's frame size. */
interface Box {
  type: string;
  start: number;
  header: number;
  size: number;
}

function readBoxes(buf: Buffer, start = 0, end = buf.length, prefix = ''): Box[] {
  const out: Box[] = [];
  let p = start;
  while (p + 8 <= end) {
    let size = buf.readUInt32BE(p);
    const type = prefix + buf.toString('latin1', p + 4, p + 8);
    let header = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(p + 8));
      header = 16;
    } else if (size === 0) size = end - p;
    if (size < header) break;
    out.push({ type, start: p, header, size });
    const name = type.slice(prefix.length);
    if (['moov', 'trak', 'mdia', 'minf', 'stbl'].includes(name)) out.push(...readBoxes(buf, p + header, p + size, `${type}/`));
    p += size;
  }
  return out;
}

export interface Mp4Info {
  /** The first box's type: 'ftyp' for any MP4. */
  first: string;
  brand: string;
  seconds: number;
  width: number;
  height: number;
  /** The sample entry names an H.264 stream. */
  h264: boolean;
}

export function mp4Info(buf: Buffer): Mp4Info {
  const boxes = readBoxes(buf);
  const mvhd = boxes.find((b) => b.type === 'moov/mvhd');
  const tkhd = boxes.find((b) => b.type === 'moov/trak/tkhd');
  const stsd = boxes.find((b) => b.type === 'moov/trak/mdia/minf/stbl/stsd');
  if (!mvhd || !tkhd) throw new Error('not an MP4: no mvhd/tkhd box');
  const d = mvhd.start + mvhd.header;
  const v1 = buf[d] === 1;
  const timescale = v1 ? buf.readUInt32BE(d + 20) : buf.readUInt32BE(d + 12);
  const duration = v1 ? Number(buf.readBigUInt64BE(d + 24)) : buf.readUInt32BE(d + 16);
  const te = tkhd.start + tkhd.size;
  return {
    first: boxes[0]?.type ?? '',
    brand: buf.toString('latin1', 8, 12),
    seconds: duration / timescale,
    width: buf.readUInt32BE(te - 8) / 65536,
    height: buf.readUInt32BE(te - 4) / 65536,
    h264: !!stsd && buf.subarray(stsd.start, stsd.start + stsd.size).includes(Buffer.from('avc1')),
  };
}
