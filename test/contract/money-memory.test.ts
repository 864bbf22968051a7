/** The money ports' contract (money.contract.ts) on the in-memory fakes the use-case tests use: no stack. */
import { expectBooksBalanced, MemoryCredits } from '../support/fakes/credits';
import { MemoryJobs, MemoryMedia } from '../support/fakes/jobs';
import { MemoryOrders } from '../support/fakes/payments';
import { MemorySubscriptions } from '../support/fakes/subscriptions';
import { describeMoneyContract } from './money.contract';

describeMoneyContract('in memory', () => {
  const credits = new MemoryCredits();
  const orders = new MemoryOrders(credits);
  return {
    accounts: credits,
    jobs: new MemoryJobs(credits, new MemoryMedia(), () => new Date()),
    orders,
    subscriptions: new MemorySubscriptions(credits, orders),
    ledger: credits,
    // As AccountData.markDeleting: refused while a job of the account is running.
    async markDeleting(sub) {
      const account = credits.accounts.get(sub);
      if (account && account.activeJobs > 0) return false;
      if (account) account.deleting = true;
      return true;
    },
    async expectBooksBalanced() {
      expectBooksBalanced(credits);
    },
  };
});
