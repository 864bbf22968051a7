import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'node:util';

// react-router 7 needs these in jsdom.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// As the app does (app-entry.tsx): shared components rendered under a react-router router follow it.
// Required after the polyfill above (imports are hoisted above it).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { installRouterNavigation } = require('../../web/src/app/router-navigation') as typeof import('../../web/src/app/router-navigation');
installRouterNavigation();
