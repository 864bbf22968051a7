/**
 * The local S3 answers a media GET as S3 does with the bucket's CORS rules: a request with the app's Origin gets
 * `Access-Control-Allow-Origin` and `Vary: Origin`, one without an Origin gets neither (so a browser must load media in
 * CORS mode for its cached copy to serve the zip's fetch), and an origin the rules do not list gets no grant.
 */
import { PutObjectCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { stackEnv, stackUrl } from '../support/users';

const s3 = new S3Client({
  region: 'us-east-1',
  endpoint: stackEnv().AWS_ENDPOINT_URL_S3,
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});

let url: string;
beforeAll(async () => {
  const key = `users/cors-test/images/${Date.now()}.png`;
  await s3.send(new PutObjectCommand({ Bucket: stackEnv().MEDIA_BUCKET, Key: key, Body: 'png bytes', ContentType: 'image/png' }));
  url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: stackEnv().MEDIA_BUCKET, Key: key }), { expiresIn: 60 });
});

const varyOf = (res: Response) => (res.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase()).filter(Boolean);

test("a GET with the app's Origin is granted to it and varies by Origin", async () => {
  const origin = new URL(stackUrl()).origin;
  const res = await fetch(url, { headers: { origin } });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe(origin);
  expect(varyOf(res)).toContain('origin');
  expect(await res.text()).toBe('png bytes');
});

test('a GET without an Origin carries no CORS grant and no Vary, as S3 answers it', async () => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
  expect(varyOf(res)).not.toContain('origin');
});

test('a GET from an origin the rules do not list gets no grant', async () => {
  const res = await fetch(url, { headers: { origin: 'https://elsewhere.example' } });
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
});
