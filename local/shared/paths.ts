import path from 'node:path';

/** The repository's root: the embedded stack loads the handlers (lambdas/handlers) and the web app (web/) from it. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');
