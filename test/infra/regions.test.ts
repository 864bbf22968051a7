import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KNOWN_REGIONS, KNOWN_TYPES } from '../../lib/regions';
import REGION_RESOURCES from '../../lib/region-resources.json';
import { SettingsError } from '../../lib/settings';
import { makeApp } from './synth';

const ACCOUNT = '123456789012';
const REPORT_ONLY = { '@aws-cdk/core:failSynthOnValidationErrors': false };
const cfnLint = spawnSync('cfn-lint', ['--version'], { encoding: 'utf8' }).status === 0;

/** cdk-nag's findings in the cloud assembly's validation report, as "<rule> at <path>". */
function nagFindings(outdir: string): string[] {
  const report = JSON.parse(fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as {
    pluginReports: { violations?: { ruleName: string; violatingConstructs?: { constructPath?: string }[] }[] }[];
  };
  return report.pluginReports.flatMap((p) => (p.violations ?? []).flatMap((v) => (v.violatingConstructs ?? [{}]).map((c) => `${v.ruleName} at ${c.constructPath ?? '?'}`)));
}

const templatesOf = (outdir: string) => fs.readdirSync(outdir).filter((f) => f.endsWith('.template.json')).map((f) => path.join(outdir, f));

describe.each([
  ['us-east-1', 'a standard region'],
  ['af-south-1', 'an opt-in region without AWS Budgets'],
])('synth with a real account id in %s (%s)', (region) => {
  const synth = {} as ReturnType<typeof makeApp> & { warnings: string[] };
  beforeAll(() => {
    Object.assign(synth, makeApp({ validate: true, account: ACCOUNT, context: { ...REPORT_ONLY, region, stage: 'prod', alarmEmail: 'ops@framewright.app', cognitoEmail: 'ses', accountConcurrency: '1000' } }));
    const assembly = synth.app.synth();
    synth.warnings = assembly.stacks.flatMap((s) => s.messages.filter((m) => m.level === 'warning').map((m) => String(m.entry.data)));
  });
  afterAll(() => synth.cleanup?.());

  it('leaves no cdk-nag finding unacknowledged (the account is written out, not a token)', () => {
    expect(synth.stack.account).toBe(ACCOUNT);
    expect(nagFindings(synth.outdir)).toEqual([]);
  });

  it('uses only resource types the region table knows, and has none its region lacks (or says what it left out)', () => {
    const types = new Set(
      templatesOf(synth.outdir).flatMap((f) => Object.values((JSON.parse(fs.readFileSync(f, 'utf8')) as { Resources: Record<string, { Type: string }> }).Resources).map((r) => r.Type)),
    );
    const missing = REGION_RESOURCES.missing as Record<string, string[]>;
    for (const type of types) {
      if (!type.startsWith('AWS::') || type === 'AWS::CDK::Metadata') continue;
      expect(KNOWN_TYPES).toContain(type);
    }
    const appTemplate = JSON.parse(fs.readFileSync(path.join(synth.outdir, synth.stack.templateFile), 'utf8')) as { Resources: Record<string, { Type: string }> };
    const appTypes = Object.values(appTemplate.Resources).map((r) => r.Type);
    for (const type of appTypes) expect({ type, lackedBy: (missing[type] ?? []).includes(region) }).toEqual({ type, lackedBy: false });
    const budgetLacking = (missing['AWS::Budgets::Budget'] ?? []).includes(region);
    expect(appTypes.includes('AWS::Budgets::Budget')).toBe(!budgetLacking);
    expect(synth.warnings.some((w) => w.includes(`${region} has no AWS::Budgets::Budget`))).toBe(budgetLacking);
  });

  (cfnLint ? it : it.skip)(`passes cfn-lint for its region, 0 errors (warnings acknowledged in .cfnlintrc)`, () => {
    const edge = templatesOf(synth.outdir).filter((f) => f.includes('-edge.'));
    const app = templatesOf(synth.outdir).filter((f) => !f.includes('-edge.'));
    for (const [templates, lintRegion] of [[app, region], [edge, 'us-east-1']] as const) {
      const run = spawnSync('cfn-lint', ['--regions', lintRegion, '--', ...templates], { cwd: path.resolve(__dirname, '../..'), encoding: 'utf8' });
      expect({ status: run.status, output: run.stdout + run.stderr }).toEqual({ status: 0, output: '' });
    }
  });
});

describe('regions the stack cannot live in', () => {
  it('stops with one line naming what the region lacks', () => {
    const lacking = KNOWN_REGIONS.find((r) => (REGION_RESOURCES.missing as Record<string, string[]>)['AWS::ApiGatewayV2::Api']?.includes(r));
    expect(lacking).toBeDefined();
    expect(() => makeApp({ account: ACCOUNT, context: { region: lacking } })).toThrow(SettingsError);
    expect(() => makeApp({ account: ACCOUNT, context: { region: lacking } })).toThrow(new RegExp(`^Region ${lacking} has no AWS::ApiGatewayV2::Api.*[^\\n]$`));
  });
});
