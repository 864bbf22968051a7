import { Stack, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { removalPolicyFor, type Stage } from '../settings';

/**
 * The content-credentials signer: the key and certificate chain the functions that save results sign every file's
 * C2PA manifest with ('secret:content-credentials'), as JSON `{ privateKey, certificateChain }`. Secrets Manager cannot
 * make a certificate, so the deploy creates the secret empty of one and the operator puts the real credential in
 * (docs/deploy.md); until then saves fail and are retried, then refunded, rather than store a file without credentials.
 */
export class ContentCredentialsSecret extends Construct {
  readonly secret: secretsmanager.Secret;

  constructor(scope: Construct, id: string, props: { stage: Stage }) {
    super(scope, id);
    this.secret = new secretsmanager.Secret(this, 'Secret', {
      secretName: `framewright/${props.stage}/content-credentials`,
      description: `Framewright ${props.stage} (${Stack.of(this).region}): the C2PA signing key and certificate chain ({ privateKey, certificateChain } PEM)`,
      removalPolicy: removalPolicyFor(props.stage),
    });
    Validations.of(this.secret).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'A signing certificate is renewed by its CA, not rotated by a function: the operator puts the renewed one in.',
    });
  }
}
