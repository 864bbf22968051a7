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
  indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
} as const;
