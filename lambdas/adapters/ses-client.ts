import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../config';
import { tracer } from '../observability';

let ses: SESv2Client | undefined;

export function sesClient(): SESv2Client {
  ses ??= tracer.captureAWSv3Client(new SESv2Client({ region: config().AWS_REGION }));
  return ses;
}
