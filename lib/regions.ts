import REGION_RESOURCES from './region-resources.json';
import { SettingsError } from './settings';

/**
 * Which regions lack each CloudFormation resource type the templates use (lib/region-resources.json, made by
 * scripts/region-resources.py from cfn-lint's per-region resource schemas). CloudFormation refuses a template with
 * a type its region does not have only at deploy, after synth succeeded: this turns that into a synth-time answer.
 */
const missing: Record<string, readonly string[]> = REGION_RESOURCES.missing;

/**
 * Types the stack can do without, and what is left out: a region without them gets a stack without them (synth
 * says so). Every other type is needed; a region without one stops the synth.
 */
export const OPTIONAL_RESOURCES: Record<string, string> = {
  'AWS::Budgets::Budget': 'the monthly AWS Budget and its alerts (create one in the Billing console: docs/deploy.md)',
};

/** The regions the table knows (every region of the standard partition cfn-lint had a schema for). */
export const KNOWN_REGIONS: readonly string[] = REGION_RESOURCES.regions;

/** The resource types the table was made from (test/infra/regions.test.ts checks the templates use no other). */
export const KNOWN_TYPES: readonly string[] = REGION_RESOURCES.types;

/** Whether CloudFormation in `region` has resource `type` (a region the table does not know is assumed to). */
export function regionHas(region: string, type: string): boolean {
  return !(missing[type] ?? []).includes(region);
}

/** Stops with one line when `region` lacks a resource type the stack cannot do without. */
export function assertRegionSupported(region: string): void {
  const lacking = Object.keys(missing).filter((type) => !(type in OPTIONAL_RESOURCES) && !regionHas(region, type));
  if (lacking.length > 0) {
    throw new SettingsError(`Region ${region} has no ${lacking.join(', ')} in CloudFormation, which the stack needs: deploy to another region (AWS_REGION or -c region=...)`);
  }
}
