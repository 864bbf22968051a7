/**
 * The public site's showcase media: a production synth refuses a build whose showcase files the local simulator made,
 * naming the entries and the one command that renders real ones; dev deploys them (its pages say "placeholder").
 */
import { SettingsError } from '../../lib/settings';
import { makeApp } from './synth';

const PROD = { stage: 'prod', cognitoEmail: 'ses', alarmEmail: 'ops@framewright.app', accountConcurrency: '1000' };

test('prod stops at synth on simulator placeholders, with the command that renders real ones', () => {
  let thrown: unknown;
  try {
    makeApp({ context: PROD, site: { placeholderMedia: ['auth-loop', 'hero'] } }).cleanup();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(SettingsError);
  expect((thrown as Error).message).toBe(
    "The public pages' showcase media are placeholders the local simulator made (auth-loop, hero). " +
      'Render them with the models: REPLICATE_API_TOKEN=r8_... npm run showcase (then commit, npm run build, and deploy).',
  );
});

test('prod synthesizes once every showcase file is a model render; dev takes placeholders', () => {
  makeApp({ context: PROD, site: { placeholderMedia: [] } }).cleanup();
  makeApp({ context: { stage: 'dev' }, site: { placeholderMedia: ['hero'] } }).cleanup();
});
