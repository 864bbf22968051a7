/**
 * Welcome credits once per mailbox: the welcome mark names the mailbox an address delivers to (plus tags dropped
 * everywhere, dots and googlemail.com at Gmail), so aliases of a deleted account's address get their account at 0
 * credits; marks made before (the address as typed) still count.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { emailHash, mailboxOf, normaliseEmail } from '../../lambdas/domain/email-hash';
import { keys } from '../../lambdas/domain/keys';
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { api, confirmSignUp, latestCode, signIn, signUp, stackEnv, type TestUser } from '../support/users';

async function userWith(email: string): Promise<TestUser> {
  await signUp(email);
  await confirmSignUp(email, await latestCode(email));
  return signIn(email, 'Sup3rSecret');
}

const credits = async (user: TestUser) => {
  const res = await api(user, '/api/me');
  expect(res.status).toBe(200);
  return ((await res.json()) as { credits: number }).credits;
};

describe('the mailbox an address delivers to', () => {
  it.each([
    ['X+promo@Example.com ', 'x@example.com'],
    ['first.last+1@example.com', 'first.last@example.com'],
    ['First.Last+news@gmail.com', 'firstlast@gmail.com'],
    ['f.i.r.s.t@googlemail.com', 'first@gmail.com'],
    ['plain@example.org', 'plain@example.org'],
    ['+only@example.com', '+only@example.com'],
  ])('%s is %s', (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox);
  });
});

describe('welcome credits once per mailbox', () => {
  it("gives a deleted account's plus-tag and Gmail-dot aliases no second welcome", async () => {
    const local = `wm${randomUUID().slice(0, 8)}`;
    const first = await userWith(`${local}@gmail.com`);
    expect(await credits(first)).toBe(10);
    expect((await api(first, '/api/me', { method: 'DELETE' })).status).toBe(204);

    for (const alias of [`${local}+1@gmail.com`, `${local.slice(0, 3)}.${local.slice(3)}@gmail.com`, `${local}@googlemail.com`]) {
      const user = await userWith(alias);
      expect({ alias, credits: await credits(user) }).toEqual({ alias, credits: 0 });
      // The account keeps the address as typed; only the mark names the mailbox.
      const me = (await (await api(user, '/api/me')).json()) as { email: string };
      expect(me.email).toBe(alias);
    }
    // Another provider's dots name another mailbox: a welcome of its own.
    expect(await credits(await userWith(`${local.slice(0, 3)}.${local.slice(3)}@example.com`))).toBe(10);
  });

  it('honours a mark made before marks named the mailbox (the address as typed)', async () => {
    const address = `old-${randomUUID().slice(0, 8)}+tag@example.com`;
    // The stack's welcome hash key (in its local Secrets Manager, fixed so that marks survive a restart).
    const key = LOCAL_SECRETS.welcomeHashKey;
    const legacy = createHmac('sha256', key).update(normaliseEmail(address)).digest('base64url');
    expect(legacy).not.toBe(emailHash(address, key));
    await dynamo().send(
      new PutCommand({ TableName: stackEnv().TABLE_NAME!, Item: { pk: keys.welcome(legacy), sk: 'WELCOME', type: 'welcome', createdAt: new Date().toISOString() } }),
    );
    expect(await credits(await userWith(address))).toBe(0);
  });
});
