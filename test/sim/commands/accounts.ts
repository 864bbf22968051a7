/** People come and go: sign-up (the first call makes the account with its welcome credits) and account deletion. */
import fc from 'fast-check';
import { index, step } from './step';

export const accountSteps = [
  step({ name: 'signUp', weight: 3, args: fc.constant(null), run: (w) => w.signUp() }),
  step({ name: 'deleteAccount', weight: 1, args: fc.record({ who: index }), run: (w, a) => w.deleteAccount(a.who) }),
];
