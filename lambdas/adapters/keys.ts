/** Key layout of the single table (DESIGN section 3). */
export const keys = {
  user: (sub: string) => `USER#${sub}`,
  account: 'ACCOUNT',
  ledger: (createdAt: string, id: string) => `LEDGER#${createdAt}#${id}`,
  media: (createdAt: string, id: string) => `MEDIA#${createdAt}#${id}`,
  job: (predictionId: string) => `JOB#${predictionId}`,
  order: (orderId: string) => `ORDER#${orderId}`,
  /** The owner's copy of an order, so listing a user's payments is one Query. */
  payment: (createdAt: string, orderId: string) => `PAYMENT#${createdAt}#${orderId}`,
  webhook: (provider: string, eventId: string) => `WEBHOOK#${provider}:${eventId}`,
} as const;
