/**
 * No 5xx from our own limits: 30 starts racing from one user, on a stack of its own with the cloud's limits on (each
 * route's API Gateway throttle and each function's reserved concurrency, in the smallest account the reservations
 * deploy to). The generation route's throttle refuses the surplus with 429 and a Retry-After before the function's
 * reservation runs out (Lambda's throttle would reach the caller as API Gateway's 500); what runs is charged or
 * refused for its credits, as usual.
 */
import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { SIGNUP_CREDITS } from '../../contract/catalog';
import { startStackProcess, stopStackProcess, type RunningStack } from '../support/start-stack';
import { codeIn, cognito, confirmSignUp, mailFor, newEmail, signUp, DEFAULT_PASSWORD } from '../support/users';

jest.setTimeout(400_000);

async function idTokenOn(stack: RunningStack): Promise<string> {
  const target = { baseUrl: stack.url, clientId: stack.env.USER_POOL_CLIENT_ID! };
  const email = newEmail('racing');
  await signUp(email, DEFAULT_PASSWORD, undefined, target);
  let code: string | undefined;
  for (let i = 0; i < 50 && !code; i++) {
    code = (await mailFor(email, stack.url)).map((m) => codeIn(m.text)).find(Boolean);
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  await confirmSignUp(email, code!, target);
  const auth = await cognito(stack.url).send(
    new InitiateAuthCommand({ ClientId: target.clientId, AuthFlow: 'USER_PASSWORD_AUTH', AuthParameters: { USERNAME: email, PASSWORD: DEFAULT_PASSWORD } }),
  );
  return auth.AuthenticationResult!.IdToken!;
}

describe('30 racing starts from one user, with the cloud limits on', () => {
  let stack: RunningStack | undefined;
  afterAll(async () => {
    if (stack) await stopStackProcess(stack.child.pid!, stack.dataDir);
  });

  it('answer no 5xx: the route throttle refuses the surplus with 429 and Retry-After, the rest are charged or refused for credits', async () => {
    // Throttles on, and the smallest account the reservations deploy to (the default, set explicitly here).
    stack = await startStackProcess({ web: 'none', extraEnv: { FW_API_THROTTLE: 'on', FW_LAMBDA_CONCURRENCY: '' }, readyWithinMs: 150_000 });
    const token = await idTokenOn(stack);
    // One refused start first, so the race meets a loaded function (in the cloud a cold start is a second, not the
    // seconds this machine may take to load a handler, which would be the function's own timeout's 500).
    const warm = await fetch(`${stack.url}/api/generate-image`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
    expect(warm.status).toBe(400);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(`${stack!.url}/api/generate-image`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ prompt: `a racing fox ${i}`, count: 4 }),
        }).then(async (res) => ({ status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() })),
      ),
    );
    expect(answers.filter((a) => a.status >= 500)).toEqual([]);
    const throttled = answers.filter((a) => a.status === 429);
    // The burst (20) is below 30: the throttle bit, and said when to come back.
    expect(throttled.length).toBeGreaterThan(0);
    for (const a of throttled) expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => [200, 402, 429].includes(a.status))).toBe(true);
    // Batches of 4 from the welcome credits: as many started as the credits pay for, no more.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(Math.floor(SIGNUP_CREDITS / 4));
  });
});
