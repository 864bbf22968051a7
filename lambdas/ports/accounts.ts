export interface Account {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  createdAt: string;
  credits: number;
}

export interface AccountStore {
  /** A strongly consistent read of the account, or undefined. */
  get(sub: string): Promise<Account | undefined>;
  /**
   * Creates the account with its welcome credits and the matching ledger row in one transaction.
   * Returns false when the account already existed (nothing is written then).
   */
  createWithWelcome(account: Account): Promise<boolean>;
  /** The balance alone (0 without an account), read strongly consistent. */
  balance(sub: string): Promise<number>;
}
