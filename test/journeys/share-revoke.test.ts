/**
 * Stop sharing stops the file within SHARE_URL_SECONDS: /s/{token}/media hands out presigned URLs that live a minute
 * (its 302 kept by a browser half of that, by no shared cache), so a URL handed out before the revoke stops answering
 * once it expires, as S3 refuses it (403 AccessDenied "Request has expired"; the local S3 checks expiry as S3 does).
 */
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, s3Client } from '../../lambdas/adapters/aws-clients';
import { mediaRecord } from '../../lambdas/adapters/dynamodb-jobs';
import { MEDIA_URL_SECONDS } from '../../contract/media-links';
import { SHARE_URL_SECONDS } from '../../lambdas/app/show-share';
import { newId } from '../../lambdas/domain/ids';
import { json } from '../support/generation';
import { api, createUser, stackEnv } from '../support/users';

jest.setTimeout(180_000);

/** A user with one image in the gallery (its file in the bucket, its media item in the table). */
async function storedImage(prompt: string) {
  const user = await createUser();
  const at = new Date();
  const id = newId(at);
  const key = `users/${user.sub}/images/${at.getTime()}-${id.split('-')[1]}.png`;
  await s3Client().send(new PutObjectCommand({ Bucket: stackEnv().MEDIA_BUCKET!, Key: key, Body: Buffer.from(`file of ${id}`), ContentType: 'image/png' }));
  await dynamo().send(
    new PutCommand({
      TableName: stackEnv().TABLE_NAME!,
      Item: mediaRecord({ id, owner: user.sub, type: 'image', key, prompt, model: 'stability-ai/sdxl', options: { seed: 7 }, createdAt: at.toISOString() }),
    }),
  );
  return { user, id };
}

describe('Stop sharing stops the file', () => {
  it('the presigned URL handed out before the revoke stops answering within a minute', async () => {
    const { user, id } = await storedImage('a shared gull');
    const { url } = await json<{ url: string }>(api(user, `/api/media/${id}/share`, { method: 'POST', body: '{}' }));

    const media = await fetch(`${url}/media`, { redirect: 'manual' });
    expect(media.status).toBe(302);
    expect(media.headers.get('cache-control')).toBe('private, max-age=30');
    const signed = new URL(media.headers.get('location')!);
    expect(signed.searchParams.get('X-Amz-Expires')).toBe(String(SHARE_URL_SECONDS));
    expect(await (await fetch(signed)).text()).toBe(`file of ${id}`);

    expect((await api(user, `/api/media/${id}/share`, { method: 'DELETE' })).status).toBe(204);
    const revokedAt = Date.now();
    expect((await fetch(`${url}/media`, { redirect: 'manual' })).status).toBe(404);

    // The old URL lives out its minute, then S3 refuses it.
    let refused: Response | undefined;
    while (!refused && Date.now() - revokedAt < (SHARE_URL_SECONDS + 15) * 1000) {
      const res = await fetch(signed);
      if (res.status !== 200) refused = res;
      else await new Promise((r) => setTimeout(r, 2_000));
    }
    expect(refused?.status).toBe(403);
    const body = await refused!.text();
    expect(body).toContain('<Code>AccessDenied</Code>');
    expect(body).toContain('<Message>Request has expired</Message>');
    expect(Date.now() - revokedAt).toBeLessThanOrEqual((SHARE_URL_SECONDS + 5) * 1000);
  });

  it("hands the owner's gallery links that live a quarter of an hour", async () => {
    const { user, id } = await storedImage('a listed gull');
    const { items } = await json<{ items: Array<{ id: string; url: string; downloadUrl: string }> }>(api(user, '/api/media'));
    const item = items.find((i) => i.id === id)!;
    expect(MEDIA_URL_SECONDS).toBe(900);
    for (const u of [item.url, item.downloadUrl]) expect(new URL(u).searchParams.get('X-Amz-Expires')).toBe('900');
    expect(await (await fetch(item.url)).text()).toBe(`file of ${id}`);
  });
});
