/**
 * Generations: start one (image, batch, video, 10 s clip, edit or upscale of a result) with a fault marker in its
 * prompt, Replicate ending a prediction, the owner cancelling a job (with or without accepting the charge), and the
 * status check that asks Replicate when the webhook is late.
 */
import fc from 'fast-check';
import { GENERATION_KINDS, MARKERS } from '../world';
import { index, step } from './step';

export const generationSteps = [
  step({
    name: 'generate',
    weight: 6,
    leavesPlans: true,
    args: fc.record({ who: index, kind: fc.constantFrom(...GENERATION_KINDS), marker: fc.constantFrom(...MARKERS), source: index }),
    run: (w, a) => w.generate(a.who, a.kind, a.marker, a.source),
  }),
  step({
    name: 'progress',
    weight: 6,
    leavesPlans: true,
    needs: ['progress'],
    args: fc.record({ which: index, outcome: fc.constantFrom('succeed', 'succeed', 'succeed', 'fail', 'cancel' as const) }),
    run: (w, a) => w.progress!(a.which, a.outcome),
  }),
  step({ name: 'cancelJob', weight: 2, leavesPlans: true, args: fc.record({ who: index, which: index, acceptCharge: fc.boolean() }), run: (w, a) => w.cancelJob(a.who, a.which, a.acceptCharge) }),
  step({ name: 'checkStatus', weight: 1, leavesPlans: true, needs: ['checkStatus'], args: fc.record({ which: index }), run: (w, a) => w.checkStatus!(a.which) }),
];
