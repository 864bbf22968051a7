import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/build-app';
import { SettingsError } from '../lib/settings';

// Context (cdk.json or -c key=value): stage, senderEmail, supportEmail, senderDomain, existingSenderIdentity,
// cognitoEmail, paypal, alarmEmail, monthlyBudgetUsd, dailyGenerationCap, reservedConcurrency,
// accountConcurrency, restoredTableName, restoredTableStreamArn, region.
// lib/settings.ts validates them (and refuses unsafe prod settings); docs/deploy.md explains them.
try {
  const app = new App();
  buildApp(app);
  app.synth();
} catch (err) {
  // A setting that is missing or wrong (or no web build) is the operator's to fix: one line, no stack trace.
  if (!(err instanceof SettingsError)) throw err;
  console.error(`Framewright: ${err.message}`);
  process.exit(1);
}
