/**
 * Credit packs at PayPal (Orders v2): buy with the buyer's funding decision (approve, held as pending, declined,
 * instrument declined, cancelled, abandoned), the return from PayPal's page, and what PayPal does after (refund,
 * reversal, dispute, a held capture completed or denied).
 */
import fc from 'fast-check';
import { PACK_DECISIONS } from '../world';
import { index, step } from './step';

export const packSteps = [
  step({
    name: 'buyPack',
    weight: 4,
    args: fc.record({ who: index, pack: fc.nat({ max: 2 }), decision: fc.constantFrom(...PACK_DECISIONS) }),
    run: (w, a) => w.buyPack(a.who, a.pack, a.decision),
  }),
  step({ name: 'comeBack', weight: 2, needs: ['comeBack'], args: fc.record({ which: index }), run: (w, a) => w.comeBack!(a.which) }),
  step({
    name: 'afterPurchase',
    weight: 2,
    args: fc.record({ which: index, action: fc.constantFrom('refund', 'reverse', 'dispute', 'complete-pending', 'deny-pending' as const) }),
    run: (w, a) => w.afterPurchase(a.which, a.action),
  }),
];
