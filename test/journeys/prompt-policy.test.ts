/**
 * The prompt policy through the embedded stack: a forbidden prompt gets the policy's 400 with nothing charged, no
 * job stored and no create received by the Replicate simulator; an allowed one is charged and created as before.
 */
import { randomUUID } from 'node:crypto';
import { Messages } from '../../contract/errors';
import { PIXVERSE } from '../../contract/catalog';
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { api, createUser, stackEnv } from '../support/users';
import { json, userItems } from '../support/generation';

interface SimPage {
  next: string | null;
  results: Array<{ input?: { prompt?: string } }>;
}

/** Every prediction the simulator was asked to create whose prompt holds `marker` (its list, page by page). */
async function simCreatesWith(marker: string): Promise<unknown[]> {
  const found: unknown[] = [];
  let url: string | null = `${stackEnv().REPLICATE_BASE_URL}/predictions`;
  while (url) {
    const page: SimPage = await json<SimPage>(fetch(url, { headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}` } }));
    found.push(...page.results.filter((p) => p.input?.prompt?.includes(marker)));
    url = page.next;
  }
  return found;
}

const post = (user: Parameters<typeof api>[0], path: string, body: unknown) => api(user, path, { method: 'POST', body: JSON.stringify(body) });

describe('prompt policy', () => {
  it.each([
    ['/api/generate-image', (m: string) => ({ prompt: `a nude child ${m}` })],
    ['/api/generate-image', (m: string) => ({ prompt: `a portrait ${m}`, negativePrompt: 'nudify' })],
    ['/api/generate-video', (m: string) => ({ prompt: `s3xy t33n dancing ${m}`, model: PIXVERSE, duration: 5, quality: '540p' })],
  ])('%s refuses a forbidden request with a 400, charging nothing and creating nothing', async (path, body) => {
    const user = await createUser();
    const marker = randomUUID();
    const res = await post(user, path, body(marker));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: Messages.promptNotAllowed, code: 'INVALID_INPUT' });
    expect(await json(api(user, '/api/me'))).toMatchObject({ credits: 10 });
    expect((await userItems(user.sub, 'LEDGER#')).map((l) => l.reason)).toEqual(['welcome']);
    expect(await simCreatesWith(marker)).toEqual([]);
  });

  it('charges and creates an allowed prompt as before', async () => {
    const user = await createUser();
    const marker = randomUUID();
    const res = await post(user, '/api/generate-image', { prompt: `children flying kites ${marker}`, negativePrompt: 'nude, nsfw' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ credits: 9 });
    expect(await simCreatesWith(marker)).toHaveLength(1);
  });
});
