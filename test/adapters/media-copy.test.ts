/**
 * s3MediaStore.copyFromUrl against the stack's s3rver: a provider's output is streamed into the bucket, the size
 * cap holds while streaming (a body without content-length cannot slip past it), and a deleted output is `gone`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { s3Client } from '../../lambdas/adapters/aws-clients';
import { COPY_STALL_MS, s3MediaStore } from '../../lambdas/adapters/s3-media-store';
import { stackEnv } from '../support/users';

const BIG = randomBytes(12 * 1024 * 1024 + 123);

describe('copying a provider output into S3', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/gone') return void res.writeHead(410).end();
      if (req.url === '/missing') return void res.writeHead(404).end();
      if (req.url === '/broken') return void res.writeHead(503).end();
      // Headers and 1 KB, then nothing on an open connection; or no headers at all.
      if (req.url === '/stall') return void res.writeHead(200, { 'content-length': String(BIG.length) }).write(BIG.subarray(0, 1024));
      if (req.url === '/silent') return;
      // Chunked: no content-length, so only the bytes themselves can tell the size.
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end(BIG);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );

  const store = () => s3MediaStore(s3Client(), stackEnv().MEDIA_BUCKET!);

  it('streams a 12 MB file (several parts) and stores it byte for byte', async () => {
    const key = `test/copy-${Date.now()}.mp4`;
    expect(await store().copyFromUrl(`${base}/big`, key, 'video/mp4', 50 * 1024 * 1024)).toEqual({ ok: true, bytes: BIG.length });
    const head = await store().head(key, 16);
    expect(head?.size).toBe(BIG.length);
    expect(head?.start.equals(BIG.subarray(0, 16))).toBe(true);
  });

  it('stops past the cap while streaming and keeps nothing', async () => {
    const key = `test/too-large-${Date.now()}.mp4`;
    expect(await store().copyFromUrl(`${base}/big`, key, 'video/mp4', 1024 * 1024)).toEqual({ ok: false, why: 'too-large' });
    expect(await store().head(key, 16)).toBeUndefined();
  });

  it('a deleted output (404, 410) is gone; a 503 throws so the caller retries', async () => {
    expect(await store().copyFromUrl(`${base}/gone`, 'test/x.mp4', 'video/mp4', 1024)).toEqual({ ok: false, why: 'gone' });
    expect(await store().copyFromUrl(`${base}/missing`, 'test/x.mp4', 'video/mp4', 1024)).toEqual({ ok: false, why: 'gone' });
    await expect(store().copyFromUrl(`${base}/broken`, 'test/x.mp4', 'video/mp4', 1024)).rejects.toThrow(/503/);
  });

  it.each(['/stall', '/silent'])('a download that stops making progress (%s) is given up after the stall limit, not the copy timeout, and keeps nothing', async (path) => {
    const key = `test/stalled-${Date.now()}.mp4`;
    const t0 = Date.now();
    // `stalled` is the stall timer's own answer (the copy's overall timeout would throw instead); elapsed time is only
    // checked from below (it did wait the limit), as a loaded machine can only make it longer.
    expect(await store().copyFromUrl(`${base}${path}`, key, 'video/mp4', 50 * 1024 * 1024)).toEqual({ ok: false, why: 'stalled' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(COPY_STALL_MS - 100);
    expect(await store().head(key, 16)).toBeUndefined();
  });
});
