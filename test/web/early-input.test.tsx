import { useEffect, type ReactNode } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { holdEarlyInput } from '../../web/src/early-input';
import { ContactForm } from '../../web/src/features/marketing/contact-form';
import { setConfigForTesting } from '../../web/src/lib/config';

// A prerendered contact form, typed into before the app hydrated it (the fields hold text React has not seen), then
// hydrated and released, as main.ts does on the visitor's first sign of intent. React is left to schedule its work as
// in a browser (no act(): it would hold every update until its scope ends, which is not how a page interleaves).
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

const fetchMock = jest.fn<Promise<{ ok: boolean; status: number; text: () => Promise<string> }>, [string, RequestInit]>();
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!done()) throw new Error(`timed out waiting for ${what}`);
}

let container: HTMLElement;
let root: Root | undefined;
let hydrated = false;

/** Renders nothing of its own: tells the test when the tree has hydrated. */
function Hydrated({ children }: { children: ReactNode }) {
  useEffect(() => {
    hydrated = true;
  }, []);
  return children;
}
const page = () => (
  <Hydrated>
    <ContactForm />
  </Hydrated>
);

beforeEach(() => {
  fetchMock.mockReset().mockResolvedValue({ ok: true, status: 200, text: async () => '{"ok":true}' });
  global.fetch = fetchMock as unknown as typeof fetch;
  setConfigForTesting({ region: 'us-east-1', userPoolId: 'us-east-1_test', userPoolClientId: 'client', apiBaseUrl: '' });
  hydrated = false;
  container = document.createElement('div');
  container.innerHTML = renderToString(page());
  document.body.appendChild(container);
});

afterEach(() => {
  root?.unmount();
  root = undefined;
  container.remove();
});

const field = (label: RegExp) => {
  const id = [...container.querySelectorAll('label')].find((l) => label.test(l.textContent ?? ''))!.htmlFor;
  return container.querySelector<HTMLInputElement | HTMLTextAreaElement>(`#${CSS.escape(id)}`)!;
};
const sendButton = () => [...container.querySelectorAll('button')].find((b) => b.textContent === 'Send message')!;
const statusText = () => container.querySelector('[role="status"]')?.textContent ?? '';
const alertText = () => container.querySelector('[role="alert"]')?.textContent ?? '';

/** What typing does to a field no script listens to yet. */
function typeBeforeHydration() {
  field(/Your email/).value = 'ada@example.com';
  field(/Subject/).value = 'Billing';
  field(/Description/).value = 'Where are my credits?';
}

async function hydrate() {
  root = hydrateRoot(container, page());
  await until(() => hydrated, 'hydration');
}

const sentBody = () => JSON.parse(String(fetchMock.mock.calls[0]![1].body)) as Record<string, string>;
const EVERY_FIELD = { email: 'ada@example.com', subject: 'Billing', description: 'Where are my credits?' };

describe('input held until the app has hydrated the page', () => {
  it('a message typed and sent before hydration goes out with every field', async () => {
    const early = holdEarlyInput(container);
    typeBeforeHydration();
    sendButton().click();
    expect(fetchMock).not.toHaveBeenCalled();

    await hydrate();
    await early.release();

    await until(() => /Message sent/.test(statusText()) || alertText() !== '', 'the outcome');
    expect(alertText()).toBe('');
    expect(sentBody()).toEqual(EVERY_FIELD);
  });

  it('a send pressed while the typed text is being handed to the app waits for all of it', async () => {
    const early = holdEarlyInput(container);
    typeBeforeHydration();
    await hydrate();

    const released = early.release();
    // The first field has been handed over, the others not yet: the visitor presses Send now.
    await nextTask();
    sendButton().click();
    await released;

    await until(() => /Message sent/.test(statusText()) || alertText() !== '', 'the outcome');
    expect(alertText()).toBe('');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(sentBody()).toEqual(EVERY_FIELD);
  });
});
