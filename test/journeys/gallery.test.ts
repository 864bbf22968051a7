/**
 * The gallery's routes through the embedded stack: favourites and the list's filters, share links (owner only, the
 * public page with its Open Graph tags, 404 once revoked, deleted or unknown) and deleting an account.
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { Messages } from '../../contract/errors';
import { dynamo, s3Client } from '../../lambdas/adapters/aws-clients';
import { mediaRecord } from '../../lambdas/adapters/dynamodb-jobs';
import { newId } from '../../lambdas/domain/ids';
import { emailHash } from '../../lambdas/domain/email-hash';
import { json, waitForStatus } from '../support/generation';
import { bothWebhooksHandled, captureIdOf, decideAtPaypal, orderItem, refundAtPaypal, startPayment, visit, waitUntil } from '../support/payments';
import { api, codeIn, confirmSignUp, createUser, mailFor, signIn, signUp, stackEnv, stackUrl, type TestUser } from '../support/users';

const table = () => stackEnv().TABLE_NAME!;
const bucket = () => stackEnv().MEDIA_BUCKET!;

/** Stores a media item and its file as a finished job does. */
async function seedMedia(user: TestUser, o: { type?: 'image' | 'video'; model?: string; prompt?: string } = {}) {
  const type = o.type ?? 'image';
  const at = new Date(Date.now() - Math.floor(Math.random() * 100_000));
  const id = newId(at);
  const key = `users/${user.sub}/${type === 'image' ? 'images' : 'videos'}/${at.getTime()}-${id.split('-')[1]}.${type === 'image' ? 'png' : 'mp4'}`;
  await s3Client().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: Buffer.from('file of ' + id), ContentType: type === 'image' ? 'image/png' : 'video/mp4' }));
  const model = o.model ?? (type === 'image' ? 'stability-ai/sdxl' : 'wavespeedai/wan-2.1-t2v-480p');
  await dynamo().send(
    new PutCommand({
      TableName: table(),
      Item: mediaRecord({ id, owner: user.sub, type, key, prompt: o.prompt ?? `a ${type} ${id}`, model, options: { seed: 7 }, createdAt: at.toISOString() }),
    }),
  );
  return { id, key, at };
}

const send = (user: TestUser | undefined, method: string, p: string, body?: unknown) =>
  api(user, p, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

interface Listed {
  items: Array<{ id: string; favorite?: boolean; shareUrl?: string; model: string; type: string }>;
}

describe('favourites and the list filters', () => {
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [user, other] = await Promise.all([createUser(), createUser()]);
  });

  it('stars and unstars an item of the caller; the favourite filter lists only starred ones', async () => {
    const a = await seedMedia(user);
    const b = await seedMedia(user);
    const put = await send(user, 'PUT', `/api/media/${a.id}/favorite`);
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({ id: a.id, favorite: true });
    const starred = await json<Listed>(api(user, '/api/media?favorite=true'));
    expect(starred.items.map((i) => i.id)).toEqual([a.id]);
    expect(starred.items[0]!.favorite).toBe(true);
    const rest = await json<Listed>(api(user, '/api/media?favorite=false'));
    expect(rest.items.map((i) => i.id)).toContain(b.id);
    expect(rest.items.map((i) => i.id)).not.toContain(a.id);
    expect((await send(user, 'DELETE', `/api/media/${a.id}/favorite`)).status).toBe(200);
    expect((await json<Listed>(api(user, '/api/media?favorite=true'))).items).toEqual([]);
  });

  it("answers 404 for another user's item and an unknown one, and changes nothing", async () => {
    const mine = await seedMedia(user);
    const res = await send(other, 'PUT', `/api/media/${mine.id}/favorite`);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe(Messages.mediaNotFound);
    expect((await send(user, 'PUT', `/api/media/${newId(new Date())}/favorite`)).status).toBe(404);
    const listed = await json<Listed>(api(user, '/api/media?limit=100'));
    expect(listed.items.find((i) => i.id === mine.id)?.favorite).toBe(false);
  });

  it('filters by model family and type, and refuses unknown values with a clear 400', async () => {
    const video = await seedMedia(user, { type: 'video', model: 'pixverse/pixverse-v4.5' });
    const wan = await json<Listed>(api(user, '/api/media?model=pixverse'));
    expect(wan.items.map((i) => i.id)).toEqual([video.id]);
    expect((await json<Listed>(api(user, '/api/media?model=pixverse&type=image'))).items).toEqual([]);
    const bad = await api(user, '/api/media?model=dall-e');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/^model must be one of sdxl, /);
    const badFav = await api(user, '/api/media?favorite=yes');
    expect(badFav.status).toBe(400);
    expect((await badFav.json()).error).toBe(Messages.invalidFavoriteFilter);
  });
});

