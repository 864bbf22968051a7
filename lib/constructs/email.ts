import { Stack } from 'aws-cdk-lib';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export interface EmailProps {
  /** The From address of every email the app sends. */
  senderEmail: string;
  /** Verify this whole domain instead of the single address (DKIM records to publish in DNS). */
  senderDomain?: string;
  /** Where contact messages go. */
  supportEmail: string;
  /** The identity already exists in this account and region (Settings.existingSenderIdentity): use it, create nothing. */
  existing?: boolean;
}

/**
 * The SES identity the app sends from: an address (SES emails it a verification link when the stack creates
 * it) or a domain (verified once its DKIM CNAME records are published).
 */
export class Email extends Construct {
  /** The identity the stack created; undefined when it adopted an existing one. */
  readonly identity?: ses.EmailIdentity;
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
    // SES identities are one per name in an account and region: a second stack creating the same one fails.
    const identityArn = props.existing
      ? Stack.of(this).formatArn({ service: 'ses', resource: 'identity', resourceName: sender })
      : (this.identity = new ses.EmailIdentity(this, 'Sender', {
          identity: props.senderDomain ? ses.Identity.domain(props.senderDomain) : ses.Identity.email(props.senderEmail),
        })).emailIdentityArn;
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
