import { PASSWORD_POLICY } from '../../contract/auth';
import { logicalId, resourcesOfType, synthForSuite, TRACING_ACTIONS } from './synth';

describe('Auth: user pool and web client', () => {
  const synth = synthForSuite();

  it('signs users up by email with a verified address and the contract password policy', () => {
    synth.template.hasResourceProperties('AWS::Cognito::UserPool', {
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

  it('has the CustomMessage trigger write the emails, with links to the site', () => {
    const pool = synth.template.toJSON().Resources[logicalId(synth.template, 'AWS::Cognito::UserPool', 'Auth')];
    const fnId = logicalId(synth.template, 'AWS::Lambda::Function', 'AuthCustomMessage');
    const preSignUpId = logicalId(synth.template, 'AWS::Lambda::Function', 'AuthPreSignUp');
    expect(pool.Properties.LambdaConfig).toEqual({ CustomMessage: { 'Fn::GetAtt': [fnId, 'Arn'] }, PreSignUp: { 'Fn::GetAtt': [preSignUpId, 'Arn'] } });
    // The synth.template is what Cognito sends for the flows the trigger leaves alone.
    expect(pool.Properties.VerificationMessageTemplate).toMatchObject({
      DefaultEmailOption: 'CONFIRM_WITH_CODE',
      EmailMessage: expect.stringContaining('{####}'),
    });

    const fn = synth.template.toJSON().Resources[fnId];
    const distribution = logicalId(synth.template, 'AWS::CloudFront::Distribution', 'Site');
    expect(fn.Properties).toMatchObject({
      Runtime: 'nodejs24.x',
      Architectures: ['arm64'],
      Environment: {
        Variables: {
          APP_URL: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distribution, 'DomainName'] }]] },
          NODE_OPTIONS: '--enable-source-maps',
        },
      },
    });
    synth.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [fnId, 'Arn'] },
      Principal: 'cognito-idp.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [logicalId(synth.template, 'AWS::Cognito::UserPool', 'Auth'), 'Arn'] },
    });
    // It needs nothing but its logs.
    const roleId: string = fn.Properties.Role['Fn::GetAtt'][0];
    const actions = resourcesOfType(synth.template, 'AWS::IAM::Policy')
      .filter(([, p]) => p.Properties!.Roles.some((r: any) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement.flatMap((st: any) => [st.Action].flat()));
    expect(actions.sort()).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents', ...TRACING_ACTIONS].sort());
  });

  it('sends with Cognito\'s own email until told to use SES', () => {
    synth.template.hasResourceProperties('AWS::Cognito::UserPool', { EmailConfiguration: { EmailSendingAccount: 'COGNITO_DEFAULT' } });
  });

  it('has a public web client: SRP only, no OAuth, 1 h tokens, 30 day refresh', () => {
    const clients = resourcesOfType(synth.template, 'AWS::Cognito::UserPoolClient');
    expect(clients).toHaveLength(1);
    expect(clients[0]![1].Properties).toEqual({
      UserPoolId: { Ref: logicalId(synth.template, 'AWS::Cognito::UserPool', 'Auth') },
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      AllowedOAuthFlowsUserPoolClient: false,
      SupportedIdentityProviders: ['COGNITO'],
      PreventUserExistenceErrors: 'ENABLED',
      RefreshTokenValidity: 43200,
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      TokenValidityUnits: { RefreshToken: 'minutes', IdToken: 'minutes', AccessToken: 'minutes' },
    });
  });

  it('is deletable in dev', () => {
    synth.template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Delete', Properties: { DeletionProtection: 'INACTIVE' } });
  });
});

describe('Auth with SES as the sender', () => {
  const synth = synthForSuite({
    context: { cognitoEmail: 'ses', senderEmail: 'hello@framewright.app', senderDomain: 'framewright.app' },
  });

  it('sends from the app address through the verified domain once told to', () => {
    const { template } = synth;
    const poolId = logicalId(template, 'AWS::Cognito::UserPool', 'Auth');
    const pool = template.toJSON().Resources[poolId];
    expect(pool.Properties.EmailConfiguration).toEqual({
      EmailSendingAccount: 'DEVELOPER',
      From: 'Framewright <hello@framewright.app>',
      SourceArn: {
        'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:eu-west-1:', { Ref: 'AWS::AccountId' }, ':identity/framewright.app']],
      },
    });
    // Cognito checks the identity when it saves the pool: the mail stack's, verified before; never one made here.
    template.resourceCountIs('AWS::SES::EmailIdentity', 0);
  });
});
