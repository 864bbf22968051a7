/**
 * The single table's shape, in one place: the cloud table (lib/constructs/data.ts) and DynamoDB Local's
 * (local/dynamodb) are both built from it, so the indexes and the stream tests run against are the ones
 * deployed. Item types: docs/architecture.md.
 */
export const TABLE_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  timeToLive: 'ttl',
  /** Every change, with its old and new image, for the functions fed by the table's stream. */
  streamView: 'NEW_AND_OLD_IMAGES',
  indexes: [
    /**
     * Sparse, whole items: open orders (OPEN_ORDER), the PayPal subscriptions the plans' reconciler reads (PLAN_WATCH),
     * and open jobs written before the open-jobs index (OPEN_JOB).
     */
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    /**
     * Sparse: the open jobs, spread over OPEN_JOB_SHARDS partitions (`OPEN_JOB#<n>`) so no single partition takes
     * every job's two index writes (DynamoDB's 1,000 writes/s per partition, and a throttled index throttles the
     * table); keys only, as the reconciler reads each job whole anyway.
     */
    { name: 'open-jobs', partitionKey: 'openpk', sortKey: 'opensk', projection: 'KEYS_ONLY' },
  ],
} as const;
