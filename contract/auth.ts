/** The password policy, shared by the Cognito pool (CDK), the local emulator and the signup form. */
export const PASSWORD_POLICY = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: false,
} as const;

/** How long an ID token stays valid: the pool client's idTokenValidity (lib/constructs/auth.ts). */
export const ID_TOKEN_VALIDITY_HOURS = 1;

/**
 * How long a deleted account's tombstone is kept (its `ttl`). API Gateway's JWT authorizer checks only an ID token's
 * signature and expiry, so a token issued before the deletion is accepted until it expires: the tombstone must outlive
 * every such token, or a call with one would make the account again. A day is 24 times the token's life, room for
 * clock skew and for a longer token validity set later; and DynamoDB's TTL removes an item late, never early.
 */
export const DELETED_ACCOUNT_TOMBSTONE_SECONDS = 24 * ID_TOKEN_VALIDITY_HOURS * 3600;

/**
 * One account per address: every sign-up, sign-in, confirmation and reset names the user by the address trimmed and in
 * lower case (the web before calling Cognito, the local stand-in for any caller; the cloud pool matches sign-ins
 * without regard to case, signInCaseSensitive false).
 */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Why a password breaks the policy, in Cognito's words, or null when it conforms. */
export function passwordPolicyViolation(password: string): string | null {
  const p = PASSWORD_POLICY;
  if (password.length < p.minLength) return `Password not long enough (minimum ${p.minLength} characters)`;
  if (p.requireLowercase && !/[a-z]/.test(password)) return 'Password must have lowercase characters';
  if (p.requireUppercase && !/[A-Z]/.test(password)) return 'Password must have uppercase characters';
  if (p.requireDigits && !/[0-9]/.test(password)) return 'Password must have numeric characters';
  return null;
}

/** The longest first or last name a sign-up takes (after trimming). */
export const MAX_NAME_LENGTH = 50;

/** The name rule in plain words: the sign-up form's message and the PreSignUp trigger's refusal alike. */
export const NAME_RULE = `First and last name can be up to ${MAX_NAME_LENGTH} characters each, without web addresses or special characters.`;

// A scheme, "www.", an "@" or a dot followed by letters ("evil.example"): what a mail client could turn into a link.
// "St. John" and "J.R." pass; "St.John" does not (rare, and its owner can add the space).
const LINK_LIKE = /:\/\/|www\.|@|\S\.\p{L}{2,}/iu;
// Control and format characters (line breaks, bidirectional overrides) can reshape a mail's text around the name.
const CONTROL = /[\p{Cc}\p{Cf}]/u;

/**
 * True when a first or last name may appear in what we send (sign-up checks it in the form and in Cognito's PreSignUp
 * trigger; the code mails greet by name only when it holds): trimmed, 1 to MAX_NAME_LENGTH characters, nothing a mail
 * client could show as a link, no control characters. Our sender must not carry a stranger's words to any address.
 */
export function isAcceptableName(name: string): boolean {
  const n = name.trim();
  return n.length > 0 && [...n].length <= MAX_NAME_LENGTH && !LINK_LIKE.test(n) && !CONTROL.test(n);
}
