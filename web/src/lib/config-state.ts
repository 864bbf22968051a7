import type { AppConfig } from './config';

/**
 * The loaded runtime configuration, without the validator: modules that only read the configuration
 * (the API client, the support address) import this, so zod (in config.ts) stays out of the marketing
 * pages' initial JavaScript.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

let current: AppConfig | undefined;
/** Why the last load failed: what getConfig() throws then, so the error page names the real cause. */
let failure: ConfigError | undefined;

/**
 * The loaded configuration. The app entry awaits loadConfig() before rendering, so this is safe in app components;
 * after a failed load it throws that load's error.
 */
export function getConfig(): AppConfig {
  if (!current) throw failure ?? new ConfigError('Configuration is not loaded yet: call loadConfig() first.');
  return current;
}

/** config.ts only: installs the validated configuration (or clears it). */
export function setCurrentConfig(config: AppConfig | undefined): void {
  current = config;
  failure = undefined;
}

/**
 * The configuration, loaded and validated now if nothing has loaded it yet. For code that can run on the
 * marketing entry, which renders without waiting for /config.json (the contact form, the terms' support
 * address); the validator is only downloaded then.
 */
export async function ensureConfig(): Promise<AppConfig> {
  if (current) return current;
  const { loadConfig } = await import('./config');
  try {
    return await loadConfig();
  } catch (error) {
    failure = error instanceof ConfigError ? error : new ConfigError(String(error));
    throw error;
  }
}
