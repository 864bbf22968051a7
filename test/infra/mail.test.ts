/**
 * One pass from a fresh account: Cognito refuses a user pool whose mail names an SES identity that is not verified
 * (aws-cdk #18964, #19787), and an identity the same deploy creates never is. So each stage's identity lives in a
 * retained mail stack of its own, deployed (and verified) first; the app stack names it by ARN and depends on it.
 */
import { Template } from 'aws-cdk-lib/assertions';
import type { Stack } from 'aws-cdk-lib';
import { mailTemplate, resourcesOfType, synthTemplate } from './synth';

const PROD = { stage: 'prod', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000', senderEmail: 'hello@framewright.app' };

describe('the sender identity is made and verified before the user pool that names it', () => {
  it.each([
    ['prod, an address', PROD],
    ['prod, a domain', { ...PROD, senderDomain: 'framewright.app' }],
    ['dev with SES mail', { cognitoEmail: 'ses', senderEmail: 'dev@framewright.app' }],
    ['dev', {}],
  ])('%s: no template creates a user pool and an identity; the identity is retained in the mail stack the app depends on', (_name, context) => {
    const s = synthTemplate({ context });
    try {
      const stacks = s.app.node.children.filter((c): c is Stack => 'templateOptions' in c);
      for (const stack of stacks) {
        const t = Template.fromStack(stack);
        const pools = Object.keys(t.findResources('AWS::Cognito::UserPool')).length;
        const identities = Object.keys(t.findResources('AWS::SES::EmailIdentity')).length;
        expect({ stack: stack.stackName, both: pools > 0 && identities > 0 }).toEqual({ stack: stack.stackName, both: false });
      }
      const mail = mailTemplate(s);
      const [[, identity]] = resourcesOfType(mail, 'AWS::SES::EmailIdentity') as unknown as [[string, { DeletionPolicy?: string; UpdateReplacePolicy?: string }]];
      expect(identity).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
      expect(s.stack.dependencies.map((d) => d.stackName)).toContain(`${s.stack.stackName}-mail`);
      // The pool names the identity by ARN: no reference into the mail stack (an export would pin it).
      const pool = resourcesOfType(s.template, 'AWS::Cognito::UserPool')[0]![1];
      expect(JSON.stringify(pool.Properties!.EmailConfiguration ?? {})).not.toMatch(/Fn::ImportValue|Fn::GetAtt|"Ref":"(?!AWS::)/);
    } finally {
      s.cleanup();
    }
  });

  it("dev and prod never share an identity: each stage's mail stack owns its own, and prod refuses to adopt one", () => {
    const prod = synthTemplate({ context: PROD });
    const dev = synthTemplate({ context: { senderEmail: 'dev@framewright.app' } });
    try {
      expect(mailTemplate(prod).toJSON()).not.toEqual(mailTemplate(dev).toJSON());
      expect(`${prod.stack.stackName}-mail`).not.toBe(`${dev.stack.stackName}-mail`);
    } finally {
      prod.cleanup();
      dev.cleanup();
    }
    expect(() => synthTemplate({ context: { ...PROD, existingSenderIdentity: 'true' } }).cleanup()).toThrow(/Prod refuses -c existingSenderIdentity=true/);
    // Dev may adopt an identity made outside the app: then there is no mail stack at all.
    const adopted = synthTemplate({ context: { existingSenderIdentity: 'true' } });
    try {
      expect(adopted.app.node.tryFindChild('Framewright-dev-mail')).toBeUndefined();
    } finally {
      adopted.cleanup();
    }
  });
});
