import { SIGNUP_CREDITS } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { Unauthorized } from '../domain/errors';
import type { Account, AccountStore } from '../ports/accounts';

export interface GetAccountDeps {
  accounts: AccountStore;
  now: () => Date;
}

export interface Caller {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
}

/**
 * The caller's account. The first call creates it with the welcome credits, exactly once even when
 * many first calls race: the losers of the race read the winner's account. Welcome credits come once per email
 * address: an account deleted and signed up again with the same address starts at 0.
 */
export async function getOrCreateAccount(deps: GetAccountDeps, caller: Caller): Promise<Account> {
  const existing = await deps.accounts.get(caller.sub);
  // A deletion under way (it may have made this item itself, empty, to hold off a first call racing it).
  if (existing?.deleting) throw new Unauthorized(Messages.accountDeleted);
  if (existing) return existing;
  // Only the profile: the caller's identity may carry more (the token's username and sign-in time).
  const { sub, email, firstName, lastName } = caller;
  const account: Account = { sub, email, firstName, lastName, createdAt: deps.now().toISOString(), credits: SIGNUP_CREDITS };
  const created = await deps.accounts.createWithWelcome(account);
  if (created === 'created') return account;
  if (created === 'no-welcome') return { ...account, credits: 0 };
  // The account was deleted while this token lived (a call racing the deletion; later ones stop at userRoute).
  if (created === 'deleted') throw new Unauthorized(Messages.accountDeleted);
  const winner = await deps.accounts.get(caller.sub);
  if (!winner || winner.deleting) throw new Unauthorized(Messages.accountDeleted);
  return winner;
}
