import { Logger } from '@aws-lambda-powertools/logger';

/** Structured JSON logs for every function (Powertools), with the request id and route appended per request. */
export const logger = new Logger({ serviceName: 'framewright' });
