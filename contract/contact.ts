/**
 * The contact form's limits and messages: the server validates with them (schemas.ts) and the web form
 * shows the same limits without pulling zod into the marketing pages.
 */
export const CONTACT_LIMITS = { email: 254, subject: 200, description: 5000 } as const;

export const ContactMessages = {
  emailTooLong: 'Email address is too long.',
  subjectTooLong: `Subject is too long. Keep it under ${CONTACT_LIMITS.subject} characters.`,
  descriptionTooLong: `Message is too long. Keep it under ${CONTACT_LIMITS.description} characters.`,
  rateLimited: (minutes: number) =>
    `Too many messages. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
} as const;

/**
 * Messages an hour per sender address, and per client IP (one IP can be many people behind a NAT): a burst
 * of that many, then one more each hour / limit (lambdas/domain/rate-limit.ts).
 */
export const CONTACT_LIMIT_PER_SENDER = 5;
export const CONTACT_LIMIT_PER_IP = 20;
