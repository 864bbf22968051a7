import { Messages } from '../../../../contract/errors';
import { ApiError, api } from '../../lib/api-client';
import { ensureConfig } from '../../lib/config-state';

export interface ContactMessage {
  email: string;
  subject: string;
  description: string;
}

/**
 * POST /api/send-contact. Resolves when the message is accepted; otherwise rejects with the text to show
 * after 'Error: ': the server's own explanation for a refused message (400, 429), else the spec's
 * 'Failed to send message.' (network failures and server errors say nothing useful to a visitor).
 */
export async function sendContactMessage(message: ContactMessage): Promise<void> {
  try {
    // The marketing entry renders before /config.json is read: the API's base URL comes from it.
    await ensureConfig();
    await api.sendContact({ body: message });
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.code) throw new Error(err.message);
    throw new Error(Messages.contactFailed);
  }
}
