/** Everything the table holds of one user, found from their own partition (no scan). */
export interface UserData {
  /** Sort keys of every item under `USER#<sub>` (account, ledger, media, payment copies, counters, connections...). */
  userItems: string[];
  /** Their jobs (`JOB#<id>`), named by the ledger rows that charged them. */
  jobIds: string[];
  /** Their orders (`ORDER#<id>`), named by their payment copies: kept for accounting, without the user. */
  orderIds: string[];
  /** Their share links (`SHARE#<token>`), named by their media items. */
  shareTokens: string[];
  /** Their push-channel connections (`CONN#<id>`/`CONN`). */
  connectionIds: string[];
}

export interface AccountData {
  collect(sub: string): Promise<UserData>;
  /** How many of these jobs have not ended (a running job would save its result after the erasure). */
  countOpenJobs(jobIds: readonly string[]): Promise<number>;
  /**
   * Marks the account as being deleted, unless a job of the user is running (its activeJobs): false then. From the
   * mark on, every charge is refused (the credit change's condition), so no generation starts for an account that is
   * about to go; a charge made before it holds a place in activeJobs, which makes the mark wait. Idempotent; an
   * account not made yet is made marked, so a first generation racing the deletion cannot make it either.
   */
  markDeleting(sub: string): Promise<boolean>;
  /**
   * Deletes every item of `data` and strips the orders of the user: owner, approval and return links go; the order id,
   * pack, amount, currency, credits, dates, status, PayPal's capture and refund ids stay. The account item goes last,
   * in one transaction with the sub's tombstone (kept until `tombstoneTtl`, epoch seconds), so from that moment no
   * account can be made for the sub. Idempotent.
   */
  erase(sub: string, data: UserData, tombstoneTtl: number): Promise<void>;
}

/** The user pool. */
export interface UserDirectory {
  /** Deletes the user (AdminDeleteUser); one already gone counts as deleted. */
  deleteUser(username: string): Promise<void>;
}
