export interface LocalSes {
  endpoint: string;
  stop(): Promise<void>;
}

/** aws-ses-v2-local, bound to 127.0.0.1. */
export async function startSes(port: number, log: (l: string) => void): Promise<LocalSes> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const server = require('aws-ses-v2-local').default as (c: { host: string; port: number }) => Promise<import('node:http').Server>;
  // The emulator answers SESv2 GetAccount (the health probe) from this variable.
  process.env.AWS_SES_ACCOUNT ??= JSON.stringify({
    DedicatedIpAutoWarmupEnabled: false,
    Details: {
      AdditionalContactEmailAddresses: [],
      ContactLanguage: 'EN',
      MailType: 'TRANSACTIONAL',
      ReviewDetails: { CaseId: 'local', Status: 'GRANTED' },
      UseCaseDescription: 'Framewright local stack',
      WebsiteURL: 'http://localhost',
    },
    EnforcementStatus: 'HEALTHY',
    ProductionAccessEnabled: true,
    SendingEnabled: true,
    SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 0 },
    SuppressionAttributes: { SuppressedReasons: [] },
  });
  const http = await server({ host: '127.0.0.1', port });
  const endpoint = `http://127.0.0.1:${port}`;
  log(`[ses] aws-ses-v2-local on ${endpoint}`);
  return { endpoint, stop: () => new Promise<void>((r) => http.close(() => r())) };
}
