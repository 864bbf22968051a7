import { BACKGROUND_FUNCTIONS } from '../../contract/functions';
import { LIVE_ROUTES } from '../../contract/live';
import { statementsFor, type GrantArns, type PermissionsDef, type PolicyStatementJson } from '../../contract/permissions';
import { ALL_ROUTES } from '../../contract/routes';

/** The embedded stack's account, and the ARNs its resources would have there. */
export const LOCAL_ACCOUNT = { region: 'us-east-1', accountId: '000000000000' } as const;
/** The push channel's API id locally (the ARN of its @connections). */
export const LOCAL_LIVE_API_ID = 'framewrightlocal';

export interface LocalResources {
  tableName: string;
  mediaBucket: string;
  userPoolId: string;
  senderEmail: string;
  /** The local Secrets Manager's ARNs (their suffixes are made at creation, as Secrets Manager makes them). */
  secretArns?: { secret: string; originSecret: string; welcomeHashKey: string; contentCredentials: string };
}

export function localArns(r: LocalResources): GrantArns {
  const { region, accountId } = LOCAL_ACCOUNT;
  return {
    table: `arn:aws:dynamodb:${region}:${accountId}:table/${r.tableName}`,
    mediaBucket: `arn:aws:s3:::${r.mediaBucket}`,
    userPool: `arn:aws:cognito-idp:${region}:${accountId}:userpool/${r.userPoolId}`,
    secret: r.secretArns?.secret ?? `arn:aws:secretsmanager:${region}:${accountId}:secret:framewright-local-AbCdEf`,
    originSecret: r.secretArns?.originSecret ?? `arn:aws:secretsmanager:${region}:${accountId}:secret:framewright/local/origin-verify-AbCdEf`,
    welcomeHashKey: r.secretArns?.welcomeHashKey ?? `arn:aws:secretsmanager:${region}:${accountId}:secret:framewright/local/welcome-hash-key-AbCdEf`,
    contentCredentials: r.secretArns?.contentCredentials ?? `arn:aws:secretsmanager:${region}:${accountId}:secret:framewright/local/content-credentials-AbCdEf`,
    // As lib/constructs/email.ts: the sender's address and its domain.
    sendingIdentities: [`arn:aws:ses:${region}:${accountId}:identity/${r.senderEmail}`, `arn:aws:ses:${region}:${accountId}:identity/${r.senderEmail.split('@')[1]}`],
    senderEmail: r.senderEmail,
    liveConnections: `arn:aws:execute-api:${region}:${accountId}:${LOCAL_LIVE_API_ID}/*/*/@connections/*`,
  };
}

/** Every function of the product by id (HTTP routes, background and push-channel functions) with its definition. */
export function functionDefs(): Map<string, PermissionsDef> {
  return new Map<string, PermissionsDef>([...ALL_ROUTES, ...BACKGROUND_FUNCTIONS, ...LIVE_ROUTES].map((d) => [d.id, d]));
}

/** Each function's statements, computed by the module CDK builds the roles with. */
export function localPolicies(r: LocalResources, defs = functionDefs()): Map<string, PolicyStatementJson[]> {
  const arns = localArns(r);
  return new Map([...defs].map(([id, def]) => [id, statementsFor(def, arns)]));
}
