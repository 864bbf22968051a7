import { App } from 'aws-cdk-lib';
import { buildApp } from '../lib/build-app';

// Context: stage (dev|prod), senderEmail, supportEmail. See cdk.json and the README.
const app = new App();
buildApp(app);
app.synth();
