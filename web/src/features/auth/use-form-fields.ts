import { useState, type ChangeEvent } from 'react';

/** The value and change handler of one text field, to spread onto a TextField. */
export interface FieldBinding {
  value: string;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}

/** A form of text fields in one state object, and `field(key)` to bind an input to one of them. */
export function useFormFields<F extends { [K in keyof F]: string }>(initial: F | (() => F)) {
  const [form, setForm] = useState<F>(initial);
  const field = (key: keyof F): FieldBinding => ({
    value: form[key],
    onChange: (e) => setForm((f) => ({ ...f, [key]: e.target.value })),
  });
  return { form, setForm, field };
}
