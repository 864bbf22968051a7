import { Duration, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { PASSWORD_POLICY } from '../../contract/auth';
import { removalPolicyFor, type Stage } from '../settings';

export interface AuthProps {
  stage: Stage;
  /** Public origin of the app (https://...), for the link in the verification email. */
  siteUrl: string;
}

/** Who the users are: the Cognito user pool and the SPA's app client. */
export class Auth extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    const prod = props.stage === 'prod';

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      userVerification: {
        emailStyle: cognito.VerificationEmailStyle.CODE,
        emailSubject: 'Verify your Framewright email',
        // Cognito substitutes only {####} in verification messages ({username} is left as is), so the
        // link carries the code and the /verify page knows the email from the sign-up it follows.
        emailBody:
          'Welcome to Framewright! Your verification code is {####}. ' +
          `Or verify in one click: ${props.siteUrl}/verify?code={####}`,
      },
      standardAttributes: {
        email: { required: true, mutable: true },
        givenName: { required: true, mutable: true },
        familyName: { required: true, mutable: true },
      },
      passwordPolicy: {
        minLength: PASSWORD_POLICY.minLength,
        requireLowercase: PASSWORD_POLICY.requireLowercase,
        requireUppercase: PASSWORD_POLICY.requireUppercase,
        requireDigits: PASSWORD_POLICY.requireDigits,
        requireSymbols: PASSWORD_POLICY.requireSymbols,
      },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: prod,
      removalPolicy: removalPolicyFor(props.stage),
    });

    this.client = this.userPool.addClient('WebClient', {
      generateSecret: false,
      authFlows: { userSrp: true, userPassword: true },
      preventUserExistenceErrors: true,
      refreshTokenValidity: Duration.days(30),
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
    });

    const pool = this.userPool;
    Validations.of(pool).acknowledge({
      id: 'AwsSolutions-COG1',
      reason:
        'The password policy is the product one shared through contract/auth.ts (8+ characters with lower case, ' +
        'upper case and digits, no symbol rule) so the pool, the local emulator and the sign-up form agree.',
    });
    Validations.of(pool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'The product signs consumers in with email and password only; MFA is not part of the specification.',
    });
    Validations.of(pool).acknowledge({
      id: 'AwsSolutions-COG8',
      reason:
        'Threat protection (Plus feature plan) costs per active user; the Essentials plan is the chosen baseline. ' +
        'Sign-in abuse is limited by Cognito quotas and the API throttle.',
    });
  }
}
