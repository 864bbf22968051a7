import { Stack } from 'aws-cdk-lib';
import { Construct } from 'constructs';

export interface EmailProps {
  /** The From address of every email the app sends. */
  senderEmail: string;
  /** Verify this whole domain instead of the single address (DKIM records to publish in DNS). */
  senderDomain?: string;
  /** Where contact messages go. */
  supportEmail: string;
}

/**
 * The SES identity the app sends from, named by ARN: an address or a domain that the stage's mail stack created and
 * verified beforehand (lib/mail-stack.ts), or one made outside the app (Settings.existingSenderIdentity). The app
 * stack never creates it: Cognito refuses a pool whose mail names an identity not verified yet.
 */
export class Email extends Construct {
  readonly senderEmail: string;
  readonly senderDomain?: string;
  /**
   * The identities ses:SendEmail is authorized against: the sending one, and (while the account is in the
   * SES sandbox, where recipients must be verified identities too) the support address or its domain, the
   * only recipient the app mails itself.
   */
  readonly sendingIdentityArns: string[];

  constructor(scope: Construct, id: string, props: EmailProps) {
    super(scope, id);
    this.senderEmail = props.senderEmail;
    this.senderDomain = props.senderDomain;
    const sender = props.senderDomain ?? props.senderEmail;
    const identityArn = Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: sender });
    const support = props.supportEmail.toLowerCase();
    const recipients =
      support === props.senderEmail.toLowerCase()
        ? []
        : [support, support.split('@')[1]!].filter((name) => name !== sender.toLowerCase());
    this.sendingIdentityArns = [
      identityArn,
      ...recipients.map((name) => Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: name })),
    ];
  }
}
