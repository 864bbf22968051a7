import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { api, createUser, stackEnv } from '../support/users';

describe('GET /api/me', () => {
  it('creates the account on the first call with 10 welcome credits and the profile from the token', async () => {
    const user = await createUser({ first: 'Grace', last: 'Hopper' });
    const res = await api(user, '/api/me');
    expect(res.status).toBe(200);
    const me = await res.json();
    expect(me).toEqual({
      sub: user.sub,
      email: user.email,
      firstName: 'Grace',
      lastName: 'Hopper',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      credits: 10,
    });
    // A later call returns the same account, not a fresh one.
    const again = await (await api(user, '/api/me')).json();
    expect(again).toEqual(me);
  });

  it('creates the account and its welcome ledger row exactly once when 20 first calls race', async () => {
    const user = await createUser();
    const responses = await Promise.all(Array.from({ length: 20 }, () => api(user, '/api/me')));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(new Set(bodies.map((b) => b.createdAt)).size).toBe(1);
    expect(bodies.every((b) => b.credits === 10)).toBe(true);

    const items = await dynamo().send(
      new QueryCommand({
        TableName: stackEnv().TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `USER#${user.sub}` },
        ConsistentRead: true,
      }),
    );
    const sks = (items.Items ?? []).map((i) => i.sk as string);
    expect(sks.filter((s) => s === 'ACCOUNT')).toHaveLength(1);
    const ledger = (items.Items ?? []).filter((i) => String(i.sk).startsWith('LEDGER#'));
    expect(ledger).toHaveLength(1);
    expect(ledger[0]).toMatchObject({ delta: 10, balance: 10, reason: 'welcome' });
  });

  it('answers 401 without a token, with a malformed one, a tampered one, or an access token', async () => {
    const user = await createUser();
    const [header, payload, signature] = user.idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url'), signature].join('.');
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer not-a-jwt' },
      { authorization: `Bearer ${tampered}` },
      { authorization: `Bearer ${user.accessToken}` },
      { authorization: user.idToken },
    ];
    for (const headers of cases) {
      const res = await api(undefined, '/api/me', { headers });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthorized' });
    }
  });
});
