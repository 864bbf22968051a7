/**
 * The embedded stack's S3 refuses presigned POST uploads the way S3 does (local/s3/post-policy.ts): every way
 * around the policy POST /api/uploads signs is refused, and nothing is stored; the genuine upload is kept.
 */
import { S3Client, HeadObjectCommand } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { api, createUser, stackEnv, type TestUser } from '../support/users';
import { json, pngOf } from '../support/generation';

interface Upload {
  url: string;
  fields: Record<string, string>;
  key: string;
}

const s3 = () =>
  new S3Client({
    region: 'us-east-1',
    endpoint: stackEnv().AWS_ENDPOINT_URL_S3,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });

async function stored(key: string): Promise<boolean> {
  try {
    await s3().send(new HeadObjectCommand({ Bucket: stackEnv().MEDIA_BUCKET, Key: key }));
    return true;
  } catch {
    return false;
  }
}

const newUpload = (user: TestUser, size: number) =>
  json<Upload>(api(user, '/api/uploads', { method: 'POST', body: JSON.stringify({ contentType: 'image/png', size }) }));

/** Posts the form S3 expects: the policy's fields (changed by `edit`), then the file last. */
async function post(up: Upload, file: Blob, edit: (fields: Array<[string, string]>) => Array<[string, string]> = (f) => f, fileLast = true) {
  const form = new FormData();
  const fields = edit(Object.entries(up.fields));
  if (!fileLast) form.append('file', file);
  for (const [k, v] of fields) form.append(k, v);
  if (fileLast) form.append('file', file);
  const res = await fetch(up.url, { method: 'POST', body: form });
  return { status: res.status, body: await res.text() };
}

const set = (name: string, value: string) => (fields: Array<[string, string]>) =>
  fields.map(([k, v]): [string, string] => [k, k.toLowerCase() === name.toLowerCase() ? value : v]);

let user: TestUser;
let png: Blob;
beforeAll(async () => {
  user = await createUser();
  png = new Blob([new Uint8Array(await pngOf(16, 16, [10, 20, 30]))], { type: 'image/png' });
});

test('the genuine upload is stored', async () => {
  const up = await newUpload(user, png.size);
  const r = await post(up, png);
  expect(r.status).toBeLessThan(300);
  expect(await stored(up.key)).toBe(true);
});

const violations: Array<[string, (up: Upload) => Promise<{ status: number; body: string }>, number, RegExp]> = [
  ['another key (someone else\u2019s folder)', (up) => post(up, png, set('key', up.key.replace(/users\/[^/]+\//, 'users/someone-else/'))), 403, /AccessDenied/],
  ['another key (outside users/)', (up) => post(up, png, set('key', 'index.html')), 403, /AccessDenied/],
  ['an HTML page', (up) => post(up, new Blob(['<script>alert(1)</script>'], { type: 'text/html' }), set('Content-Type', 'text/html')), 403, /AccessDenied/],
  ['an SVG', (up) => post(up, new Blob(['<svg xmlns="http://www.w3.org/2000/svg"/>'], { type: 'image/svg+xml' }), set('Content-Type', 'image/svg+xml')), 403, /AccessDenied/],
  ['over 5 MB', (up) => post(up, new Blob([new Uint8Array(5_242_881)], { type: 'image/png' })), 400, /EntityTooLarge/],
  ['an empty file', (up) => post(up, new Blob([], { type: 'image/png' })), 400, /EntityTooSmall/],
  ['a forged signature', (up) => post(up, png, set('X-Amz-Signature', '0'.repeat(64))), 403, /SignatureDoesNotMatch/],
  ['a policy of our own making', (up) => post(up, png, set('Policy', Buffer.from(JSON.stringify({ expiration: '2999-01-01T00:00:00Z', conditions: [{ bucket: stackEnv().MEDIA_BUCKET }, ['starts-with', '$key', '']] })).toString('base64'))), 403, /SignatureDoesNotMatch/],
  ['a field the policy does not name', (up) => post(up, png, (f) => [...f, ['acl', 'public-read']]), 403, /Extra input fields: acl/],
  ['the file before the fields', (up) => post(up, png, (f) => f, false), 400, /InvalidArgument/],
];

test.each(violations)('refuses %s, and stores nothing', async (_what, attempt, status, code) => {
  const up = await newUpload(user, png.size);
  const r = await attempt(up);
  expect(r.status).toBe(status);
  expect(r.body).toMatch(code);
  expect(await stored(up.key)).toBe(false);
  expect(await stored('index.html')).toBe(false);
});

test('refuses an upload whose policy has expired', async () => {
  const key = `users/${user.sub}/images/expired.png`;
  const up = await createPresignedPost(s3(), {
    Bucket: stackEnv().MEDIA_BUCKET!,
    Key: key,
    Conditions: [['content-length-range', 1, 5_242_880], ['eq', '$Content-Type', 'image/png']],
    Fields: { 'Content-Type': 'image/png' },
    Expires: 1,
  });
  await new Promise((r) => setTimeout(r, 1500));
  const r = await post({ ...up, key }, png);
  expect(r.status).toBe(403);
  expect(r.body).toMatch(/Policy expired/);
  expect(await stored(key)).toBe(false);
});
