import { Stack } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { Stage } from '../settings';
import { managedRules, rateRules, webAclVisibility, type RateRule } from './waf';

/**
 * The browser signs up and in with Cognito directly (Amplify), so the API's stage throttle and CloudFront's WAF never
 * see those calls: every verified sign-up is worth the welcome credits. This regional web ACL, associated with the
 * user pool, limits them per IP (X-Amz-Target names the Cognito action).
 */
export const COGNITO_RATE_RULES: RateRule[] = [
  { name: 'signup-per-ip', limit: 20, scope: { header: 'x-amz-target', is: 'AWSCognitoIdentityProviderService.SignUp' } },
  { name: 'confirm-per-ip', limit: 50, scope: { header: 'x-amz-target', is: 'AWSCognitoIdentityProviderService.ConfirmSignUp' } },
  { name: 'signin-per-ip', limit: 100, scope: { header: 'x-amz-target', is: 'AWSCognitoIdentityProviderService.InitiateAuth' } },
  { name: 'forgot-password-per-ip', limit: 20, scope: { header: 'x-amz-target', is: 'AWSCognitoIdentityProviderService.ForgotPassword' } },
];

export interface AuthWafProps {
  stage: Stage;
  userPool: cognito.IUserPool;
}

export class AuthWaf extends Construct {
  readonly webAcl: wafv2.CfnWebACL;

  constructor(scope: Construct, id: string, props: AuthWafProps) {
    super(scope, id);
    const name = `framewright-${props.stage}-${Stack.of(this).region}-cognito`;
    this.webAcl = new wafv2.CfnWebACL(this, 'WebAcl', {
      name,
      description: `Framewright ${props.stage} - per-IP limits on sign-up and sign-in`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: webAclVisibility(name),
      rules: [...managedRules([{ name: 'AWSManagedRulesAmazonIpReputationList' }], 0), ...rateRules(COGNITO_RATE_RULES, 10)],
    });
    new wafv2.CfnWebACLAssociation(this, 'Association', { resourceArn: props.userPool.userPoolArn, webAclArn: this.webAcl.attrArn });
  }
}
