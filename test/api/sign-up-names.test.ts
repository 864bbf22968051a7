/**
 * Nothing of a stranger's in our mail: a sign-up whose names are too long, carry a link or a control character is
 * refused by the PreSignUp trigger (here run by the local Cognito as Cognito runs it), with Cognito's answer, and no
 * mail goes out; the sign-up form applies the same rule.
 */
import { MAX_NAME_LENGTH, NAME_RULE, isAcceptableName } from '../../contract/auth';
import { signupValidationError } from '../../web/src/features/auth/signup-page';
import { latestCode, mailFor, newEmail, signUp } from '../support/users';

const PHISH = 'your account is locked. Restore access at https://evil.example/restore';

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (e) {
    const err = e as { name: string; message: string; $metadata?: { httpStatusCode?: number } };
    return { name: err.name, message: err.message, status: err.$metadata?.httpStatusCode };
  }
  throw new Error('the sign-up was accepted');
}

describe('names in sign-up', () => {
  it.each([
    ['a 600-character first name', { first: 'A'.repeat(600), last: 'Lovelace' }],
    ['a link in the first name', { first: PHISH, last: 'Lovelace' }],
    ['a bare domain in the last name', { first: 'Ada', last: 'evil.example' }],
    ['a line break', { first: 'Ada\nYour account is locked', last: 'Lovelace' }],
    ['only spaces', { first: '   ', last: 'Lovelace' }],
  ])('refuses %s with 400 UserLambdaValidationException, and mails nothing', async (_what, names) => {
    const email = newEmail('names');
    const err = await refusal(signUp(email, undefined, names));
    expect(err).toEqual({ name: 'UserLambdaValidationException', message: `PreSignUp failed with error ${NAME_RULE}.`, status: 400 });
    await new Promise((r) => setTimeout(r, 300));
    expect(await mailFor(email)).toEqual([]);
  });

  it('takes a name of 50 characters, accents, apostrophes and initials, and greets by it', async () => {
    const email = newEmail('names');
    const first = `Zoë-Anne O'Brien J.R. ${'x'.repeat(MAX_NAME_LENGTH - 22)}`;
    expect([...first]).toHaveLength(MAX_NAME_LENGTH);
    await signUp(email, undefined, { first, last: 'St. John' });
    await latestCode(email);
    const [mail] = await mailFor(email);
    expect(mail!.text).toMatch(new RegExp(`^Hi ${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},`));
  });

  it('is the same rule in the sign-up form', () => {
    const form = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', password: 'Sup3rSecret', confirmPassword: 'Sup3rSecret' };
    expect(signupValidationError(form)).toBeUndefined();
    expect(signupValidationError({ ...form, firstName: 'A'.repeat(51) })).toBe(NAME_RULE);
    expect(signupValidationError({ ...form, lastName: 'see www.evil.example' })).toBe(NAME_RULE);
    expect(isAcceptableName('  Ada  ')).toBe(true);
    expect(isAcceptableName('Ada\u202Eevil')).toBe(false);
  });
});
