/**
 * The stage limits are set from the capacity model: the push channel's stage throttle is sized by it, and every HTTP
 * route throttle of the model holds the design point's peak (where Replicate's create limit bites) with headroom. An
 * assumption or a price changed in contract/ that would make one of our throttles bite first fails here, naming it.
 */
import { REPLICATE_LIMITS } from '../../contract/capacity';
import { DEMAND_PER_USER, DESIGN_HEADROOM, DESIGN_MAU, throttleFor } from '../../contract/capacity-model';
import { THROTTLES } from '../../contract/throttles';
import { STAGE_THROTTLE } from '../../lib/constructs/stage-access-logs';

const atDesign = (perUser: number) => perUser * DESIGN_MAU * DESIGN_HEADROOM;

describe('the capacity model sets the stage limits', () => {
  it("puts the design point where Replicate's create limit bites", () => {
    expect(DEMAND_PER_USER.providerCreatesPerMinute * DESIGN_MAU).toBeCloseTo(REPLICATE_LIMITS.createsPerMinute);
    // The other provider limit bites later than the design point.
    expect(DEMAND_PER_USER.providerOtherRequestsPerMinute * DESIGN_MAU).toBeLessThan(REPLICATE_LIMITS.otherRequestsPerMinute);
  });

  it("sizes the push channel's stage throttle from its connects and pings at the design point", () => {
    expect(STAGE_THROTTLE).toEqual(throttleFor(DEMAND_PER_USER.pushRequestsPerSecond));
    expect(STAGE_THROTTLE.rateLimit).toBeGreaterThanOrEqual(atDesign(DEMAND_PER_USER.pushRequestsPerSecond));
    expect(STAGE_THROTTLE.rateLimit).toBeLessThan(atDesign(DEMAND_PER_USER.pushRequestsPerSecond) + 10);
  });

  it.each([
    ['polling (the job poll)', THROTTLES.polling.rateLimit, DEMAND_PER_USER.pollsPerSecond],
    ['generation (the starts)', THROTTLES.generation.rateLimit, DEMAND_PER_USER.imageStartsPerSecond],
  ])('holds the %s route throttle above the design peak', (_kind, limit, perUser) => {
    expect(limit).toBeGreaterThanOrEqual(throttleFor(perUser).rateLimit);
  });

  it('rounds a throttle up to a multiple of 10 with a burst twice as deep', () => {
    const t = throttleFor(1 / DESIGN_MAU);
    expect(t).toEqual({ rateLimit: 10, burstLimit: 20 });
  });
});
