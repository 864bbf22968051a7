import * as fs from 'node:fs';
import * as os from 'node:os';
import { App } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';
import * as path from 'node:path';
import { ROUTES } from '../../contract/routes';
import { reservedConcurrencyOf } from '../../lib/constructs/concurrency';
import { readSettings, REPO_ROOT } from '../../lib/settings';
import { mailTemplate, resourcesOfType, synthForSuite, synthTemplate } from './synth';

// One prod synth for the file: the prod stage's own tests and the dev/prod comparison read it.
const prod = synthForSuite({ context: { stage: 'prod', senderEmail: 'hello@framewright.app', supportEmail: 'support@framewright.app', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000' } });

describe('prod stage', () => {
  it('is the Framewright-prod stack', () => {
    expect(prod.stack.stackName).toBe('Framewright-prod');
  });

  it('keeps users, data and media when the stack goes away', () => {
    prod.template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain', Properties: { DeletionProtection: 'ACTIVE' } });
    prod.template.hasResource('AWS::DynamoDB::Table', { DeletionPolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
    for (const [id, bucket] of resourcesOfType(prod.template, 'AWS::S3::Bucket')) {
      expect({ id, policy: bucket.DeletionPolicy }).toEqual({ id, policy: 'Retain' });
    }
    prod.template.resourceCountIs('Custom::S3AutoDeleteObjects', 0);
  });

  it('sends from the configured addresses', () => {
    mailTemplate(prod).hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'hello@framewright.app' });
    prod.template.hasResourceProperties('AWS::SecretsManager::Secret', { Name: 'framewright/prod/app' });
    const fn = resourcesOfType(prod.template, 'AWS::Lambda::Function').find(([, f]) => f.Properties!.Description === 'GET /api/health');
    expect(fn?.[1].Properties!.Environment.Variables).toMatchObject({
      SES_FROM_ADDRESS: 'hello@framewright.app',
      SUPPORT_EMAIL: 'support@framewright.app',
    });
  });

  it('may mail the support address while SES is in its sandbox, from the sender only', () => {
    const sendStatements = resourcesOfType(prod.template, 'AWS::IAM::Policy')
      .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement)
      .filter((st: any) => [st.Action].flat().includes('ses:SendEmail'));
    expect(sendStatements.length).toBeGreaterThan(0);
    const identityOf = (arn: any) => (typeof arn === 'string' ? arn : (arn['Fn::Join'][1] as unknown[]).at(-1));
    for (const st of sendStatements) {
      expect(st.Condition).toEqual({ StringEquals: { 'ses:FromAddress': 'hello@framewright.app' } });
      const resources = [st.Resource].flat();
      const isSender = (arn: any) => identityOf(arn) === ':identity/hello@framewright.app';
      expect(resources.filter(isSender)).toHaveLength(1);
      expect(resources.filter((r) => !isSender(r)).map(identityOf).sort()).toEqual([
        ':identity/framewright.app',
        ':identity/support@framewright.app',
      ]);
    }
  });

  it('gives no function a simulator, an emulator endpoint or a self-signed signer', () => {
    const env = resourcesOfType(prod.template, 'AWS::Lambda::Function').map(([, f]) => (f.Properties!.Environment?.Variables ?? {}) as Record<string, unknown>);
    const unsafe = env.flatMap((vars) =>
      Object.entries(vars).filter(([k, v]) => /^(AWS_ENDPOINT_URL|SIM_|PAYPAL_SIM|CONTENT_CREDENTIALS_FALLBACK|REPLICATE_BASE_URL)/.test(k) || /localhost|127\.0\.0\.1|sandbox\.paypal/.test(JSON.stringify(v))),
    );
    expect(unsafe).toEqual([]);
  });

  it('takes payments through live PayPal', () => {
    const paypal = resourcesOfType(prod.template, 'AWS::Lambda::Function')
      .map(([, f]) => f.Properties!.Environment?.Variables?.PAYPAL_BASE_URL)
      .filter(Boolean);
    expect(new Set(paypal)).toEqual(new Set(paypal.length ? ['https://api-m.paypal.com'] : []));
  });

  it('outputs what the deploy guide names', () => {
    const outputs = prod.template.toJSON().Outputs;
    expect(outputs.SecretName.Value).toBe('framewright/prod/app');
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['SiteUrl', 'ApiUrl', 'UserPoolId', 'UserPoolClientId', 'SecretName']));
    expect(Object.keys(outputs).filter((k) => k.startsWith('SenderDkim'))).toEqual([]);
  });
});

