/** The address users write to for help (shown in the terms and the My Account Contact tab). */
export const SUPPORT_EMAIL = 'support@framewright.app';
