import path from 'node:path';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';

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

/** s3rver with the media bucket, CORS for the app's origins, files under dataDir. */
export async function startS3(dataDir: string, port: number, bucket: string, origins: string[], log: (l: string) => void): Promise<LocalS3> {
  const dir = path.resolve(dataDir);
  fs.mkdirSync(dir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket, configs: [corsXml(origins)] }],
  });
  const addr = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${addr.port}`;
  log(`[s3] s3rver on ${endpoint}, bucket ${bucket}, files in ${dir}`);
  return { endpoint, stop: () => server.close() };
}
