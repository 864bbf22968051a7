import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

export interface EmailProps {
  /** The From address of every email the app sends. */
  senderEmail: string;
}

/** The SES identity the app sends from. SES emails the address a verification link on creation. */
export class Email extends Construct {
  readonly identity: ses.EmailIdentity;
  readonly senderEmail: string;

  constructor(scope: Construct, id: string, props: EmailProps) {
    super(scope, id);
    this.senderEmail = props.senderEmail;
    this.identity = new ses.EmailIdentity(this, 'Sender', { identity: ses.Identity.email(props.senderEmail) });
  }
}
