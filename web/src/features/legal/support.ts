import { getConfig } from '../../lib/config-state';

/** The address users write to for help, from the deployment's /config.json (undefined if it names none). */
export function supportEmail(): string | undefined {
  try {
    return getConfig().supportEmail;
  } catch {
    return undefined;
  }
}
