/**
 * No 5xx from our own limits: a route's throttle (the stage's RouteSettings) must refuse with 429 before its function's
 * reserved concurrency runs out, because past the reservation Lambda throttles the invocation and API Gateway answers
 * 500. A full burst arrives at once and the rate keeps coming while it runs, so the reservation must hold the burst
 * plus the rate times the seconds one invocation holds an execution (a `Prefer: wait` start: the slowest waiting
 * model). Read from the synthesised prod template: a throttle or a reservation changed alone fails here.
 */
import { ROUTES } from '../../contract/routes';
import { holdSecondsOf } from '../../lib/constructs/concurrency';
import { resourcesOfType, routeFunction, synthForSuite } from './synth';

const PROD = { stage: 'prod', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000' };

describe("every route's throttle bites before its function's reservation", () => {
  const prod = synthForSuite({ context: PROD });

  it('burst + rate x hold seconds fits the reservation of every reserved function (and so do each alone)', () => {
    const [, stage] = resourcesOfType(prod.template, 'AWS::ApiGatewayV2::Stage').find(([, s]) => s.Properties!.StageName === '$default')!;
    const settings = stage.Properties!.RouteSettings as Record<string, { ThrottlingRateLimit?: number; ThrottlingBurstLimit?: number }>;
    const fallback = stage.Properties!.DefaultRouteSettings as { ThrottlingRateLimit: number; ThrottlingBurstLimit: number };
    const reserved = ROUTES.flatMap((route) => {
      const n = routeFunction(prod.template, route)[1].Properties!.ReservedConcurrentExecutions as number | undefined;
      if (n === undefined) return [];
      const own = settings[`${route.method} ${route.path}`] ?? {};
      const rate = own.ThrottlingRateLimit ?? fallback.ThrottlingRateLimit;
      const burst = own.ThrottlingBurstLimit ?? fallback.ThrottlingBurstLimit;
      return [{ route: route.id, reserved: n, rate, burst, hold: holdSecondsOf(route) }];
    });
    // The webhooks and the three starts are reserved in prod.
    expect(reserved.map((r) => r.route).sort()).toEqual(['generateImage', 'generateVideo', 'generations', 'paypalWebhook', 'replicateWebhook']);
    const over = reserved.filter((r) => r.burst + Math.ceil(r.rate * r.hold) > r.reserved || r.rate * r.hold > r.reserved || r.burst > r.reserved);
    expect(over).toEqual([]);
  });

  it('holds a start for the slowest `Prefer: wait` model plus its create', () => {
    expect(holdSecondsOf(ROUTES.find((r) => r.id === 'generateImage')!)).toBe(6);
    expect(holdSecondsOf(ROUTES.find((r) => r.id === 'replicateWebhook')!)).toBe(1);
  });
});

describe('a throttled API answer says when to come back', () => {
  const dev = synthForSuite();

  it("CloudFront's /api/* behaviour adds Retry-After where the answer has none (API Gateway's 429), without overriding ours", () => {
    const json = dev.template.toJSON();
    const [policyId] = resourcesOfType(dev.template, 'AWS::CloudFront::ResponseHeadersPolicy').find(([, p]) =>
      (p.Properties!.ResponseHeadersPolicyConfig.CustomHeadersConfig?.Items ?? []).some((h: { Header: string }) => h.Header === 'Retry-After'),
    )!;
    expect(json.Resources[policyId].Properties.ResponseHeadersPolicyConfig.CustomHeadersConfig.Items).toEqual([{ Header: 'Retry-After', Value: '1', Override: false }]);
    const [, distribution] = resourcesOfType(dev.template, 'AWS::CloudFront::Distribution')[0]!;
    const api = distribution.Properties!.DistributionConfig.CacheBehaviors.find((b: { PathPattern: string }) => b.PathPattern === '/api/*');
    expect(api.ResponseHeadersPolicyId).toEqual({ Ref: policyId });
  });
});
