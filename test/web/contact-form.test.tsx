import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ContactMessages } from '../../contract/contact';
import { ContactForm } from '../../web/src/features/marketing/contact-form';
import { setConfigForTesting } from '../../web/src/lib/config';

const fetchMock = jest.fn<Promise<{ ok: boolean; status: number; text: () => Promise<string> }>, [string, RequestInit]>();
const respond = (status: number, body = '') => ({ ok: status >= 200 && status < 300, status, text: async () => body });

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
  setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_test', userPoolClientId: 'client', apiBaseUrl: '' });
});

async function fill(values: { email?: string; subject?: string; description?: string }) {
  const user = userEvent.setup();
  render(<ContactForm />);
  if (values.email) await user.type(screen.getByLabelText(/Your email/), values.email);
  if (values.subject) await user.type(screen.getByLabelText(/Subject/), values.subject);
  if (values.description) await user.type(screen.getByLabelText(/Description/), values.description);
  await user.click(screen.getByRole('button', { name: 'Send message' }));
  return user;
}

describe('ContactForm', () => {
  it('asks for every field before sending anything', async () => {
    await fill({ email: 'ada@example.com', subject: 'Hello' });
    expect(screen.getByRole('alert')).toHaveTextContent(/^Please fill in all fields\.$/);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('treats fields of spaces as empty', async () => {
    await fill({ email: 'ada@example.com', subject: '   ', description: '  ' });
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all fields.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('checks the email address format', async () => {
    await fill({ email: 'ada.example.com', subject: 'Hello', description: 'Hi' });
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the trimmed message without a user id and confirms, clearing the form', async () => {
    fetchMock.mockResolvedValue(respond(200, '{"ok":true}'));
    await fill({ email: ' ada@example.com ', subject: 'Billing ', description: 'Where are my credits?' });
    expect(await screen.findByRole('status')).toHaveTextContent("Message sent successfully! We'll reply within 48 hours.");
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/send-contact');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ email: 'ada@example.com', subject: 'Billing', description: 'Where are my credits?' });
    expect(Object.keys(init.headers as Record<string, string>).map((h) => h.toLowerCase())).not.toContain('user-id');
    expect(screen.getByLabelText(/Your email/)).toHaveValue('');
    expect(screen.getByLabelText(/Description/)).toHaveValue('');
  });

  it("shows the server's reason when it refuses the message", async () => {
    fetchMock.mockResolvedValue(
      respond(429, JSON.stringify({ error: ContactMessages.rateLimited(12), code: 'RATE_LIMITED', retryAfterSeconds: 700 })),
    );
    await fill({ email: 'ada@example.com', subject: 'Again', description: 'Hi' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Error: Too many messages. Please try again in 12 minutes.');
    expect(screen.getByLabelText(/Subject/)).toHaveValue('Again');
  });

  it.each([
    ['a server error', () => fetchMock.mockResolvedValue(respond(500, JSON.stringify({ error: 'Something went wrong on our side.', code: 'INTERNAL' })))],
    ['a gateway error without a body', () => fetchMock.mockResolvedValue(respond(502))],
    ['a network failure', () => fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))],
  ])("shows 'Error: Failed to send message.' on %s", async (_name, arrange) => {
    arrange();
    await fill({ email: 'ada@example.com', subject: 'Hi', description: 'Hi' });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error: Failed to send message\.$/);
  });

  it('disables the button while sending, so one click sends one message', async () => {
    let release: (v: ReturnType<typeof respond>) => void = () => undefined;
    fetchMock.mockReturnValue(new Promise((r) => (release = r)));
    const user = await fill({ email: 'ada@example.com', subject: 'Hi', description: 'Hi' });
    const button = screen.getByRole('button', { name: 'Sending...' });
    expect(button).toBeDisabled();
    await user.click(button);
    release(respond(200));
    await screen.findByRole('status');
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
