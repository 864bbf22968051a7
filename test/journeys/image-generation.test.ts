import sharp from 'sharp';
import { api, createUser } from '../support/users';
import { jobItem, json, pngOf, postWebhook, raceWebhookAndPolls, signedWebhook, uploadStartImage, userItems, waitForStatus } from '../support/generation';

const generate = (user: Parameters<typeof api>[0], body: unknown) =>
  api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify(body) });

describe('image generation', () => {
  it('charges 1 credit, completes through the simulator, stores the PNG and lists it with a download name', async () => {
    const user = await createUser();
    const started = await generate(user, { prompt: 'a lighthouse at dusk' });
    expect(started.status).toBe(200);
    const { predictionId, credits } = await started.json();
    expect(credits).toBe(9);

    const done = await waitForStatus(user, predictionId);
    expect(done).toMatchObject({ status: 'succeeded', value: 9 });
    const png = Buffer.from(await (await fetch(done.imageUrl!)).arrayBuffer());
    expect(await sharp(png).metadata()).toMatchObject({ format: 'png', width: 768, height: 768 });

    const media = await json<{ items: Array<Record<string, string>> }>(api(user, '/api/media'));
    expect(media.items).toHaveLength(1);
    expect(media.items[0]).toMatchObject({ type: 'image', prompt: 'a lighthouse at dusk', model: 'stability-ai/sdxl' });
    const download = await fetch(media.items[0]!.downloadUrl!);
    expect(download.headers.get('content-disposition')).toMatch(/filename="a lighthouse at dusk-\d{13}\.png"/);
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 9 });
  });

  it('uses an uploaded start image, and the result derives from it', async () => {
    const user = await createUser();
    const key = await uploadStartImage(user, await pngOf(640, 480, [220, 20, 20]));
    expect(key).toMatch(new RegExp(`^users/${user.sub}/images/\\d+\\.png$`));
    const { predictionId } = await json<{ predictionId: string }>(generate(user, { prompt: 'a red barn', image: key }));
    const done = await waitForStatus(user, predictionId);
    expect(done.status).toBe('succeeded');
    const stats = await sharp(Buffer.from(await (await fetch(done.imageUrl!)).arrayBuffer())).stats();
    const [r, g, b] = stats.channels;
    expect(r!.mean).toBeGreaterThan(g!.mean + 40);
    expect(r!.mean).toBeGreaterThan(b!.mean + 40);
  });

  it('refunds a failed job exactly once and reports the error', async () => {
    const user = await createUser();
    const { predictionId, credits } = await json<{ predictionId: string; credits: number }>(generate(user, { prompt: 'a cat [fail]' }));
    expect(credits).toBe(9);
    const done = await waitForStatus(user, predictionId);
    expect(done.status).toBe('failed');
    expect(done.error).toBe('Image generation failed. 1 credit refunded.');
    expect(done.value).toBe(10);
    const refunds = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'refund');
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ delta: 1, balance: 10, ref: predictionId });
  });

  it('refunds at once when the provider refuses the request', async () => {
    const user = await createUser();
    const res = await generate(user, { prompt: 'a dog [reject]' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBeTruthy();
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 10 });
  });

  it('stores one media item when a webhook and polls race 50 times', async () => {
    const user = await createUser();
    const { predictionId } = await json<{ predictionId: string }>(generate(user, { prompt: 'a quiet harbour [nowebhook]' }));
    const statuses = await raceWebhookAndPolls(user, predictionId, ['succeeded']);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const done = await waitForStatus(user, predictionId);
    expect(done.status).toBe('succeeded');
    expect(await userItems(user.sub, 'MEDIA#')).toHaveLength(1);
    expect((await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'refund')).toHaveLength(0);
  });

  it('refunds at most once when failure webhooks and polls race 50 times', async () => {
    const user = await createUser();
    const { predictionId } = await json<{ predictionId: string }>(generate(user, { prompt: 'a storm [fail] [nowebhook]' }));
    await raceWebhookAndPolls(user, predictionId, ['failed']);
    expect((await waitForStatus(user, predictionId)).status).toBe('failed');
    expect((await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'refund')).toHaveLength(1);
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 10 });
  });

  it('accepts exactly 2 of 30 concurrent 4-credit requests from a user with 10 credits', async () => {
    // 4 images a request (4 credits): the balance, not the queue (MAX_ACTIVE_JOBS), is what runs out.
    const user = await createUser();
    await api(user, '/api/me');
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => generate(user, { prompt: `race ${i}`, count: 4 })));
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(ok).toHaveLength(2);
    expect(refused).toHaveLength(28);
    expect((await refused[0]!.json()).error).toBe('Not enough credits. Required: 4');
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 2 });
    const charges = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'image');
    expect(charges).toHaveLength(2);
    expect(charges.map((c) => c.balance).sort((a, b) => a - b)).toEqual([2, 6]);
  });

  it('refuses forged and stale webhooks with 401 and changes nothing', async () => {
    const user = await createUser();
    const { predictionId } = await json<{ predictionId: string }>(generate(user, { prompt: 'a forged result [nowebhook] [slow]' }));
    const job = await jobItem(predictionId);
    const body = JSON.stringify({ id: job!.providerId ?? 'x', status: 'failed', error: 'forged', output: null });
    const forged = await postWebhook(predictionId, body, signedWebhook(body, { secret: `whsec_${Buffer.from('not the secret').toString('base64')}` }));
    expect(forged.status).toBe(401);
    const stale = await postWebhook(predictionId, body, signedWebhook(body, { timestamp: Math.floor(Date.now() / 1000) - 3600 }));
    expect(stale.status).toBe(401);
    const unsigned = await postWebhook(predictionId, body, { 'content-type': 'application/json' });
    expect(unsigned.status).toBe(401);
    expect((await jobItem(predictionId))!.status).not.toBe('failed');
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 9 });
  });

  it("hides another user's job and media behind 404", async () => {
    const [alice, bob] = await Promise.all([createUser(), createUser()]);
    const { predictionId } = await json<{ predictionId: string }>(generate(alice, { prompt: 'private' }));
    expect((await api(bob, `/api/check-status/${predictionId}`)).status).toBe(404);
    await waitForStatus(alice, predictionId);
    const [item] = (await json<{ items: Array<{ id: string }> }>(api(alice, '/api/media'))).items;
    expect((await api(bob, `/api/media/${item!.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await json<{ items: unknown[] }>(api(bob, '/api/media'))).items).toHaveLength(0);
    expect((await api(alice, `/api/media/${item!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await json<{ items: unknown[] }>(api(alice, '/api/media'))).items).toHaveLength(0);
    expect((await api(alice, `/api/media/${item!.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('validates the prompt with the spec messages and charges nothing', async () => {
    const user = await createUser();
    for (const [body, message] of [
      [{ prompt: '   ' }, 'Please enter a prompt!'],
      [{}, 'Please enter a prompt!'],
      [{ prompt: 'x'.repeat(1001) }, 'Prompt is too long. Keep it under 1000 characters.'],
    ] as const) {
      const res = await generate(user, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
    const bad = await api(user, '/api/generate-image', { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 10 });
  });

  it('refuses uploads over 5,242,880 bytes, non-images, and start images that are not the caller’s', async () => {
    const [user, other] = await Promise.all([createUser(), createUser()]);
    const big = await api(user, '/api/uploads', { method: 'POST', body: JSON.stringify({ contentType: 'image/png', size: 5_242_881 }) });
    expect(big.status).toBe(400);
    expect((await big.json()).error).toBe('Image must be under 5MB.');
    const pdf = await api(user, '/api/uploads', { method: 'POST', body: JSON.stringify({ contentType: 'application/pdf', size: 100 }) });
    expect(pdf.status).toBe(400);
    expect((await pdf.json()).error).toBe('Invalid file type or size. Image must be under 5MB.');

    // A presigned POST for a small file cannot carry more than 5,242,880 bytes: S3 or the server refuses it.
    const up = await json<{ url: string; fields: Record<string, string>; key: string }>(
      api(user, '/api/uploads', { method: 'POST', body: JSON.stringify({ contentType: 'image/png', size: 1000 }) }),
    );
    const form = new FormData();
    for (const [k, v] of Object.entries(up.fields)) form.append(k, v);
    const header = await pngOf(10, 10, [0, 0, 0]);
    form.append('file', new Blob([new Uint8Array(Buffer.concat([header, Buffer.alloc(5_242_881 - header.length)]))], { type: 'image/png' }));
    const upload = await fetch(up.url, { method: 'POST', body: form });
    if (upload.status < 300) {
      const res = await generate(user, { prompt: 'too big', image: up.key });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('Image must be under 5MB.');
    } else {
      expect(upload.status).toBeGreaterThanOrEqual(400);
    }

    const othersKey = await uploadStartImage(other, await pngOf(8, 8, [1, 2, 3]));
    const theft = await generate(user, { prompt: 'theft', image: othersKey });
    expect(theft.status).toBe(400);
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 10 });
  });
});
