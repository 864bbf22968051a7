import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/build-app';

// Context (cdk.json or -c key=value): stage, senderEmail, supportEmail, senderDomain, cognitoEmail, paypal,
// secretsRevision. lib/settings.ts validates them; the README's Deploy section explains them.
const app = new App();
buildApp(app);
app.synth();
