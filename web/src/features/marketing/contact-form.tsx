import { useRef, useState, type FormEvent } from 'react';
import { CONTACT_LIMITS } from '../../../../contract/contact';
import { Messages } from '../../../../contract/errors';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextAreaField, TextField } from '../../components/text-field';
import { sendContactMessage, type ContactMessage } from './contact-api';

/** invalid: the form is not filled in right (shown as is); failed: the send failed (shown as 'Error: ...'). */
type Status = { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'invalid' | 'failed'; message: string };

// The same check the server makes: something@something.tld, no spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const EMPTY: ContactMessage = { email: '', subject: '', description: '' };

/** What is wrong with the form, in the spec's words, or undefined when it can be sent. */
export function validateContact(values: ContactMessage): string | undefined {
  if (!values.email.trim() || !values.subject.trim() || !values.description.trim()) return Messages.fillAllFields;
  if (!EMAIL.test(values.email.trim())) return Messages.invalidEmail;
  return undefined;
}

export interface ContactFormProps {
  /** Injected in tests; the real call by default. */
  send?: (message: ContactMessage) => Promise<void>;
}

export function ContactForm({ send = sendContactMessage }: ContactFormProps) {
  const [values, setValues] = useState<ContactMessage>(EMPTY);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const statusRef = useRef<HTMLDivElement>(null);

  const set = (field: keyof ContactMessage) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status.kind === 'sending') return;
    const problem = validateContact(values);
    if (problem) {
      setStatus({ kind: 'invalid', message: problem });
      statusRef.current?.focus();
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      await send({ email: values.email.trim(), subject: values.subject.trim(), description: values.description.trim() });
      setValues(EMPTY);
      setStatus({ kind: 'sent' });
    } catch (err) {
      setStatus({ kind: 'failed', message: err instanceof Error && err.message ? err.message : Messages.contactFailed });
    }
    statusRef.current?.focus();
  }

  const left = CONTACT_LIMITS.description - values.description.length;
  return (
    <form noValidate onSubmit={onSubmit} aria-describedby="contact-status" className="flex flex-col gap-5">
      <TextField
        label="Your email"
        type="email"
        name="email"
        autoComplete="email"
        required
        maxLength={CONTACT_LIMITS.email}
        value={values.email}
        onChange={set('email')}
        hint="We reply to this address."
      />
      <TextField
        label="Subject"
        name="subject"
        required
        maxLength={CONTACT_LIMITS.subject}
        value={values.subject}
        onChange={set('subject')}
      />
      <TextAreaField
        label="Description"
        name="description"
        required
        rows={7}
        maxLength={CONTACT_LIMITS.description}
        value={values.description}
        onChange={set('description')}
        hint={`Tell us what happened and, for billing questions, the email of your account. ${left} characters left.`}
      />
      <div id="contact-status" ref={statusRef} tabIndex={-1} className="focus:outline-none">
        {status.kind === 'sent' && <Alert variant="success">{Messages.contactSent}</Alert>}
        {status.kind === 'invalid' && <Alert variant="error">{status.message}</Alert>}
        {status.kind === 'failed' && <Alert variant="error">{`Error: ${status.message}`}</Alert>}
      </div>
      <Button type="submit" size="lg" loading={status.kind === 'sending'} className="self-start">
        {status.kind === 'sending' ? 'Sending...' : 'Send message'}
      </Button>
    </form>
  );
}
