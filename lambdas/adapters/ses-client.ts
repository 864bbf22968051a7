import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';
import { tracer } from '../observability';
import { OTHER_AWS_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

let ses: SESv2Client | undefined;

export function sesClient(): SESv2Client {
  ses ??= tracer.captureAWSv3Client(new SESv2Client({ region: config().AWS_REGION, requestHandler: requestHandlerWithin(OTHER_AWS_REQUEST_MS) }));
  return ses;
}
