// zod/mini: same validation, ~17 kB gzip less on the landing page's first load than classic zod.
import * as z from 'zod/mini';
import type { AppConfig } from '../../../contract/app-config';
import { ConfigError, setCurrentConfig } from './config-state';

export { ConfigError, getConfig } from './config-state';

/**
 * Runtime configuration of the SPA. It comes from `/config.json` (written by CDK beside the built app,
 * served by the embedded stack locally), never from build-time env, so one build runs anywhere.
 */
const nonEmpty = () => z.string().check(z.minLength(1));

/** Contract paths start with /api, so this is usually '' (same origin) or the API's origin. */
const ApiBaseUrl = z.string().check(
  z.refine((v) => v === '' || v.startsWith('/') || /^https?:\/\/\S+$/.test(v), {
    message: 'must be empty (same origin), a path starting with "/" or an http(s) URL',
  }),
);

const AppConfigSchema = z.object({
  region: nonEmpty(),
  userPoolId: nonEmpty(),
  userPoolClientId: nonEmpty(),
  apiBaseUrl: ApiBaseUrl,
  /** Local only: cognito-local's endpoint. */
  userPoolEndpoint: z.optional(z.url()),
  /** Local only: cognito-local does not implement SRP. */
  authFlowType: z.optional(z.enum(['USER_SRP_AUTH', 'USER_PASSWORD_AUTH'])),
  /** Where users write for help (My Account > Contact, the terms). */
  supportEmail: z.optional(z.email()),
});
export type { AppConfig };
// The schema validates exactly the contract's shape: a key added to one and not the other fails the type-check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaIsContract: Same<z.infer<typeof AppConfigSchema>, AppConfig> = true;
void schemaIsContract;

/** Validates raw JSON; throws a ConfigError naming every bad key. */
export function parseConfig(raw: unknown): AppConfig {
  const result = AppConfigSchema.safeParse(raw);
  if (!result.success) {
    const problems = result.error.issues
      .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
      .join('; ');
    throw new ConfigError(`Invalid /config.json: ${problems}`);
  }
  return result.data;
}

let loading: Promise<AppConfig> | undefined;

/** Fetches and validates `/config.json` once; later calls share the same promise. */
export function loadConfig(fetchImpl: typeof fetch = (...args) => fetch(...args)): Promise<AppConfig> {
  loading ??= (async () => {
    let response: Response;
    try {
      response = await fetchImpl('/config.json', { headers: { accept: 'application/json' } });
    } catch (err) {
      throw new ConfigError(`Could not reach /config.json: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!response.ok) throw new ConfigError(`Could not load /config.json (HTTP ${response.status}).`);
    let raw: unknown;
    try {
      raw = await response.json();
    } catch {
      throw new ConfigError('/config.json is not valid JSON.');
    }
    const config = parseConfig(raw);
    setCurrentConfig(config);
    return config;
  })();
  // A failed load may be retried (e.g. from the error page).
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

/** Tests only: install a config directly, or clear it. */
export function setConfigForTesting(config: AppConfig | undefined): void {
  setCurrentConfig(config);
  loading = undefined;
}
