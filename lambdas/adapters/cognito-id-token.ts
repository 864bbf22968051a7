import { CognitoJwtVerifier } from 'aws-jwt-verify';
import type { IdTokenVerifier } from '../ports/live';

/**
 * Verifies a Cognito ID token as the HTTP API's JWT authorizer does (signature by the pool's keys, issuer, the web
 * client as audience, token_use id, expiry), with aws-jwt-verify. `jwksUrl`: where the keys are served when that
 * is not Cognito itself (cognito-local in the embedded stack); otherwise the verifier fetches the pool's JWKS.
 */
/** The local keys' fetch ends within this, like the verifier's own fetch of Cognito's JWKS (aws-jwt-verify bounds it). */
const JWKS_TIMEOUT_MS = 3_000;

export function cognitoIdTokenVerifier(userPoolId: string, clientId: string, jwksUrl?: string): IdTokenVerifier {
  const verifier = CognitoJwtVerifier.create({ userPoolId, clientId, tokenUse: 'id' });
  let keysLoaded: Promise<void> | undefined;
  const loadKeys = () =>
    (keysLoaded ??= jwksUrl
      ? fetch(jwksUrl, { signal: AbortSignal.timeout(JWKS_TIMEOUT_MS) })
          .then((r) => r.json())
          .then((jwks) => verifier.cacheJwks(jwks as never))
          .catch((err: unknown) => {
            keysLoaded = undefined;
            throw err;
          })
      : Promise.resolve());
  return async (token) => {
    await loadKeys();
    try {
      const payload = await verifier.verify(token);
      return typeof payload.sub === 'string' && payload.sub ? payload.sub : undefined;
    } catch {
      return undefined;
    }
  };
}