describe('dev and prod side by side', () => {
  it('differ in names and in what survives a teardown', () => {
    const dev = synthTemplate({ context: { stage: 'dev' } });
    try {
      expect([dev.stack.stackName, prod.stack.stackName]).toEqual(['Framewright-dev', 'Framewright-prod']);
      const names = (t: Template) => ({
        secret: resourcesOfType(t, 'AWS::SecretsManager::Secret')[0]![1].Properties!.Name,
        media: JSON.stringify(resourcesOfType(t, 'AWS::S3::Bucket').find(([id]) => id.startsWith('DataMediaBucket'))![1].Properties!.BucketName),
      });
      const d = names(dev.template);
      const p = names(prod.template);
      expect([d.secret, p.secret]).toEqual(['framewright/dev/app', 'framewright/prod/app']);
      expect(d.media).toContain('framewright-dev-media-');
      expect(p.media).toContain('framewright-prod-media-');

      const policies = (t: Template, type: string) => new Set(resourcesOfType(t, type).map(([, r]) => r.DeletionPolicy ?? 'Delete'));
      for (const type of ['AWS::Cognito::UserPool', 'AWS::DynamoDB::Table', 'AWS::S3::Bucket', 'AWS::SecretsManager::Secret', 'AWS::Logs::LogGroup']) {
        expect({ type, dev: policies(dev.template, type), prod: policies(prod.template, type) }).toEqual({
          type,
          dev: new Set(['Delete']),
          prod: new Set(['Retain']),
        });
      }
      expect(resourcesOfType(dev.template, 'Custom::S3AutoDeleteObjects').length).toBeGreaterThan(0);

      // The functions that sign results: a dev stage signs with a certificate of its own until the operator puts one
      // in; prod never does (a secret with no certificate is an error there).
      const signers = (t: Template) =>
        resourcesOfType(t, 'AWS::Lambda::Function')
          .map(([, f]) => f.Properties!.Environment?.Variables ?? {})
          .filter((env) => env.CONTENT_CREDENTIALS_ARN)
          .map((env) => env.CONTENT_CREDENTIALS_FALLBACK ?? 'none');
      expect({ dev: signers(dev.template), prod: signers(prod.template) }).toEqual({ dev: ['self-signed', 'self-signed'], prod: ['none', 'none'] });
    } finally {
      dev.cleanup();
    }
  });
});

describe('a domain sender', () => {
  it('verifies the domain and outputs its DKIM records', () => {
    const synth = synthTemplate({ context: { senderEmail: 'hello@framewright.app', senderDomain: 'framewright.app' } });
    try {
      const mail = mailTemplate(synth);
      mail.hasResourceProperties('AWS::SES::EmailIdentity', { EmailIdentity: 'framewright.app' });
      const outputs = mail.toJSON().Outputs;
      const identity = Object.keys(mail.findResources('AWS::SES::EmailIdentity'))[0]!;
      for (const i of [1, 2, 3]) {
        expect(outputs[`SenderDkimRecord${i}`].Value).toEqual({
          'Fn::Join': ['', [{ 'Fn::GetAtt': [identity, `DkimDNSTokenName${i}`] }, ' CNAME ', { 'Fn::GetAtt': [identity, `DkimDNSTokenValue${i}`] }]],
        });
      }
    } finally {
      synth.cleanup();
    }
  });
});

