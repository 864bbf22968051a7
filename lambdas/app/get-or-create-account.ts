import { SIGNUP_CREDITS } from '../../contract/catalog';
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
 * many first calls race: the losers of the race read the winner's account.
 */
export async function getOrCreateAccount(deps: GetAccountDeps, caller: Caller): Promise<Account> {
  const existing = await deps.accounts.get(caller.sub);
  if (existing) return existing;
  const account: Account = { ...caller, createdAt: deps.now().toISOString(), credits: SIGNUP_CREDITS };
  if (await deps.accounts.createWithWelcome(account)) return account;
  const winner = await deps.accounts.get(caller.sub);
  if (!winner) throw new Error(`Account ${caller.sub} vanished after a conditional create`);
  return winner;
}
