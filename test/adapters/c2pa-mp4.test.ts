/**
 * A signed MP4 still plays: the C2PA manifest box goes in ahead of the media data, so the sample tables must point
 * past it. ffmpeg decodes the signed file to exactly the frames of the original (their MD5s), whether the original
 * keeps its `moov` before `mdat` (fast start) or after it; 64-bit offsets (`co64`, files past 4 GB) move the same way.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { makeLocalSigningCredential } from '../../lambdas/adapters/content-credentials-cert';
import { shiftChunkOffsets } from '../../lambdas/adapters/mp4-chunk-offsets';
import { localFfmpegPath } from '../../local/shared/ffmpeg-path';
import { signWith } from '../support/content-credentials';

jest.setTimeout(60_000);

const run = promisify(execFile);
const ffmpeg = localFfmpegPath();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'c2pa-mp4-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function clip(name: string, flags: string[]): Promise<Buffer> {
  const file = path.join(dir, name);
  await run(ffmpeg, ['-y', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=16', '-t', '3', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', ...flags, file]);
  return fs.readFileSync(file);
}

/** The MD5 of every decoded frame, and what ffmpeg complained about while decoding. */
async function frames(bytes: Buffer): Promise<{ md5s: string[]; errors: string }> {
  const file = path.join(dir, `decode-${Math.random().toString(36).slice(2)}.mp4`);
  fs.writeFileSync(file, bytes);
  const { stdout, stderr } = await run(ffmpeg, ['-v', 'error', '-i', file, '-f', 'framemd5', '-'], { maxBuffer: 16 * 1024 * 1024 });
  return { md5s: stdout.split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split(',').pop()!.trim()), errors: stderr };
}

const topLevel = (b: Buffer) => {
  const types: string[] = [];
  for (let at = 0; at < b.length; at += b.readUInt32BE(at)) types.push(b.toString('latin1', at + 4, at + 8));
  return types;
};

/** The adapter, signing as the functions do, with a certificate made as a dev stage's functions make theirs. */
async function sign(file: Buffer): Promise<Buffer> {
  return signWith(await makeLocalSigningCredential(), file, 'video/mp4', { model: 'wan-video/wan-2.1-i2v-480p', createdAt: '2026-11-26T00:00:00.000Z' });
}

const box = (type: string, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
};

describe('a signed MP4', () => {
  it.each([
    ['moov after mdat', []],
    ['moov first (fast start)', ['-movflags', '+faststart']],
  ])('decodes to the original frames: %s', async (_name, flags) => {
    const original = await clip(`${flags.join('')}.mp4`, flags as string[]);
    const signed = await sign(original);
    expect(topLevel(signed)).toContain('uuid');
    expect(signed.length).toBeGreaterThan(original.length);
    const [before, after] = [await frames(original), await frames(signed)];
    expect(before.md5s.length).toBe(48);
    expect(after.errors).toBe('');
    expect(after.md5s).toEqual(before.md5s);
  });

  it('moves 64-bit chunk offsets past the insertion, and leaves those before it', () => {
    const entries = Buffer.alloc(8 + 16);
    entries.writeUInt32BE(0, 0); // version and flags
    entries.writeUInt32BE(2, 4);
    entries.writeBigUInt64BE(10n, 8);
    entries.writeBigUInt64BE(5_000_000_000n, 16);
    const file = Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0')), box('moov', box('trak', box('mdia', box('minf', box('stbl', box('co64', entries))))))]);
    const moved = shiftChunkOffsets(file, 100, 4096);
    const at = moved.indexOf('co64') + 4 + 8;
    expect([moved.readBigUInt64BE(at), moved.readBigUInt64BE(at + 8)]).toEqual([10n, 5_000_004_096n]);
    expect(moved.length).toBe(file.length);
  });
});
