/**
 * The inputs of the capacity model (docs/capacity.md, `npm run capacity`) that are not the constructs' own settings:
 * the providers' and services' published limits, and the shards of the open-jobs index. The quota alarms watch
 * each at 80% (lib/constructs/observability.ts).
 */

/** Replicate's rate limits for an account: prediction creates, and every other API request, a minute. */
export const REPLICATE_LIMITS = { createsPerMinute: 600, otherRequestsPerMinute: 3_000 } as const;

/** DynamoDB's write limit for one partition key value (of a table or an index), per second. */
export const PARTITION_WRITES_PER_SECOND = 1_000;

/**
 * Partitions of the open-jobs index (`OPEN_JOB#<n>`). A job writes its index keys twice (its charge, its end), so 16
 * hold 8,000 job starts a second, far above the model's peak.
 */
export const OPEN_JOB_SHARDS = 16;
