export interface Account {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  createdAt: string;
  credits: number;
  /** Being deleted (DELETE /api/me marked it): no charge is taken, and the owner's calls are answered as deleted. */
  deleting?: boolean;
}

export interface AccountStore {
  /** A strongly consistent read of the account, or undefined. */
  get(sub: string): Promise<Account | undefined>;
  /**
   * Creates the account with its welcome credits, the matching ledger row and a mark on its email address (lower-case)
   * in one transaction. An address that already had its welcome credits (an account deleted and made again) gets the
   * account with 0 credits instead: 'no-welcome'. 'exists' when the account already existed, 'deleted' when the sub's
   * account was deleted (its tombstone is checked in the same transaction): nothing is written then.
   */
  createWithWelcome(account: Account): Promise<'created' | 'no-welcome' | 'exists' | 'deleted'>;
  /** True while the sub's account is deleted (its tombstone is there), read strongly consistent. */
  isDeleted(sub: string): Promise<boolean>;
  /** The balance alone (0 without an account), read strongly consistent. */
  balance(sub: string): Promise<number>;
}