describe('share links', () => {
  let user: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    [user, other] = await Promise.all([createUser(), createUser()]);
  });

  it('makes a public, unguessable link whose page has Open Graph tags and no prompt unless chosen', async () => {
    const item = await seedMedia(user, { prompt: 'a secret <lighthouse> at dusk' });
    const res = await send(user, 'POST', `/api/media/${item.id}/share`, {});
    expect(res.status).toBe(200);
    const { url, showPrompt } = await json<{ url: string; showPrompt: boolean }>(res);
    expect(showPrompt).toBe(false);
    expect(url).toMatch(new RegExp(`^${stackUrl()}/s/[A-Za-z0-9_-]{22}$`));
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(`<meta property="og:image" content="${url}/media">`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image">');
    expect(html).not.toContain('lighthouse');
    // Said where people look: visibly on the page and in what a link preview shows.
    const label = `AI-generated with SDXL on ${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(item.at)}`;
    expect(html).toContain(`<p data-testid="ai-label">${label}</p>`);
    expect(html).toContain(`<meta property="og:description" content="${label}. Shared from Framewright.">`);
    expect(html).toContain(`<meta name="description" content="${label}. Shared from Framewright.">`);
    expect(html).toContain('<meta name="ai-generated" content="true">');
    // The stable media link redirects to a fresh presigned URL that serves the file.
    const media = await visit(`${url}/media`);
    expect(media.status).toBe(302);
    expect(await (await fetch(media.location!)).text()).toBe(`file of ${item.id}`);
    // The owner's list names the link.
    const listed = await json<Listed>(api(user, '/api/media?limit=100'));
    expect(listed.items.find((i) => i.id === item.id)?.shareUrl).toBe(url);

    // Sharing again keeps the link and shows the prompt (escaped) when asked.
    const again = await json<{ url: string }>(send(user, 'POST', `/api/media/${item.id}/share`, { showPrompt: true }));
    expect(again.url).toBe(url);
    expect(await (await fetch(url)).text()).toContain('a secret &#60;lighthouse&#62; at dusk');
  });

  it("answers 404 for another user's item, and 400 for a bad body", async () => {
    const item = await seedMedia(user);
    const res = await send(other, 'POST', `/api/media/${item.id}/share`, {});
    expect(res.status).toBe(404);
    expect((await send(other, 'DELETE', `/api/media/${item.id}/share`)).status).toBe(404);
    const bad = await send(user, 'POST', `/api/media/${item.id}/share`, { showPrompt: 'yes' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe(Messages.invalidShowPrompt);
    const extra = await send(user, 'POST', `/api/media/${item.id}/share`, { public: true });
    expect(extra.status).toBe(400);
  });

  it('answers the 404 page once revoked, once the item is deleted, and for unknown or malformed tokens', async () => {
    const a = await seedMedia(user);
    const { url } = await json<{ url: string }>(send(user, 'POST', `/api/media/${a.id}/share`, {}));
    expect((await send(user, 'DELETE', `/api/media/${a.id}/share`)).status).toBe(204);
    const revoked = await fetch(url);
    expect(revoked.status).toBe(404);
    expect(revoked.headers.get('cache-control')).toBe('no-store');
    expect(await revoked.text()).toContain('Page not found');
    expect((await visit(`${url}/media`)).status).toBe(404);

    const b = await seedMedia(user);
    const shared = await json<{ url: string }>(send(user, 'POST', `/api/media/${b.id}/share`, {}));
    expect((await send(user, 'DELETE', `/api/media/${b.id}`)).status).toBe(204);
    expect((await fetch(shared.url)).status).toBe(404);
    const leftovers = await dynamo().send(new ScanCommand({ TableName: table(), FilterExpression: 'mediaId = :id', ExpressionAttributeValues: { ':id': b.id } }));
    expect(leftovers.Items).toEqual([]);

    for (const p of ['/s/AAAAAAAAAAAAAAAAAAAAAA', '/s/short', `/s/${'x'.repeat(300)}`, '/s/AAAAAAAAAAAAAAAAAAAAAA/poster']) {
      const res = await fetch(`${stackUrl()}${p}`);
      expect([p, res.status]).toEqual([p, 404]);
    }
  });
});

/** The ID token re-signed with cognito-local's key, its auth_time moved into the past (a sign-in long ago). */
function staleToken(user: TestUser, ageSeconds: number): string {
  const [h, p] = user.idToken.split('.') as [string, string];
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  claims.auth_time -= ageSeconds;
  const body = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  const key = JSON.parse(readFileSync(path.join(path.dirname(require.resolve('cognito-local/package.json')), 'lib/keys/cognitoLocal.private.json'), 'utf8')).pem;
  return `${body}.${createSign('RSA-SHA256').update(body).sign(key, 'base64url')}`;
}

async function everything(): Promise<string> {
  const items = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await dynamo().send(new ScanCommand({ TableName: table(), ConsistentRead: true, ExclusiveStartKey: start }));
    // A deleted account's tombstone names its sub on purpose (account-tombstone.test.ts pins it).
    items.push(...(res.Items ?? []).filter((i) => i.type !== 'tombstone'));
    start = res.LastEvaluatedKey;
  } while (start);
  const objects = await s3Client().send(new ListObjectsV2Command({ Bucket: bucket() }));
  return JSON.stringify(items) + JSON.stringify((objects.Contents ?? []).map((o) => o.Key));
}

