import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as path from 'node:path';
import { readSettings, REPO_ROOT } from '../../lib/settings';
import { resourcesOfType, synthTemplate, type Synthesized } from './synth';

describe('prod stage', () => {
  let synth: Synthesized & { template: Template };
  let template: Template;
  beforeAll(() => {
    synth = synthTemplate({ context: { stage: 'prod', senderEmail: 'hello@framewright.app', supportEmail: 'support@framewright.app' } });
    template = synth.template;
  });
  afterAll(() => synth.cleanup());

  it('is the Framewright-prod stack', () => {
    expect(synth.stack.stackName).toBe('Framewright-prod');
  });

  it('keeps users, data and media when the stack goes away', () => {
    template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain', Properties: { DeletionProtection: 'ACTIVE' } });
    template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
    for (const [id, bucket] of resourcesOfType(template, 'AWS::S3::Bucket')) {
      expect({ id, policy: bucket.DeletionPolicy }).toEqual({ id, policy: 'Retain' });
    }
    template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });

  it('sends from the configured addresses', () => {
    template.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'hello@framewright.app' });
    template.hasResourceProperties('AWS::SecretsManager::Secret', { Name: 'framewright/prod/app' });
    const fn = resourcesOfType(template, 'AWS::Lambda::Function').find(([, f]) => f.Properties!.Description === 'GET /api/health');
    expect(fn?.[1].Properties!.Environment.Variables).toMatchObject({
      SES_FROM_ADDRESS: 'hello@framewright.app',
      SUPPORT_EMAIL: 'support@framewright.app',
    });
  });
});

describe('settings from context', () => {
  const settings = (context: Record<string, string>) => readSettings(new App({ context }));

  it('defaults to dev, the example sender and web/dist', () => {
    expect(settings({})).toEqual({
      stage: 'dev',
      senderEmail: 'no-reply@example.com',
      supportEmail: 'no-reply@example.com',
      webDist: path.join(REPO_ROOT, 'web', 'dist'),
    });
  });

  it('refuses an unknown stage or a malformed address', () => {
    expect(() => settings({ stage: 'staging' })).toThrow('Context "stage" must be one of dev, prod (got "staging")');
    expect(() => settings({ senderEmail: 'nobody' })).toThrow('Context "senderEmail" must be an email address');
  });
});
