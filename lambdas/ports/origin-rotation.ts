/** What rotating the origin secret needs: the secret's versions, the edge that sends the header, and the API to try it on. */

/** Staging labels of Secrets Manager versions. */
export const Stage = { current: 'AWSCURRENT', pending: 'AWSPENDING', previous: 'AWSPREVIOUS' } as const;

export interface SecretVersions {
  /** Whether rotation is on, and each version's staging labels. */
  describe(secretId: string): Promise<{ rotationEnabled: boolean; versions: Record<string, string[]> }>;
  /** The value of a version holding `stage`; undefined when it holds no value (yet). */
  value(secretId: string, versionId: string, stage: string): Promise<string | undefined>;
  /** Stores the value of version `versionId`, labelled AWSPENDING. */
  putPending(secretId: string, versionId: string, value: string): Promise<void>;
  /** Moves AWSCURRENT from `fromVersionId` to `versionId` (the old one becomes AWSPREVIOUS). */
  makeCurrent(secretId: string, versionId: string, fromVersionId: string): Promise<void>;
}

/** Where the origin header's value is configured: CloudFront's API origins. */
export interface OriginHeaderTarget {
  set(value: string): Promise<void>;
}

/** The API's answer (its status) to a request that carries `value` as the origin header. */
export type OriginProbe = (value: string) => Promise<number>;
