import { CloudFrontClient, GetDistributionConfigCommand, UpdateDistributionCommand } from '@aws-sdk/client-cloudfront';
import { ORIGIN_HEADER } from '../../contract/origin';
import type { OriginHeaderTarget } from '../ports/origin-rotation';
import { OTHER_AWS_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

/**
 * The distribution's origins that send the origin header (the HTTP API's and the push channel's) get the new value:
 * the whole configuration is read and written back with only those values changed, conditioned on its ETag, so a
 * change made meanwhile (a deploy) fails this step instead of being overwritten.
 */
export function cloudFrontOriginHeader(distributionId: string): OriginHeaderTarget {
  // CloudFront's API is global, served from us-east-1.
  const client = new CloudFrontClient({ region: 'us-east-1', requestHandler: requestHandlerWithin(OTHER_AWS_REQUEST_MS) });
  return {
    async set(value) {
      const { DistributionConfig: config, ETag } = await client.send(new GetDistributionConfigCommand({ Id: distributionId }));
      if (!config) throw new Error(`Distribution ${distributionId} has no configuration`);
      let changed = 0;
      for (const origin of config.Origins?.Items ?? []) {
        for (const h of origin.CustomHeaders?.Items ?? []) {
          if (h.HeaderName?.toLowerCase() !== ORIGIN_HEADER || h.HeaderValue === value) continue;
          h.HeaderValue = value;
          changed++;
        }
      }
      if (!changed) return;
      await client.send(new UpdateDistributionCommand({ Id: distributionId, IfMatch: ETag, DistributionConfig: config }));
    },
  };
}
