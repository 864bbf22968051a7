/**
 * The user pool's per-IP limits (its WAF web ACL in the cloud) hold on the embedded stack too: a stack of its own with
 * the edge limits on (test runs turn them off) refuses the 21st sign-up from one IP in 5 minutes as Cognito does
 * behind that web ACL.
 */
import { COGNITO_RATE_RULES, COGNITO_WAF_BLOCK } from '../../contract/edge-limits';
import { cognitoRateLimiter } from '../../local/gateway/edge';
import { startStackProcess, stopStackProcess, type RunningStack } from '../support/start-stack';
import { newEmail, signUp } from '../support/users';

jest.setTimeout(180_000);

const SIGNUP = COGNITO_RATE_RULES.find((r) => r.action === 'SignUp')!;

describe('per-IP sign-up limit on the embedded stack', () => {
  let stack: RunningStack | undefined;
  afterAll(async () => {
    if (stack) await stopStackProcess(stack.child.pid!, stack.dataDir);
  });

  it('takes 20 sign-ups from one IP in 5 minutes and answers the next 403 ForbiddenException', async () => {
    expect(SIGNUP.limit).toBe(20);
    stack = await startStackProcess({ web: 'none', extraEnv: { FW_EDGE_RATE_LIMITS: 'on' } });
    const target = { baseUrl: stack.url, clientId: stack.env.USER_POOL_CLIENT_ID! };
    const outcomes: string[] = [];
    for (let i = 0; i < 25; i++) {
      try {
        await signUp(newEmail('burst'), undefined, undefined, target);
        outcomes.push('ok');
      } catch (e) {
        const err = e as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
        outcomes.push(`${err.$metadata?.httpStatusCode} ${err.name}: ${err.message}`);
      }
    }
    expect(outcomes.slice(0, 20)).toEqual(Array(20).fill('ok'));
    expect(outcomes.slice(20)).toEqual(Array(5).fill(`${COGNITO_WAF_BLOCK.status} ${COGNITO_WAF_BLOCK.type}: ${COGNITO_WAF_BLOCK.message}`));
  });

  it('counts each action and IP on its own, over fixed 5-minute windows', () => {
    let t = 0;
    const limited = cognitoRateLimiter(() => t);
    const signUpTarget = 'AWSCognitoIdentityProviderService.SignUp';
    const answers = Array.from({ length: 21 }, () => limited('127.9.9.9', signUpTarget));
    expect(answers.filter((x) => !x)).toHaveLength(20);
    expect(answers[20]).toBe(true);
    expect(limited('127.9.9.10', signUpTarget)).toBe(false);
    expect(limited('127.9.9.9', 'AWSCognitoIdentityProviderService.InitiateAuth')).toBe(false);
    expect(limited('127.9.9.9', 'AWSCognitoIdentityProviderService.GetUser')).toBe(false);
    t += 300_000;
    expect(limited('127.9.9.9', signUpTarget)).toBe(false);
  });
});
