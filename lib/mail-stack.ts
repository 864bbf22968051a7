import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as ses from 'aws-cdk-lib/aws-ses';
import type { Construct } from 'constructs';
import type { Stage } from './settings';

export interface MailStackProps extends StackProps {
  stage: Stage;
  /** The From address of every email the app sends. */
  senderEmail: string;
  /** Verify this whole domain instead of the single address (DKIM records to publish in DNS). */
  senderDomain?: string;
}

/**
 * The stage's SES sender identity, in a small stack of its own (`Framewright-<stage>-mail`), deployed first and
 * retained: Cognito refuses a user pool whose mail names an identity that is not verified yet (aws-cdk #18964,
 * #19787), and an identity is only verified after its owner clicks SES's link (an address) or publishes its DKIM
 * records (a domain). So the app stack never creates the identity its user pool names: it names this one by ARN,
 * after `npm run preflight` has seen it verified (docs/deploy.md). Each stage owns its identity (SES refuses a second
 * one of the same name in an account and region, and prod refuses to adopt one), so destroying dev never takes prod's
 * sender; and destroying a stage leaves it (retained), so the next deploy finds it still verified.
 */
export class MailStack extends Stack {
  readonly identity: ses.EmailIdentity;

  constructor(scope: Construct, id: string, props: MailStackProps) {
    super(scope, id, props);
    this.identity = new ses.EmailIdentity(this, 'Sender', {
      identity: props.senderDomain ? ses.Identity.domain(props.senderDomain) : ses.Identity.email(props.senderEmail),
    });
    this.identity.applyRemovalPolicy(RemovalPolicy.RETAIN);
    new CfnOutput(this, 'SenderIdentity', {
      value: props.senderDomain ?? props.senderEmail,
      description: props.senderDomain ? 'SES identity: publish the DKIM records below, then run npm run preflight' : 'SES identity: click the link SES mailed to it, then run npm run preflight',
    });
    if (props.senderDomain) {
      const records = [
        [this.identity.dkimDnsTokenName1, this.identity.dkimDnsTokenValue1],
        [this.identity.dkimDnsTokenName2, this.identity.dkimDnsTokenValue2],
        [this.identity.dkimDnsTokenName3, this.identity.dkimDnsTokenValue3],
      ] as const;
      records.forEach(([name, value], i) => {
        new CfnOutput(this, `SenderDkimRecord${i + 1}`, { value: `${name} CNAME ${value}`, description: `DNS record ${i + 1} of 3 that verifies ${props.senderDomain} in SES` });
      });
    }
  }
}
