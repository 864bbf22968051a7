import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { DeleteUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Messages } from '../../contract/errors';
import { IMAGE_MODEL } from '../../contract/catalog';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { startGeneration } from '../../lambdas/app/start-generation';
import { emailHash } from '../../lambdas/domain/email-hash';
import { RateLimited } from '../../lambdas/domain/errors';
import { newId } from '../../lambdas/domain/ids';
import type { Job } from '../../lambdas/ports/jobs';
import { startGenerationDeps } from '../../lambdas/wiring/deps';
import { userItems } from '../support/generation';
import { api, codeIn, cognito, confirmSignUp, createUser, mailFor, signIn, signUp, stackEnv, type TestUser } from '../support/users';

const table = () => stackEnv().TABLE_NAME!;
const me = async (user: TestUser) => (await (await api(user, '/api/me')).json()) as { credits: number };
const caller = (u: TestUser) => ({ sub: u.sub, email: u.email, firstName: 'Ada', lastName: 'Lovelace' });

describe('the daily generation cap', () => {
  const job = (owner: string, i: number): Job => {
    const now = new Date();
    return { id: `${newId(now)}${i}`, owner, kind: 'image', model: IMAGE_MODEL.id, prompt: 'p', options: {}, cost: 1, status: 'pending', createdAt: now.toISOString() };
  };

  it('admits exactly the cap when many charges race, charging only those, in the same transaction as the count', async () => {
    const user = await createUser();
    await me(user); // the account, with 10 credits
    const jobs = dynamoJobStore(dynamo(), table());
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => jobs.createCharged(job(user.sub, i), undefined, 3)));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => 'dailyCapReached' in r)).toHaveLength(5);
    expect((await me(user)).credits).toBe(7);
    expect((await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'image')).toHaveLength(3);
    const day = new Date().toISOString().slice(0, 10);
    const counter = (await userItems(user.sub, `GENERATIONS#${day}`))[0]!;
    expect(counter.jobs).toBe(3);
    // It expires with the day after next, so counters do not pile up.
    expect(counter.ttl).toBe(Date.parse(day) / 1000 + 2 * 86_400);
  });

  it('refuses the generation past the cap with a 429 message that says no credits were charged', async () => {
    const user = await createUser();
    const deps = { ...startGenerationDeps(), dailyGenerationCap: 2 };
    for (let i = 0; i < 2; i++) await startGeneration(deps, caller(user), { model: 'sdxl', prompt: `cap ${i}` });
    const refused = await startGeneration(deps, caller(user), { model: 'sdxl', prompt: 'one too many' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimited);
    expect((refused as RateLimited).message).toBe(Messages.dailyGenerationCap(2));
    expect((await me(user)).credits).toBe(8);
  });

  it('answers the cap through the API with 429 (the stack runs with DAILY_GENERATION_CAP from the environment)', async () => {
    // The stack's cap is the configured one; a fresh user is far below it.
    const user = await createUser();
    const res = await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'under the cap' }) });
    expect(res.status).toBe(200);
  });
});

describe('welcome credits once per email address', () => {
  it('gives 10 credits once when many first requests race, with one ledger row and one mark on the address', async () => {
    const user = await createUser();
    const answers = await Promise.all(Array.from({ length: 8 }, () => me(user)));
    expect(answers.map((a) => a.credits)).toEqual(Array(8).fill(10));
    expect((await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'welcome')).toHaveLength(1);
    // The mark names the address by its keyed hash only: no address and no user id in it.
    const mark = await dynamo().send(
      new GetCommand({ TableName: table(), Key: { pk: `WELCOME#${emailHash(user.email.toUpperCase(), LOCAL_SECRETS.welcomeHashKey)}`, sk: 'WELCOME' } }),
    );
    expect(mark.Item).toBeDefined();
    expect(JSON.stringify(mark.Item)).not.toContain(user.sub);
    expect(JSON.stringify(mark.Item).toLowerCase()).not.toContain(user.email.toLowerCase());
  });

  it('gives none to an account deleted and made again with the same address, in any letter case', async () => {
    const first = await createUser();
    expect((await me(first)).credits).toBe(10);
    await cognito().send(new DeleteUserCommand({ AccessToken: first.accessToken }));

    const codesBefore = new Set((await mailFor(first.email)).map((m) => codeIn(m.text)));
    const email = first.email.toUpperCase();
    await signUp(email, first.password);
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      // The stand-in names the user by the lower-case address (one account per email), so the code goes there.
      const fresh = [...(await mailFor(email)), ...(await mailFor(first.email))];
      code = fresh.map((m) => codeIn(m.text)).find((c) => c && !codesBefore.has(c));
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    await confirmSignUp(email, code!);
    const again = await signIn(email, first.password);
    expect(again.sub).not.toBe(first.sub);
    expect((await me(again)).credits).toBe(0);
    expect(await userItems(again.sub, 'LEDGER#')).toHaveLength(0);
    // Generation then asks for credits, as for anyone at 0.
    const res = await api(again, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'free again?' }) });
    expect(res.status).toBe(402);
  });
});
