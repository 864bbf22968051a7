/**
 * Secrets in the template: no function's environment holds a value (only a secret's ARN), each function that reads a
 * secret may read exactly that one, CloudFront's origin header is the origin secret's value at the first deploy, and the
 * rotation function owns it afterwards.
 */
import { LIVE_ROUTES } from '../../contract/live';
import { BACKGROUND_FUNCTIONS, ORIGIN_SECRET_ROTATION } from '../../contract/functions';
import { ALL_ROUTES as ROUTES } from '../../contract/routes';
import { logicalId, permissionsOf, resourcesOfType, synthForSuite } from './synth';

const json = (v: unknown) => JSON.stringify(v);

describe('secrets in the template', () => {
  const synth = synthForSuite();
  const functions = () => resourcesOfType(synth.template, 'AWS::Lambda::Function').filter(([, f]) => f.Properties?.Environment?.Variables?.TABLE_NAME);
  const secretRef = (prefix: string) => ({ Ref: logicalId(synth.template, 'AWS::SecretsManager::Secret', prefix) });

  it('puts no resolved secret in any function environment', () => {
    expect(functions().length).toBeGreaterThan(ROUTES.length);
    for (const [id, f] of resourcesOfType(synth.template, 'AWS::Lambda::Function')) {
      expect({ id, env: json(f.Properties?.Environment ?? {}) }).not.toEqual({ id, env: expect.stringContaining('{{resolve:secretsmanager') });
      expect({ id, env: json(f.Properties?.Environment ?? {}) }).not.toEqual({ id, env: expect.stringContaining('{{resolve:ssm-secure') });
    }
    // The variables that once carried values are gone.
    for (const [, f] of functions()) {
      expect(f.Properties!.Environment.Variables).not.toHaveProperty('ORIGIN_VERIFY_SECRET');
      expect(f.Properties!.Environment.Variables).not.toHaveProperty('WELCOME_HASH_KEY');
    }
  });

  it('names each secret a function reads by its ARN, and lets it read exactly that secret', () => {
    const secrets = { SECRETS_ARN: secretRef('Secrets'), ORIGIN_SECRET_ARN: secretRef('Origin'), WELCOME_HASH_KEY_ARN: secretRef('WelcomeHash'), CONTENT_CREDENTIALS_ARN: secretRef('ContentCredentials') };
    const readers: Record<string, number> = {};
    for (const [id, f] of functions()) {
      const env = f.Properties!.Environment.Variables;
      const named = Object.entries(secrets).filter(([key]) => env[key]);
      for (const [key, ref] of named) {
        expect({ id, key, value: env[key] }).toEqual({ id, key, value: ref });
        readers[key] = (readers[key] ?? 0) + 1;
      }
      // GetSecretValue on the named secrets and on nothing else.
      const reads = permissionsOf(synth.template, id).get('secretsmanager:GetSecretValue') ?? [];
      expect({ id, reads: [...new Set(reads)].sort() }).toEqual({ id, reads: [...new Set(named.map(([, ref]) => json(ref)))].sort() });
    }
    // Every route and the push channel's $connect check the origin header; the rotation reads it too.
    expect(readers.ORIGIN_SECRET_ARN).toBe(ROUTES.length + LIVE_ROUTES.filter((r) => r.grants.includes('secret:origin')).length + 1);
    expect(readers.WELCOME_HASH_KEY_ARN).toBe(ROUTES.filter((r) => r.grants.includes('secret:welcome-hash')).length);
    expect(readers.WELCOME_HASH_KEY_ARN).toBeGreaterThan(0);
    // The content-credentials signer: only the functions that save results (the stream's save and the reconciler's).
    expect(readers.CONTENT_CREDENTIALS_ARN).toBe(BACKGROUND_FUNCTIONS.filter((f) => f.grants.includes('secret:content-credentials')).length);
    expect(BACKGROUND_FUNCTIONS.filter((f) => f.grants.includes('secret:content-credentials')).map((f) => f.id).sort()).toEqual(['reconcileJobs', 'saveJobOutput']);
    synth.template.hasResourceProperties('AWS::SecretsManager::Secret', { Name: 'framewright/dev/content-credentials' });
  });

  it("gives CloudFront's API origins the origin secret's value of the first deploy, as a reference", () => {
    const originSecret = logicalId(synth.template, 'AWS::SecretsManager::Secret', 'Origin');
    synth.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      Name: 'framewright/dev/origin-verify',
      GenerateSecretString: { GenerateStringKey: 'header', SecretStringTemplate: '{}', PasswordLength: 48, ExcludePunctuation: true },
    });
    const config = resourcesOfType(synth.template, 'AWS::CloudFront::Distribution')[0]![1].Properties!.DistributionConfig;
    const withHeader = config.Origins.filter((o: any) => (o.OriginCustomHeaders ?? []).some((h: any) => h.HeaderName === 'x-origin-verify'));
    // Both execute-api origins (the HTTP API and the push channel's WebSocket API).
    expect(withHeader).toHaveLength(2);
    for (const o of withHeader) {
      const value = json(o.OriginCustomHeaders.find((h: any) => h.HeaderName === 'x-origin-verify').HeaderValue);
      expect(value).toContain('{{resolve:secretsmanager:');
      expect(value).toContain(originSecret);
      expect(value).toContain(':SecretString:header::}}');
    }
  });

  it('rotates the origin secret every 30 days with its function, which may change only that secret and that distribution', () => {
    const originSecret = secretRef('Origin');
    const distribution = logicalId(synth.template, 'AWS::CloudFront::Distribution', 'Site');
    const [rotationId, rotation] = resourcesOfType(synth.template, 'AWS::Lambda::Function').find(
      ([, f]) => f.Properties?.Description === ORIGIN_SECRET_ROTATION.description,
    )!;
    synth.template.hasResourceProperties('AWS::SecretsManager::RotationSchedule', {
      SecretId: originSecret,
      RotationLambdaARN: { 'Fn::GetAtt': [rotationId, 'Arn'] },
      RotationRules: { ScheduleExpression: 'rate(30 days)' },
      RotateImmediatelyOnUpdate: false,
    });
    synth.template.hasResourceProperties('AWS::Lambda::Permission', {
      FunctionName: { 'Fn::GetAtt': [rotationId, 'Arn'] },
      Principal: 'secretsmanager.amazonaws.com',
      Action: 'lambda:InvokeFunction',
    });
    const env = rotation.Properties!.Environment.Variables;
    expect(env.DISTRIBUTION_ID).toEqual({ Ref: distribution });
    expect(json(env.ORIGIN_TEST_URL)).toContain('/api/health');
    expect(rotation.Properties!.Timeout).toBe(ORIGIN_SECRET_ROTATION.timeoutSeconds);

    const permissions = permissionsOf(synth.template, rotationId);
    const onSecret = ['secretsmanager:DescribeSecret', 'secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue', 'secretsmanager:UpdateSecretVersionStage'];
    for (const action of onSecret) expect({ action, on: permissions.get(action) }).toEqual({ action, on: [json(originSecret)] });
    for (const action of ['cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution']) {
      const on = permissions.get(action) ?? [];
      expect({ action, count: on.length }).toEqual({ action, count: 1 });
      expect(on[0]).toContain(distribution);
    }
    expect([...permissions.keys()].filter((a) => !a.startsWith('logs:')).sort()).toEqual([...onSecret, 'cloudfront:GetDistributionConfig', 'cloudfront:UpdateDistribution'].sort());
  });
});
