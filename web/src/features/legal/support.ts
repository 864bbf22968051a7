import { SITE_SUPPORT_EMAIL_PLACEHOLDER, SUPPORT_EMAIL_META } from '../../../../contract/site';
import { getConfig } from '../../lib/config-state';

/**
 * The address users write to for help (undefined if the deployment names none): from the deployment's /config.json
 * once it is loaded; before that, on a prerendered page, from the page's own meta tag, which the server of the build
 * filled in with the same address (so hydration renders what the HTML shows). The prerender itself renders the
 * placeholder that server replaces.
 */
export function supportEmail(): string | undefined {
  try {
    return getConfig().supportEmail;
  } catch {
    if (typeof document === 'undefined') return SITE_SUPPORT_EMAIL_PLACEHOLDER;
    const meta = document.querySelector<HTMLMetaElement>(`meta[name="${SUPPORT_EMAIL_META}"]`)?.content;
    return meta && meta !== SITE_SUPPORT_EMAIL_PLACEHOLDER ? meta : undefined;
  }
}