describe('DELETE /api/me', () => {
  it('refuses a sign-in older than five minutes, and deletes nothing', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const res = await api({ ...user, idToken: staleToken(user, 10 * 60) }, '/api/me', { method: 'DELETE' });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe(Messages.confirmPasswordToDelete);
    expect((await api(user, '/api/me')).status).toBe(200);
    expect(await everything()).toContain(user.sub);
  });

  it('leaves no item and no object with the user id, keeps the order without the user, and gives no second welcome', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    // A real generation (job, ledger rows, media item, file), a shared and starred item, and a purchase.
    const started = await json<{ predictionId: string }>(send(user, 'POST', '/api/generate-image', { prompt: 'to be forgotten' }));
    const done = await waitForStatus(user, started.predictionId);
    expect(done.status).toBe('succeeded');
    await send(user, 'POST', `/api/media/${done.mediaId}/share`, { showPrompt: true });
    await send(user, 'PUT', `/api/media/${done.mediaId}/favorite`);
    const { url: shareLink } = await json<{ url: string }>(send(user, 'POST', `/api/media/${done.mediaId}/share`, {}));
    const { paymentUrl, orderId } = await startPayment(user);
    await visit(await decideAtPaypal(paymentUrl, 'approve'));
    await bothWebhooksHandled(orderId);
    expect(await everything()).toContain(user.sub);

    const res = await api(user, '/api/me', { method: 'DELETE' });
    expect(res.status).toBe(204);

    const left = await everything();
    expect(left).not.toContain(user.sub);
    expect(left.toLowerCase()).not.toContain(user.email.toLowerCase());
    const order = await orderItem(orderId);
    expect(order).toMatchObject({ orderId, status: 'captured', credits: expect.any(Number), amount: expect.any(String), ownerDeleted: true });
    expect(order!.owner).toBeUndefined();
    expect((await fetch(shareLink)).status).toBe(404);
    // A refund PayPal sends afterwards is recorded on the kept order, and moves no credits of anyone.
    await refundAtPaypal(await captureIdOf(orderId));
    await waitUntil('the refund recorded', async () => (await orderItem(orderId))?.status === 'refunded');
    const afterRefund = await everything();
    expect(afterRefund).not.toContain(user.sub);
    expect(afterRefund).not.toContain('"pk":"USER#"');
    // The Cognito user is gone.
    await expect(signIn(user.email, user.password)).rejects.toMatchObject({ name: expect.stringMatching(/NotAuthorized|UserNotFound/) });
    // The welcome mark is the address's keyed hash, and it stays: the same address signing up again starts at 0.
    expect(left).toContain(`WELCOME#${emailHash(user.email, LOCAL_SECRETS.welcomeHashKey)}`);
    const before = new Set((await mailFor(user.email)).map((m) => m.text));
    await signUp(user.email, user.password);
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      code = (await mailFor(user.email)).filter((m) => !before.has(m.text)).map((m) => codeIn(m.text)).find(Boolean);
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    await confirmSignUp(user.email, code!);
    const again = await signIn(user.email, user.password);
    expect((await json<{ credits: number }>(api(again, '/api/me'))).credits).toBe(0);
  });

  it('is refused while a generation of the account runs', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    await send(user, 'POST', '/api/generate-video', { prompt: 'still running', model: 'wavespeedai/wan-2.1-t2v-480p', duration: 5 }).then(async (r) => {
      if (r.status !== 200) throw new Error(`generate-video ${r.status}: ${await r.text()}`);
    });
    const res = await api(user, '/api/me', { method: 'DELETE' });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(Messages.deleteWhileRunning);
  });
});
