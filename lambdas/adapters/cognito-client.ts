import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../config';
import { tracer } from '../observability';
import { OTHER_AWS_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

let cognito: CognitoIdentityProviderClient | undefined;

/** Cognito's admin API (account deletion only); its own module so other functions do not load the package. */
export function cognitoClient(): CognitoIdentityProviderClient {
  cognito ??= tracer.captureAWSv3Client(new CognitoIdentityProviderClient({ region: config().AWS_REGION, requestHandler: requestHandlerWithin(OTHER_AWS_REQUEST_MS) }));
  return cognito;
}
