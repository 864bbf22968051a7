import { SecretValue, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { removalPolicyFor, type Stage } from '../settings';

/** The keys of the app secret's JSON; operators fill them in after the first deploy (see docs/deploy.md). */
export const APP_SECRET_KEYS = [
  'REPLICATE_API_TOKEN',
  'REPLICATE_WEBHOOK_SECRET',
  'PAYPAL_CLIENT_ID',
  'PAYPAL_CLIENT_SECRET',
  'PAYPAL_WEBHOOK_ID',
] as const;

export interface AppSecretProps {
  stage: Stage;
}

/** Third-party credentials (Replicate, PayPal) in one Secrets Manager secret: `framewright/<stage>/app`. */
export class AppSecret extends Construct {
  readonly secret: secretsmanager.Secret;
  /** `framewright/<stage>/app`: what operators pass to `aws secretsmanager put-secret-value`. */
  readonly secretName: string;

  constructor(scope: Construct, id: string, props: AppSecretProps) {
    super(scope, id);
    this.secretName = `framewright/${props.stage}/app`;
    // Empty placeholders, not secrets: the handlers treat an empty key as unset. CloudFormation does not
    // touch the value again unless this template changes, so values put in by operators survive deploys.
    const placeholders = Object.fromEntries(APP_SECRET_KEYS.map((k) => [k, '']));
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      secretName: this.secretName,
      description: `Framewright ${props.stage}: Replicate and PayPal credentials (JSON, keys ${APP_SECRET_KEYS.join(', ')})`,
      secretStringValue: SecretValue.unsafePlainText(JSON.stringify(placeholders)),
      removalPolicy: removalPolicyFor(props.stage),
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The secret holds API keys issued by Replicate and PayPal; they can only be rotated in those providers\' ' +
        'consoles, so there is no rotation Lambda to attach.',
    });
  }
}
