/**
 * Every command family of the money simulation. A new lifecycle that moves money adds its steps to a family (or a
 * new file here) and, if it needs one, an operation on `World` with its in-memory and stack implementations.
 */
import { accountSteps } from './accounts';
import { generationSteps } from './generations';
import { packSteps } from './packs';
import { planSteps } from './plans';
import type { Step } from './step';
import { systemSteps } from './system';

export const FAMILIES: ReadonlyArray<ReadonlyArray<Step<any>>> = [accountSteps, packSteps, planSteps, generationSteps, systemSteps]; // eslint-disable-line @typescript-eslint/no-explicit-any