describe('settings from context', () => {
  const settings = (context: Record<string, string>) => readSettings(new App({ context }));
  /** What prod needs besides its sender: Cognito mailing through SES, someone to alarm, the account's quota. */
  const PROD = { stage: 'prod', cognitoEmail: 'ses', alarmEmail: 'ops@b.co', accountConcurrency: '1000' };

  it('defaults to dev, Cognito\'s email, the PayPal sandbox, web/dist and the operations defaults', () => {
    expect(settings({ senderEmail: 'hello@framewright.app' })).toEqual({
      stage: 'dev',
      senderEmail: 'hello@framewright.app',
      supportEmail: 'hello@framewright.app',
      cognitoEmail: 'cognito',
      paypal: 'sandbox',
      webDist: path.join(REPO_ROOT, 'web', 'dist'),
      existingSenderIdentity: false,
      monthlyBudgetUsd: 50,
      dailyGenerationCap: 200,
      reservedConcurrency: false,
    });
    expect(settings({ ...PROD, senderEmail: 'a@b.co' }).reservedConcurrency).toBe(true);
    expect(settings({ senderEmail: 'a@b.co', alarmEmail: 'ops@b.co', monthlyBudgetUsd: '120', dailyGenerationCap: '30', existingSenderIdentity: 'true' })).toMatchObject({
      alarmEmail: 'ops@b.co',
      monthlyBudgetUsd: 120,
      dailyGenerationCap: 30,
      existingSenderIdentity: true,
    });
  });

  it('takes live PayPal in prod, and refuses the sandbox there', () => {
    expect(settings({ ...PROD, senderEmail: 'a@b.co' }).paypal).toBe('live');
    expect(() => settings({ ...PROD, senderEmail: 'a@b.co', paypal: 'sandbox' })).toThrow(/^Prod refuses -c paypal=sandbox: customers would buy real credits with sandbox money$/);
    expect(settings({ senderEmail: 'a@b.co', paypal: 'sandbox' }).paypal).toBe('sandbox');
  });

  it('refuses in prod, one line each, what a paying customer must never meet: example addresses, the emulators, a local build', () => {
    const messageOf = (context: Record<string, string>) => {
      try {
        settings({ ...PROD, senderEmail: 'hello@framewright.app', ...context });
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(messageOf({})).toBe('accepted');
    expect(messageOf({ senderEmail: 'hello@example.org' })).toBe('Prod refuses -c senderEmail=hello@example.org: example.org is reserved for examples and tests, nobody reads it');
    expect(messageOf({ supportEmail: 'help@shop.test' })).toMatch(/^Prod refuses -c supportEmail=help@shop.test: shop.test is reserved/);
    expect(messageOf({ alarmEmail: 'ops@example.com' })).toMatch(/^Prod refuses -c alarmEmail=ops@example.com: [^\n]*$/);
    // The embedded stack's shell left in the environment.
    for (const [key, value] of [['AWS_ENDPOINT_URL_DYNAMODB', 'http://127.0.0.1:8000'], ['REPLICATE_BASE_URL', 'http://localhost:5173/_replicate']] as const) {
      process.env[key] = value;
      try {
        expect(messageOf({})).toBe(`Prod refuses to synthesise with ${key} set: the shell points at the embedded stack's emulators (unset them)`);
        expect(() => settings({ senderEmail: 'a@b.co' })).not.toThrow();
      } finally {
        delete process.env[key];
      }
    }
    // A web build whose pages name a local address (e.g. built against the embedded stack).
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-dist-'));
    try {
      fs.writeFileSync(path.join(dist, 'index.html'), '<link rel="canonical" href="https://framewright.app/">');
      expect(messageOf({ webDist: dist })).toBe('accepted');
      fs.writeFileSync(path.join(dist, 'sitemap.xml'), '<loc>http://localhost:5173/faq</loc>');
      expect(messageOf({ webDist: dist })).toBe('Prod refuses a web build naming a local address (sitemap.xml): build it for the cloud (npm run build)');
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });

  it('refuses prod with an unsafe setting, in one line each; dev keeps its defaults', () => {
    const messageOf = (context: Record<string, string>) => {
      try {
        settings({ ...PROD, senderEmail: 'a@b.co', ...context });
      } catch (err) {
        return (err as Error).message;
      }
      return 'accepted';
    };
    expect(messageOf({ cognitoEmail: 'cognito' })).toMatch(/^Prod needs -c cognitoEmail=ses: Cognito's own sender sends 50 [^\n]*$/);
    expect(messageOf({ alarmEmail: '' })).toMatch(/^Prod needs -c alarmEmail=<address>: [^\n]*$/);
    expect(messageOf({ accountConcurrency: '' })).toMatch(/^Prod reserves Lambda concurrency: pass -c accountConcurrency=[^\n]*$/);
    expect(messageOf({ accountConcurrency: '', reservedConcurrency: 'false' })).toBe('accepted');
    expect(messageOf({ accountConcurrency: 'ten' })).toBe('Context "accountConcurrency" must be a whole number above 0 (got "ten")');
    expect(settings({ senderEmail: 'a@b.co' })).toMatchObject({ cognitoEmail: 'cognito', reservedConcurrency: false });
  });

  it("refuses reservations the account's quota cannot hold (Lambda keeps 100 unreserved), naming the numbers", () => {
    const reserved = ROUTES.reduce((sum, r) => sum + (reservedConcurrencyOf(r) ?? 0), 0);
    const context = { ...PROD, senderEmail: 'a@b.co' };
    expect(() => synthTemplate({ context: { ...context, accountConcurrency: '10' } })).toThrow(
      `Context "accountConcurrency" is 10, below the ${reserved + 100} reservedConcurrency needs (${reserved} reserved + 100 Lambda keeps unreserved)`,
    );
    expect(() => synthTemplate({ context: { ...context, accountConcurrency: String(reserved + 100) } }).cleanup()).not.toThrow();
  });

  it('refuses an unknown stage or option, a malformed address, or prod without a sender', () => {
    expect(() => settings({ stage: 'staging', senderEmail: 'a@b.co' })).toThrow('Context "stage" must be one of dev, prod (got "staging")');
    expect(() => settings({ senderEmail: 'nobody' })).toThrow('Context "senderEmail" must be an email address');
    expect(() => settings({ senderEmail: 'a@b.co', paypal: 'prod' })).toThrow('Context "paypal" must be one of sandbox, live (got "prod")');
    expect(() => settings({ senderEmail: 'a@b.co', cognitoEmail: 'smtp' })).toThrow('Context "cognitoEmail" must be one of cognito, ses (got "smtp")');
    expect(() => settings({ stage: 'prod' })).toThrow('Context "senderEmail" is required');
    // dev too: an address nobody verifies makes every email fail after the deploy. The message says how, in one line.
    expect(() => settings({})).toThrow(/^Context "senderEmail" is required: an address you can read, e\.g\. npx cdk deploy -c stage=dev -c senderEmail=you@example\.org$/);
    expect(() => settings({ senderEmail: 'a@b.co', monthlyBudgetUsd: '-5' })).toThrow('Context "monthlyBudgetUsd" must be a whole number above 0 (got "-5")');
    expect(() => settings({ senderEmail: 'a@b.co', alarmEmail: 'ops' })).toThrow('Context "alarmEmail" must be an email address (got "ops")');
    expect(() => settings({ senderEmail: 'a@b.co', reservedConcurrency: 'yes' })).toThrow('Context "reservedConcurrency" must be one of true, false (got "yes")');
    expect(() => settings({ senderEmail: 'a@other.app', senderDomain: 'framewright.app' })).toThrow(
      'Context "senderEmail" must be an address at senderDomain framewright.app (got "a@other.app")',
    );
    expect(() => settings({ senderEmail: 'a@framewright', senderDomain: 'framewright' })).toThrow('Context "senderEmail" must be an email address');
  });
});
