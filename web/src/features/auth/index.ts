/**
 * The auth feature's public interface, for other features:
 * - `useSession()` -> { status: 'loading' | 'signedIn' | 'signedOut', user?: { sub, email, givenName, familyName } };
 *   `useSessionStore` for code outside React (the job tracker follows the signed-in user with it).
 * - `changePassword(current, next)` and the form parts My Account's Change Password tab shares with the auth
 *   pages (fields, feedback, messages, Cognito's reasons).
 * Importing this does not load Amplify: the session loads it on first use (changePassword too). The router
 * imports the pages and the guard route (require-auth.tsx), and the app layout the session nav
 * (session-nav.tsx), by path: each is its own chunk.
 */
export { changePassword, confirmPassword, signOut, useSession, useSessionStore } from './session-store';
export { authErrorReason } from './auth-errors';
export { NewPasswordFields, PasswordField } from './auth-fields';
export { AuthMessages } from './auth-messages';
export { FormFeedback, type Feedback } from './form-feedback';
export { useFormFields } from './use-form-fields';
