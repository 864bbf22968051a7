import { Stack } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { COGNITO_RATE_RULES as COGNITO_LIMITS, COGNITO_TARGET_PREFIX } from '../../contract/edge-limits';
import type { Stage } from '../settings';
import { managedRules, rateRules, webAclVisibility, type RateRule } from './waf';

/**
 * The browser signs up and in with Cognito directly (Amplify), so the API's stage throttle and CloudFront's WAF never
 * see those calls: every verified sign-up is worth the welcome credits. This regional web ACL, associated with the
 * user pool, limits them per IP (X-Amz-Target names the Cognito action; the numbers are contract/edge-limits.ts's, which
 * the embedded stack's `/_cognito` proxy applies too).
 */
export const COGNITO_RATE_RULES: RateRule[] = COGNITO_LIMITS.map((r) => ({
  name: r.name,
  limit: r.limit,
  scope: { header: 'x-amz-target', is: `${COGNITO_TARGET_PREFIX}${r.action}` },
}));

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
