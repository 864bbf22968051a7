import { NAME_RULE } from '../../contract/auth';
import { AUTH_REASONS, authErrorReason, isAuthRejection, isUserDisabled } from '../../web/src/features/auth/auth-errors';
import { safeReturnPath } from '../../web/src/features/auth/return-path';
import { CREDITS_LOAD_ERROR, readCredits, refreshCredits, resetCredits, setCredits } from '../../web/src/features/credits';
import { setConfigForTesting } from '../../web/src/lib/config';

const err = (name: string, message = '') => Object.assign(new Error(message), { name });

describe('Cognito errors -> readable reasons', () => {
  it.each([
    ['signUp', err('UsernameExistsException', 'User already exists'), AUTH_REASONS.emailInUse],
    ['signUp', err('InvalidPasswordException', 'Password did not conform with policy: Password must have numeric characters'),
      'Password must have numeric characters. At least 8 characters, with upper and lower case letters and a number.'],
    ['signUp', err('InvalidPasswordException', 'Password does not conform to policy'),
      'Password does not meet the requirements. At least 8 characters, with upper and lower case letters and a number.'],
    ['signUp', err('InvalidParameterException', 'Invalid email address format.'), AUTH_REASONS.invalidEmail],
    ['signUp', err('TooManyRequestsException'), AUTH_REASONS.tooManyRequests],
    ['signUp', err('ForbiddenException', 'Request not allowed due to WAF block.'), AUTH_REASONS.tooManyRequests],
    ['signUp', err('UserLambdaValidationException', `PreSignUp failed with error ${NAME_RULE}.`), NAME_RULE],
    ['signUp', err('NetworkError', 'A network error has occurred.'), AUTH_REASONS.network],
    ['signUp', err('TypeError', 'Failed to fetch'), AUTH_REASONS.network],
    ['signIn', err('NotAuthorizedException', 'Incorrect username or password.'), AUTH_REASONS.wrongCredentials],
    ['signIn', err('NotAuthorizedException', 'User is disabled.'), AUTH_REASONS.userDisabled],
    ['signIn', err('UserNotFoundException'), AUTH_REASONS.wrongCredentials],
    ['signIn', err('LimitExceededException'), AUTH_REASONS.tooManyRequests],
    ['resetPassword', err('UserNotFoundException', 'Username/client id combination not found.'), AUTH_REASONS.noAccount],
    ['resetPassword', err('UserNotConfirmedException'), AUTH_REASONS.notConfirmed],
    ['resetPassword', err('CodeDeliveryFailureException'), AUTH_REASONS.emailDelivery],
    ['confirmSignUp', err('CodeMismatchException'), AUTH_REASONS.codeMismatch],
    ['confirmSignUp', err('ExpiredCodeException'), AUTH_REASONS.codeExpired],
    ['confirmSignUp', err('NotAuthorizedException', 'User cannot be confirmed. Current status is CONFIRMED'), AUTH_REASONS.alreadyConfirmed],
    ['resendCode', err('InvalidParameterException', 'User is already confirmed.'), AUTH_REASONS.alreadyConfirmed],
    ['changePassword', err('NotAuthorizedException', 'Incorrect username or password.'), AUTH_REASONS.wrongCurrentPassword],
    ['changePassword', err('NotAuthorizedException', 'Access Token has been revoked'), AUTH_REASONS.sessionExpired],
    ['changePassword', err('UserUnAuthenticatedException', 'User needs to be authenticated to call this API.'), AUTH_REASONS.sessionExpired],
  ] as const)('%s: %s', (action, error, reason) => {
    expect(authErrorReason(error, action)).toBe(reason);
  });

  it('falls back to the message, then to a generic line', () => {
    expect(authErrorReason(err('SomethingNewException', 'Cognito says no.'), 'signIn')).toBe('Cognito says no.');
    expect(authErrorReason({}, 'signIn')).toBe(AUTH_REASONS.unknown);
    expect(authErrorReason(undefined, 'signIn')).toBe(AUTH_REASONS.unknown);
  });

  it('tells refusals (end the session) from transient failures (keep it)', () => {
    expect(isAuthRejection(err('NotAuthorizedException'))).toBe(true);
    expect(isAuthRejection(err('UserNotFoundException'))).toBe(true);
    expect(isAuthRejection(err('NetworkError'))).toBe(false);
    expect(isAuthRejection(err('TooManyRequestsException'))).toBe(false);
    expect(isUserDisabled(err('NotAuthorizedException', 'User is disabled.'))).toBe(true);
    expect(isUserDisabled(err('NotAuthorizedException', 'Refresh Token has expired'))).toBe(false);
  });
});

describe('the return path after login', () => {
  it.each([
    ['/admin?tab=contact', '/admin?tab=contact'],
    ['/video-generator/wan', '/video-generator/wan'],
    [undefined, '/generator'],
    ['https://evil.example/x', '/generator'],
    ['//evil.example/x', '/generator'],
    ['/\\evil.example', '/generator'],
    ['/login', '/generator'],
    ['/signup?x=1', '/generator'],
    ['/verify', '/generator'],
    ['/loginhelp', '/loginhelp'],
  ])('%s -> %s', (from, expected) => {
    expect(safeReturnPath(from)).toBe(expected);
  });
});

describe('the credit balance (a TanStack query)', () => {
  const fetchMock = jest.fn();
  const respond = (status: number, body: unknown) => ({ ok: status < 300, status, text: async () => JSON.stringify(body) });

  beforeEach(() => {
    fetchMock.mockReset();
    global.fetch = fetchMock as unknown as typeof fetch;
    setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_x', userPoolClientId: 'c', apiBaseUrl: '' });
    resetCredits();
  });

  it('is unknown until GET /api/me answers, then holds the balance', async () => {
    fetchMock.mockResolvedValueOnce(respond(200, { credits: 10, sub: 's', email: 'e', firstName: 'a', lastName: 'b', createdAt: 'x' }));
    expect(readCredits().credits).toBeUndefined();
    await refreshCredits();
    expect(readCredits().credits).toBe(10);
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/me');
  });

  it("says 'Failed to load credits' when the call fails, keeping what it knew", async () => {
    setCredits(7);
    fetchMock.mockResolvedValueOnce(respond(500, { error: 'Something went wrong on our side. Please try again.' }));
    await refreshCredits();
    expect(readCredits()).toMatchObject({ credits: 7, error: CREDITS_LOAD_ERROR });
  });

  it('shares one request between concurrent refreshes', async () => {
    fetchMock.mockResolvedValue(respond(200, { credits: 3 }));
    await Promise.all([refreshCredits(), refreshCredits(), refreshCredits()]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(readCredits().credits).toBe(3);
  });

  it("drops an answer that arrives after a reset (the previous user's balance)", async () => {
    let answer: (v: unknown) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const pending = refreshCredits();
    resetCredits();
    answer(respond(200, { credits: 99 }));
    await pending;
    expect(readCredits().credits).toBeUndefined();
  });

  it('setCredits takes a balance the server returned, and ignores nonsense', () => {
    setCredits(42);
    expect(readCredits().credits).toBe(42);
    setCredits(-1);
    setCredits(Number.NaN);
    expect(readCredits().credits).toBe(42);
  });
});
