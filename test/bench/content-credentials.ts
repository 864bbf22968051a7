/**
 * What content credentials cost at save time (adapters/c2pa-content-credentials.ts with the embedded stack's kind of
 * signer): time to sign and bytes added, for a 768x768 PNG (SDXL's size, noisy so it compresses like a picture), the
 * same PNG as an edit of a signed one (its parent's manifest carried along as an ingredient) and a 10 s 832x480 H.264
 * MP4 at 16 fps (a Wan long clip's shape). The median of BENCH_RUNS (default 9) signings after one
 * warm-up, and the cold first one. `npm run bench:credentials`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { c2paContentCredentials } from '../../lambdas/adapters/c2pa-content-credentials';
import type { CredentialedType, Provenance } from '../../lambdas/ports/content-credentials';
import { makeLocalSigningCredential } from '../../lambdas/adapters/content-credentials-cert';
import { localFfmpegPath } from '../../local/shared/ffmpeg-path';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const provenance: Provenance = { model: 'stability-ai/sdxl', version: '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc', createdAt: new Date().toISOString() };

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'fw-bench-c2pa-'));
  try {
    const noise = Buffer.alloc(768 * 768 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
    const png = await sharp(noise, { raw: { width: 768, height: 768, channels: 3 } }).blur(2).png().toBuffer();
    const mp4Path = path.join(dir, 'ten.mp4');
    execFileSync(localFfmpegPath(), ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=832x480:rate=16', '-t', '10', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', mp4Path]);
    const mp4 = readFileSync(mp4Path);

    const t0 = performance.now();
    const credentials = c2paContentCredentials(await makeLocalSigningCredential());
    const setupMs = performance.now() - t0;
    console.log(`signer made in ${setupMs.toFixed(1)} ms (key and certificate parsed)`);
    const parent = { source: { file: await credentials.sign(png, 'image/png', provenance), type: 'image/png' as const, title: 'source.png' }, change: 'c2pa.edited' as const };
    const cases: Array<[string, Buffer, CredentialedType, Provenance]> = [
      ['768x768 PNG', png, 'image/png', provenance],
      ['768x768 PNG, an edit of a signed one', png, 'image/png', { ...provenance, parent }],
      ['10 s 832x480 MP4', mp4, 'video/mp4', provenance],
    ];
    for (const [name, file, type, made] of cases) {
      const times: number[] = [];
      let signed = file;
      for (let i = 0; i <= RUNS; i++) {
        const t = performance.now();
        signed = await credentials.sign(file, type, made);
        times.push(performance.now() - t);
      }
      const [cold, ...warm] = times;
      warm.sort((a, b) => a - b);
      const median = warm[Math.floor(warm.length / 2)]!;
      const added = signed.length - file.length;
      console.log(`${name}: ${file.length} -> ${signed.length} bytes (+${added}, +${((added / file.length) * 100).toFixed(2)}%), sign ${median.toFixed(1)} ms median (first ${cold!.toFixed(1)} ms)`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
