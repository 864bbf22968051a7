/**
 * Plans (PayPal Subscriptions): subscribe (again: a second tab), approve the latest or an earlier approval page, what
 * PayPal does on its side (bill a month, fail one, suspend, reactivate, cancel), change plan, cancel from the app, and
 * a sale refunded or reversed.
 */
import fc from 'fast-check';
import { index, step } from './step';

const plan = fc.nat({ max: 2 });

export const planSteps = [
  step({ name: 'subscribe', weight: 3, args: fc.record({ who: index, plan }), run: (w, a) => w.subscribe(a.who, a.plan) }),
  step({
    name: 'approvePlan',
    weight: 3,
    args: fc.record({ who: index, page: fc.constantFrom('latest', 'latest', 'earlier' as const) }),
    run: (w, a) => w.approvePlan(a.who, a.page),
  }),
  step({
    name: 'atPaypal',
    weight: 4,
    args: fc.record({ who: index, action: fc.constantFrom('bill', 'bill', 'fail', 'suspend', 'reactivate', 'cancel' as const) }),
    run: (w, a) => w.atPaypal(a.who, a.action),
  }),
  step({
    name: 'twoTabs',
    weight: 1,
    args: fc.record({ who: index, first: plan, second: plan }),
    run: async (w, a) => {
      // Subscribe in one tab, then in another (or go back and pick another plan), and approve both PayPal pages.
      await w.subscribe(a.who, a.first);
      await w.subscribe(a.who, a.second);
      await w.approvePlan(a.who, 'latest');
      await w.approvePlan(a.who, 'earlier');
    },
  }),
  step({ name: 'changePlan', weight: 1, args: fc.record({ who: index, plan, approve: fc.boolean() }), run: (w, a) => w.changePlan(a.who, a.plan, a.approve) }),
  step({ name: 'cancelPlan', weight: 1, args: fc.record({ who: index }), run: (w, a) => w.cancelPlan(a.who) }),
  step({ name: 'refundSale', weight: 1, args: fc.record({ which: index, reverse: fc.boolean() }), run: (w, a) => w.refundSale(a.which, a.reverse) }),
];
