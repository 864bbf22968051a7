/**
 * The user pool's per-IP limits (its WAF web ACL in the cloud) hold on the embedded stack too: the stack's own origin
 * routes with the edge limits on (test runs turn them off), served in front of the run's cognito-local, refuse the 21st
 * sign-up from one IP in 5 minutes as Cognito does behind that web ACL. Only the origin is made again: a whole stack
 * of its own would cost a minute of start-up for the same routes.
 */
import { COGNITO_RATE_RULES, COGNITO_WAF_BLOCK } from '../../contract/edge-limits';
import { cognitoRateLimiter } from '../../local/gateway/edge';
import { listenOrigin, type Origin } from '../../local/origin';
import { originRoutes, type OriginTargets } from '../../local/origin-routes';
import { newEmail, signUp, stackEnv } from '../support/users';

const SIGNUP = COGNITO_RATE_RULES.find((r) => r.action === 'SignUp')!;

/** The stack's origin routes with the edge limits as a stack started with FW_EDGE_RATE_LIMITS=on has them. */
function limitedRoutes(cognitoUrl: string, port: number) {
  const before = process.env.FW_EDGE_RATE_LIMITS;
  process.env.FW_EDGE_RATE_LIMITS = 'on';
  try {
    const unused = () => {
      throw new Error('only /_cognito is asked in this test');
    };
    return originRoutes({ cognitoUrl, port, gateway: unused, edgeHeader: unused, background: {} as OriginTargets['background'], live: {} as OriginTargets['live'], mail: { messages: unused } });
  } finally {
    if (before === undefined) delete process.env.FW_EDGE_RATE_LIMITS;
    else process.env.FW_EDGE_RATE_LIMITS = before;
  }
}

describe('per-IP sign-up limit on the embedded stack', () => {
  let origin: Origin | undefined;
  afterAll(async () => {
    await origin?.close();
  });

  it('takes 20 sign-ups from one IP in 5 minutes and answers the next 403 ForbiddenException', async () => {
    expect(SIGNUP.limit).toBe(20);
    const cognitoUrl = stackEnv().COGNITO_ENDPOINT;
    if (!cognitoUrl) throw new Error('the stack environment names no COGNITO_ENDPOINT');
    origin = await listenOrigin(0, '127.0.0.1');
    origin.serve(limitedRoutes(cognitoUrl, origin.port), (_req, res) => res.writeHead(404).end(), () => {});
    const target = { baseUrl: origin.url, clientId: stackEnv().USER_POOL_CLIENT_ID! };
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
