import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { AwsSolutionsChecks } from 'cdk-nag';
import { makeApp } from './synth';

/**
 * cdk-nag 3 is a policy-validation plugin: findings are not annotations but entries of the cloud
 * assembly's validation report (validation-report.json), next to CloudFormation's own checks.
 */
interface ValidationReport {
  pluginReports: {
    pluginName: string;
    violations?: { ruleName: string; severity: string; violatingConstructs?: { constructPath?: string }[] }[];
  }[];
}

// Keep failures readable: "<plugin> <rule> at <path>" per finding.
function findings(outdir: string): string[] {
  const report = JSON.parse(fs.readFileSync(path.join(outdir, 'validation-report.json'), 'utf8')) as ValidationReport;
  return report.pluginReports.flatMap((plugin) =>
    (plugin.violations ?? []).flatMap((v) =>
      (v.violatingConstructs ?? [{}]).map((c) => `${plugin.pluginName} ${v.ruleName} (${v.severity}) at ${c.constructPath ?? '?'}`),
    ),
  );
}

// Report instead of throwing, so that a failure lists every finding.
const REPORT_ONLY = { '@aws-cdk/core:failSynthOnValidationErrors': false };

describe('cdk-nag AwsSolutions and CloudFormation validation', () => {
  it.each([
    ['dev', {}],
    ['prod, with a domain sender and Cognito mailing through SES', { stage: 'prod', senderEmail: 'hello@framewright.app', senderDomain: 'framewright.app', supportEmail: 'help@framewright.app', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000' }],
  ])('leaves no unacknowledged finding on the %s stack', (_name, context) => {
    const synth = makeApp({ validate: true, context: { ...REPORT_ONLY, ...context } });
    try {
      synth.app.synth();
      expect(findings(synth.outdir)).toEqual([]);
    } finally {
      synth.cleanup();
    }
  });

  it('does report what it finds (the check above can fail)', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-nag-canary-'));
    try {
      const app = new App({ outdir, context: REPORT_ONLY, builtinCloudFormationValidation: false });
      new s3.Bucket(new Stack(app, 'Canary'), 'Unlogged');
      Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
      app.synth();
      expect(findings(outdir)).toEqual(expect.arrayContaining([expect.stringMatching(/AwsSolutions-S1 .* at Canary\/Unlogged/)]));
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});
