import fs from 'node:fs';
import { cognitoRequest, connectionsRequest, dynamoRequest, s3Request, secretsManagerRequest, sesRequest } from './requests';
import { jsonTargetFront, restJsonFront, s3Front, startIamFront, type IamFront, type Refusal } from './front';
import { LOCAL_ACCOUNT, LOCAL_LIVE_API_ID, localArns, localPolicies, type LocalResources } from './policies';

export { asFunction, markFunctionRequests } from './identity';

/** The emulators' own endpoints. */
export interface Emulators {
  dynamodb: string;
  s3: string;
  ses: string;
  cognito: string;
  secretsManager: string;
}

export interface LocalIam {
  /** The endpoints the functions are given (each an IAM front of the emulator). */
  endpoints: Emulators;
  /** Puts a front before the push channel's @connections endpoint (`http://host:port/<stage>`), once it is up. */
  frontConnections(endpoint: string): Promise<string>;
  refusals(): readonly Refusal[];
  close(): Promise<void>;
}

/**
 * IAM for the embedded stack: every AWS call a function makes reaches its emulator through a front that evaluates
 * it against that function's statements (contract/permissions.ts, the same CDK gives its role) and answers
 * AccessDenied where AWS would. FW_IAM_REFUSALS_FILE, when set, collects every refusal as a JSON line.
 * FW_FAULT_DIE_AFTER_WRITE (a regular expression), when set, kills the stack right after a function's DynamoDB write
 * whose request matches it landed (front.ts `dieAfterWrite`).
 */
export type FrontPorts = Partial<Record<keyof Emulators | 'connections', number>>;

export async function startLocalIam(o: { emulators: Emulators; resources: LocalResources; ports?: FrontPorts; log: (line: string) => void }): Promise<LocalIam> {
  const policies = localPolicies(o.resources);
  const identities = localArns(o.resources).sendingIdentities;
  const refused: Refusal[] = [];
  const onRefusal = (r: Refusal) => {
    refused.push(r);
    o.log(`[iam] refused ${r.fn}: ${r.action} on ${r.resource}`);
    const file = process.env.FW_IAM_REFUSALS_FILE;
    if (file) fs.appendFileSync(file, `${JSON.stringify(r)}\n`);
  };
  const a = LOCAL_ACCOUNT;
  const fronts: IamFront[] = await Promise.all([
    startIamFront({
      target: o.emulators.dynamodb,
      port: o.ports?.dynamodb,
      policies,
      onRefusal,
      service: jsonTargetFront('dynamodb', (t, b) => dynamoRequest(a, t, b)),
      ...(process.env.FW_FAULT_DIE_AFTER_WRITE ? { dieAfterWrite: new RegExp(process.env.FW_FAULT_DIE_AFTER_WRITE) } : {}),
    }),
    startIamFront({ target: o.emulators.s3, port: o.ports?.s3, policies, onRefusal, service: s3Front((m, url, req, body) => s3Request(m, url, req.headers, body)) }),
    startIamFront({ target: o.emulators.ses, port: o.ports?.ses, policies, onRefusal, service: restJsonFront('ses', (m, url, b) => sesRequest(a, m, url, b, identities)) }),
    startIamFront({ target: o.emulators.cognito, port: o.ports?.cognito, policies, onRefusal, service: jsonTargetFront('cognito-idp', (t, b) => cognitoRequest(a, t, b)) }),
    startIamFront({
      target: o.emulators.secretsManager,
      port: o.ports?.secretsManager,
      policies,
      onRefusal,
      service: jsonTargetFront('secretsmanager', (t, b) => secretsManagerRequest(a, t, b)),
    }),
  ]);
  const [dynamodb, s3, ses, cognito, secretsManager] = fronts.map((f) => f.endpoint) as [string, string, string, string, string];
  return {
    endpoints: { dynamodb, s3, ses, cognito, secretsManager },
    async frontConnections(endpoint) {
      const url = new URL(endpoint);
      const front = await startIamFront({
        target: url.origin,
        port: o.ports?.connections,
        policies,
        onRefusal,
        service: restJsonFront('execute-api', (m, u) => connectionsRequest(a, LOCAL_LIVE_API_ID, m, u)),
      });
      fronts.push(front);
      return `${front.endpoint}${url.pathname}`;
    },
    refusals: () => refused,
    close: async () => {
      await Promise.all(fronts.map((f) => f.close()));
    },
  };
}
