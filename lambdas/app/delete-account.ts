import { DELETED_ACCOUNT_TOMBSTONE_SECONDS } from '../../contract/auth';
import { Messages } from '../../contract/errors';
import { AppError, Conflict } from '../domain/errors';
import { ErrorCode } from '../../contract/errors';
import { objectKeys } from '../domain/keys';
import type { AccountData, UserDirectory } from '../ports/account-data';
import type { MediaStore } from '../ports/media-store';
import { PaymentProviderUnavailable, PaymentRefused } from '../ports/payments';
import type { SubscriptionProvider, SubscriptionStore } from '../ports/subscriptions';
import { cancelAtPaypal } from './steps/subscription-payments';

/** Deleting an account needs the password typed this recently (the token's auth_time). */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;

export interface DeleteAccountDeps {
  data: AccountData;
  store: MediaStore;
  users: UserDirectory;
  /** The account's plan, cancelled at PayPal before anything is erased. */
  subscriptions: Pick<SubscriptionStore, 'get'>;
  subscriptionProvider: () => Promise<SubscriptionProvider>;
  now: () => Date;
  log: (message: string, details: Record<string, unknown>) => void;
}

export interface Caller {
  sub: string;
  username: string;
  /** Epoch seconds of the last password sign-in (the ID token's auth_time). */
  authTime: number;
}

/**
 * DELETE /api/me: removes every table item of the caller (account, ledger, media, payment copies, jobs, shares,
 * connections, counters), every object under their prefix, then the Cognito user: each step can run again, so a
 * request that fails half way is finished by the next. Orders stay for accounting without the user; the welcome mark
 * stays (it holds only a keyed hash of the address), and so does a tombstone of the sub until every token issued before
 * outlives its expiry (DELETED_ACCOUNT_TOMBSTONE_SECONDS): no call with one makes the account again. Refused while a
 * generation runs: its result would be saved after. Before anything is erased the account is marked as being deleted,
 * which refuses every later charge: a generation racing the deletion either was charged first (and the deletion waits
 * for it) or is refused with a 409.
 *
 * No one is billed without an account: the plan (active or suspended) is cancelled at PayPal first; while PayPal cannot
 * be reached the answer is 503 (Messages.deletePlanUnavailable) and nothing is erased. A plan we hold as pending is
 * cancelled too: the buyer may have approved it a moment ago. One still waiting for approval cannot be cancelled at
 * PayPal: approved after the deletion, it is refused when it activates (cancelled and refunded), and so is any payment
 * that still arrives for the account (steps/subscription-payments).
 */
export async function deleteAccount(deps: DeleteAccountDeps, me: Caller): Promise<void> {
  const age = deps.now().getTime() / 1000 - me.authTime;
  if (!me.authTime || age > FRESH_SIGN_IN_SECONDS || age < -60) {
    throw new AppError(ErrorCode.Forbidden, Messages.confirmPasswordToDelete, { reason: 'stale-sign-in' });
  }
  const data = await deps.data.collect(me.sub);
  if ((await deps.data.countOpenJobs(data.jobIds)) > 0) throw new Conflict(Messages.deleteWhileRunning);
  await cancelPlan(deps, me.sub);
  // From here no generation can be charged; one charged since `collect` holds a place in activeJobs and refuses the mark.
  if (!(await deps.data.markDeleting(me.sub))) throw new Conflict(Messages.deleteWhileRunning);
  const tombstoneTtl = Math.floor(deps.now().getTime() / 1000) + DELETED_ACCOUNT_TOMBSTONE_SECONDS;
  await deps.data.erase(me.sub, data, tombstoneTtl);
  // A first GET /api/me racing this deletion may have made the account after `collect`: the erasure's last transaction
  // deleted the account item anyway, and from then on the tombstone refuses a new one; what else that call wrote (its
  // welcome ledger row) goes now.
  const late = await deps.data.collect(me.sub);
  if (late.userItems.length) await deps.data.erase(me.sub, late, tombstoneTtl);
  await deps.store.removeAll(objectKeys.userPrefix(me.sub));
  await deps.users.deleteUser(me.username);
}

async function cancelPlan(deps: DeleteAccountDeps, sub: string): Promise<void> {
  const plan = await deps.subscriptions.get(sub);
  if (!plan || plan.status === 'cancelled') return;
  try {
    await cancelAtPaypal(await deps.subscriptionProvider(), plan.id, 'The account was deleted');
  } catch (err) {
    if (err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused) {
      // A plan still pending here may have been approved a moment ago (we have not heard yet): cancelled above if so.
      // Not reachable now, it is refused when it activates, like any approved after the deletion.
      if (plan.status === 'pending') {
        deps.log('A pending plan could not be cancelled at PayPal; refused if it activates', { owner: sub, id: plan.id, error: err.message });
        return;
      }
      deps.log('The plan could not be cancelled at PayPal: the account is not deleted', { owner: sub, id: plan.id, error: err.message });
      throw new AppError(ErrorCode.Unavailable, Messages.deletePlanUnavailable);
    }
    throw err;
  }
}
