import type { Template } from 'aws-cdk-lib/assertions';
import { PASSWORD_POLICY } from '../../contract/auth';
import { logicalId, synthTemplate, type Synthesized } from './synth';

describe('Auth: user pool and web client', () => {
  let synth: Synthesized & { template: Template };
  let template: Template;
  beforeAll(() => {
    synth = synthTemplate();
    template = synth.template;
  });
  afterAll(() => synth.cleanup());

  it('signs users up by email with a verified address and the contract password policy', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UsernameAttributes: ['email'],
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
      Policies: {
        PasswordPolicy: {
          MinimumLength: PASSWORD_POLICY.minLength,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: false,
        },
      },
      Schema: [
        { Name: 'email', Required: true, Mutable: true },
        { Name: 'given_name', Required: true, Mutable: true },
        { Name: 'family_name', Required: true, Mutable: true },
      ],
    });
  });

  it('emails a code and a one-click link to the /verify page of the site', () => {
    const pool = template.toJSON().Resources[logicalId(template, 'AWS::Cognito::UserPool', 'Auth')];
    const template_ = pool.Properties.VerificationMessageTemplate;
    expect(template_.DefaultEmailOption).toBe('CONFIRM_WITH_CODE');
    const [, parts] = template_.EmailMessage['Fn::Join'];
    const text = parts.map((p: unknown) => (typeof p === 'string' ? p : '<site>')).join('');
    expect(text).toContain('{####}');
    expect(text).toContain('https://<site>/verify?code={####}');
    const distribution = logicalId(template, 'AWS::CloudFront::Distribution', 'Site');
    expect(parts).toContainEqual({ 'Fn::GetAtt': [distribution, 'DomainName'] });
  });

  it('has a public web client: SRP and password flows, 1 h tokens, 30 day refresh', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      PreventUserExistenceErrors: 'ENABLED',
      RefreshTokenValidity: 43200,
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      TokenValidityUnits: { RefreshToken: 'minutes', IdToken: 'minutes', AccessToken: 'minutes' },
    });
  });

  it('is deletable in dev', () => {
    template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Delete', Properties: { DeletionProtection: 'INACTIVE' } });
  });
});
