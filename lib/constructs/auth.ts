import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { ID_TOKEN_VALIDITY_HOURS, PASSWORD_POLICY } from '../../contract/auth';
import { triggerEntry } from '../bundling';
import { removalPolicyFor, type Settings, type Stage } from '../settings';
import type { Email } from './email';
import { AppFunction } from './lambda-function';

export interface AuthProps {
  stage: Stage;
  /** Public origin of the app (https://...), for the links in the verification and reset emails. */
  siteUrl: string;
  /** Who sends Cognito's emails: Cognito itself, or SES from the app's sender (settings.cognitoEmail). */
  cognitoEmail: Settings['cognitoEmail'];
  email: Email;
}

/** Who the users are: the Cognito user pool and the SPA's app client. */
export class Auth extends Construct {
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  /** Writes the verification and reset emails with their one-click links (lambdas/triggers/custom-message.ts). */
  readonly customMessage: AppFunction;
  /** Refuses a sign-up whose names break the name rule (lambdas/triggers/pre-sign-up.ts). */
  readonly preSignUp: AppFunction;

  constructor(scope: Construct, id: string, props: AuthProps) {
    super(scope, id);
    const prod = props.stage === 'prod';

    this.customMessage = new AppFunction(this, 'CustomMessage', {
      entry: triggerEntry('custom-message'),
      description: 'Cognito CustomMessage: verification and password reset emails with a one-click link',
      stage: props.stage,
      environment: { APP_URL: props.siteUrl },
      memoryMb: 256,
      timeoutSeconds: 5,
    });

    this.preSignUp = new AppFunction(this, 'PreSignUp', {
      entry: triggerEntry('pre-sign-up'),
      description: 'Cognito PreSignUp: refuses names that are too long or carry links or control characters',
      stage: props.stage,
      environment: {},
      memoryMb: 256,
      timeoutSeconds: 5,
    });

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: true,
      autoVerify: { email: true },
      keepOriginal: { email: true },
      // The CustomMessage trigger writes the sign-up, resend and reset emails (links need the address,
      // which templates cannot insert); this template covers the flows it leaves to Cognito.
      userVerification: {
        emailStyle: cognito.VerificationEmailStyle.CODE,
        emailSubject: 'Verify your Framewright email',
        emailBody: 'Your Framewright verification code is {####}.',
      },
      lambdaTriggers: { customMessage: this.customMessage.function, preSignUp: this.preSignUp.function },
      email:
        props.cognitoEmail === 'ses'
          ? cognito.UserPoolEmail.withSES({
              fromEmail: props.email.senderEmail,
              fromName: 'Framewright',
              sesRegion: Stack.of(this).region,
              ...(props.email.senderDomain ? { sesVerifiedDomain: props.email.senderDomain } : {}),
            })
          : cognito.UserPoolEmail.withCognito(),
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

    // Cognito checks the SES identity when the pool is created or updated: it is the mail stack's, verified before
    // this stack is deployed (lib/mail-stack.ts), never one this stack creates.

    this.client = this.userPool.addClient('WebClient', {
      generateSecret: false,
      // The web app signs in with SRP: the password never leaves the browser. (Refresh tokens are always on.)
      authFlows: { userSrp: true },
      // No hosted UI: without this CDK turns on the implicit and code grants with an example.com callback.
      disableOAuth: true,
      preventUserExistenceErrors: true,
      refreshTokenValidity: Duration.days(30),
      // A deleted account's tombstone is sized from this (contract/auth.ts): raise one, the other follows.
      idTokenValidity: Duration.hours(ID_TOKEN_VALIDITY_HOURS),
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
