/**
 * What happens beside the people: webhooks delivered in any order and more than once, the table's stream, a kill -9
 * (in-memory: at the k-th port call of the next use case, before or after its effect; on the stack: the whole stack,
 * then a restart), the reconcilers' scheduled runs, and a drain (time passes until everything settles).
 */
import fc from 'fast-check';
import { index, step } from './step';

export const systemSteps = [
  step({ name: 'deliverWebhook', weight: 8, needs: ['deliverWebhook'], args: fc.record({ which: index, keep: fc.boolean() }), run: (w, a) => w.deliverWebhook!(a.which, a.keep) }),
  step({ name: 'stream', weight: 3, leavesPlans: true, needs: ['stream'], args: fc.constant(null), run: (w) => w.stream!() }),
  step({
    name: 'crash',
    weight: 3,
    args: fc.record({ k: fc.integer({ min: 1, max: 6 }), after: fc.boolean(), target: fc.constantFrom('user', 'paypal-webhook', 'replicate-webhook', 'background' as const) }),
    run: (w, a) => w.crash(a.k, a.after, a.target),
  }),
  step({ name: 'reconcile', weight: 1, args: fc.constant(null), run: (w) => w.reconcile() }),
  step({ name: 'drain', weight: 1, settles: true, args: fc.constant(null), run: (w) => w.drain() }),
];
