import path from 'node:path';
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml, readBody, TOO_LARGE } from '../shared/http';
import { freePort } from '../shared/ports';
import { checkPostPolicy, type PostUpload } from './post-policy';

/* eslint-disable @typescript-eslint/no-require-imports */
const S3rver = require('s3rver');

export interface LocalS3 {
  endpoint: string;
  stop(): Promise<void>;
}

function corsXml(origins: string[]): string {
  const rules = origins
    .map(
      (o) => `<CORSRule><AllowedOrigin>${o}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>` +
        `<AllowedMethod>PUT</AllowedMethod><AllowedMethod>POST</AllowedMethod><AllowedHeader>*</AllowedHeader>` +
        `<ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule>`,
    )
    .join('');
  return `<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${rules}</CORSConfiguration>`;
}

/** The credentials the embedded stack signs with (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY in local/functions.ts). */
const LOCAL_KEYS: Record<string, string> = { S3RVER: 'S3RVER' };

/** Larger POST bodies are refused before parsing (our policies allow 5 MB; S3 itself stops at 5 GB). */
const MAX_POST_BYTES = 20 * 1024 * 1024;

function s3Error(res: ServerResponse, status: number, code: string, message: string, cors: Record<string, string>): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escapeHtml(message)}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body), ...cors });
  res.end(body);
}

/** A browser POST upload's form: fields in order, the file's size, and whether the file came last. */
async function readForm(body: Buffer, contentType: string): Promise<PostUpload | undefined> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return undefined;
  }
  const fields: Array<[string, string]> = [];
  let fileSize = -1;
  let fileLast = false;
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      fields.push([name, value]);
      fileLast = false;
    } else if (name === 'file') {
      fileSize = value.size;
      fileLast = true;
    }
  }
  return fileSize < 0 ? undefined : { fields, fileSize, fileLast };
}

/**
 * s3rver with the media bucket, CORS for the app's origins, files under dataDir, behind a front that enforces
 * what S3 enforces for presigned POST uploads (post-policy.ts): s3rver itself accepts any POST.
 */
export async function startS3(dataDir: string, port: number, bucket: string, origins: string[], log: (l: string) => void): Promise<LocalS3> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: await freePort(),
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [corsXml(origins)] }],
  });
  const inner = (await server.run()) as AddressInfo;

  const forward = (req: IncomingMessage, res: ServerResponse, body?: Buffer) => {
    const upstream = http.request({ host: '127.0.0.1', port: inner.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };

  const front = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://s3').pathname.replace(/\/+$/, '');
    const contentType = req.headers['content-type'] ?? '';
    if (req.method !== 'POST' || pathname !== `/${bucket}` || !contentType.startsWith('multipart/form-data')) return forward(req, res);
    void (async () => {
      const origin = req.headers.origin;
      const cors: Record<string, string> = origin && origins.includes(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
      const body = await readBody(req, MAX_POST_BYTES);
      if (body === TOO_LARGE) return s3Error(res, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', cors);
      const form = await readForm(body, contentType);
      if (!form) return s3Error(res, 400, 'MalformedPOSTRequest', 'The body of your POST request is not well-formed multipart/form-data.', cors);
      const verdict = checkPostPolicy(form, bucket, LOCAL_KEYS);
      if (!verdict.ok) return s3Error(res, verdict.status, verdict.code, verdict.message, cors);
      forward(req, res, body);
    })().catch(() => s3Error(res, 500, 'InternalError', 'We encountered an internal error. Please try again.', {}));
  });
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(port, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  log(`[s3] s3rver on ${endpoint} (presigned POST policies enforced), bucket ${bucket}, files in ${dir}`);
  return {
    endpoint,
    stop: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await server.close();
    },
  };
}
