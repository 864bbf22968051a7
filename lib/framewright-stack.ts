import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ROUTES, type RouteDef } from '../contract/routes';
import { AccessLogs } from './constructs/access-logs';
import { Api } from './constructs/api';
import { AppSecret } from './constructs/app-secret';
import { Auth } from './constructs/auth';
import { Data } from './constructs/data';
import { Email } from './constructs/email';
import { Site } from './constructs/site';
import type { Settings } from './settings';

export interface FramewrightStackProps extends StackProps {
  settings: Settings;
  /** The route table; contract/routes unless a test passes its own. */
  routes?: readonly RouteDef[];
}

/** Wires the constructs together; each concern lives in lib/constructs/. */
export class FramewrightStack extends Stack {
  readonly site: Site;
  readonly auth: Auth;
  readonly data: Data;
  readonly api: Api;
  readonly secret: AppSecret;
  readonly email: Email;

  constructor(scope: Construct, id: string, props: FramewrightStackProps) {
    super(scope, id, props);
    const { stage, senderEmail, supportEmail, webDist } = props.settings;

    const accessLogs = new AccessLogs(this, 'AccessLogs', { stage });
    this.data = new Data(this, 'Data', { stage, accessLogs: accessLogs.bucket });
    this.site = new Site(this, 'Site', { stage, webDist, accessLogs: accessLogs.bucket, mediaOrigins: this.data.mediaOrigins });
    this.data.allowBrowserAccessFrom(this.site.url);
    this.auth = new Auth(this, 'Auth', { stage, siteUrl: this.site.url });
    this.secret = new AppSecret(this, 'Secrets', { stage });
    this.email = new Email(this, 'Email', { senderEmail });

    this.api = new Api(this, 'Api', {
      stage,
      routes: props.routes ?? ROUTES,
      auth: this.auth,
      targets: {
        table: this.data.table,
        mediaBucket: this.data.mediaBucket,
        userPool: this.auth.userPool,
        secret: this.secret.secret,
        emailIdentity: this.email.identity,
      },
      environment: {
        TABLE_NAME: this.data.table.tableName,
        MEDIA_BUCKET: this.data.mediaBucket.bucketName,
        USER_POOL_ID: this.auth.userPool.userPoolId,
        USER_POOL_CLIENT_ID: this.auth.client.userPoolClientId,
        APP_URL: this.site.url,
        SES_FROM_ADDRESS: senderEmail,
        SUPPORT_EMAIL: supportEmail,
        SECRETS_ARN: this.secret.secret.secretArn,
        POWERTOOLS_SERVICE_NAME: 'framewright',
      },
    });

    this.site.routeApi(this.api.httpApi);
    this.site.publish({
      region: this.region,
      userPoolId: this.auth.userPool.userPoolId,
      userPoolClientId: this.auth.client.userPoolClientId,
      apiBaseUrl: '/api',
      supportEmail,
    });

    const outputs: Record<string, [string, string]> = {
      SiteUrl: [this.site.url, 'The app'],
      ApiUrl: [`${this.site.url}/api`, 'The API, on the app origin (CloudFront sends /api/* to the HTTP API)'],
      UserPoolId: [this.auth.userPool.userPoolId, 'Cognito user pool'],
      UserPoolClientId: [this.auth.client.userPoolClientId, 'Cognito app client of the web app'],
      TableName: [this.data.table.tableName, 'DynamoDB table'],
      MediaBucket: [this.data.mediaBucket.bucketName, 'S3 bucket of generated media and uploads'],
    };
    for (const [name, [value, description]] of Object.entries(outputs)) {
      new CfnOutput(this, name, { value, description });
    }
  }
}
