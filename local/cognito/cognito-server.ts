/**
 * cognito-local, assembled in-process with three additions the product needs:
 * - codes (sign-up, resend, forgot password) are emailed through the local SES, so they reach the dev mailbox;
 * - the targets cognito-local lacks and Amplify v6 calls: ResendConfirmationCode, GetTokensFromRefreshToken, GlobalSignOut;
 * - the behaviour of real Cognito where cognito-local differs: a pool whose sign-in is not case sensitive (every
 *   username and the email attribute are taken trimmed and in lower case, contract/auth normalizeEmail), password policy, NotAuthorizedException for a
 *   wrong password, ChangePassword checking the current password before the new one, and a disabled user
 *   gets no token (sign-in or refresh) and is refused by GetUser and ChangePassword;
 * - the PreSignUp trigger (lambdas/triggers/pre-sign-up.ts), run on SignUp with Cognito's event, its refusal answered
 *   as Cognito answers it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { normalizeEmail, passwordPolicyViolation } from '../../contract/auth';
import { handler as preSignUp } from '../../lambdas/triggers/pre-sign-up';

/* eslint-disable @typescript-eslint/no-require-imports */
const lib = (p: string) => require(path.join(path.dirname(require.resolve('cognito-local/package.json')), 'lib', p));
const { createServer } = lib('server/server');
const { Router } = lib('server/Router');
const services = lib('services') as {
  DateClock: new () => unknown;
  TriggersService: new (...a: unknown[]) => unknown;
  MessagesService: new (triggers: unknown, delivery: unknown) => { create(...a: unknown[]): Promise<object>; deliver(...a: unknown[]): Promise<void> };
};
const { StormDBDataStoreFactory } = lib('services/dataStore/stormDb');
const { CognitoServiceFactoryImpl } = lib('services/cognitoService');
const { UserPoolServiceFactoryImpl } = lib('services/userPoolService');
const { MessageDeliveryService } = lib('services/messageDelivery/messageDelivery');
const { JwtTokenGenerator } = lib('services/tokenGenerator');
const { CryptoService } = lib('services/crypto');
const { otp } = lib('services/otp');

/** Which flow a code belongs to: cognito-local's sources. */
export type CodeSource = 'SignUp' | 'ResendCode' | 'ForgotPassword' | 'UpdateUserAttribute' | 'VerifyUserAttribute' | 'AdminCreateUser' | 'Authentication';

export interface CodeMessage {
  source: CodeSource;
  email: string;
  code: string;
  givenName?: string;
}

export interface CognitoLocalOptions {
  dataDir: string;
  host: string;
  port: number;
  region: string;
  userPoolId: string;
  userPoolClientId: string;
  /** Delivers a code by email (the embedded stack sends it through the local SES). */
  sendCode: (msg: CodeMessage) => Promise<void>;
  log?: (line: string) => void;
}

export interface CognitoLocal {
  url: string;
  issuer: string;
  jwksUrl: string;
  close(): Promise<void>;
}

type Attr = { Name: string; Value: string };
type Ctx = { logger: unknown };
type Handler = (ctx: Ctx, req: Record<string, unknown>) => Promise<unknown>;

class CognitoError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Writes the pool and client files once, with fixed ids, so every start (and the web config) sees the same pool. */
function ensurePoolFiles(dbDir: string, o: CognitoLocalOptions): void {
  fs.mkdirSync(dbDir, { recursive: true });
  const poolFile = path.join(dbDir, `${o.userPoolId}.json`);
  if (!fs.existsSync(poolFile)) {
    const now = new Date().toISOString();
    const pool = {
      Users: {},
      Options: {
        Id: o.userPoolId,
        Name: 'framewright-local',
        UsernameAttributes: ['email'],
        AutoVerifiedAttributes: ['email'],
        MfaConfiguration: 'OFF',
        SchemaAttributes: [
          { Name: 'given_name', AttributeDataType: 'String', Mutable: true, Required: true },
          { Name: 'family_name', AttributeDataType: 'String', Mutable: true, Required: true },
        ],
        CreationDate: now,
        LastModifiedDate: now,
      },
    };
    fs.writeFileSync(poolFile, JSON.stringify(pool, null, 2));
  }
  const clientsFile = path.join(dbDir, 'clients.json');
  const clients = fs.existsSync(clientsFile) ? JSON.parse(fs.readFileSync(clientsFile, 'utf8')) : { Clients: {} };
  if (!clients.Clients[o.userPoolClientId]) {
    const now = new Date().toISOString();
    clients.Clients[o.userPoolClientId] = {
      ClientId: o.userPoolClientId,
      ClientName: 'framewright-web',
      UserPoolId: o.userPoolId,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      RefreshTokenValidity: 30,
      AccessTokenValidity: 1,
      IdTokenValidity: 1,
      TokenValidityUnits: { AccessToken: 'hours', IdToken: 'hours', RefreshToken: 'days' },
      CreationDate: now,
      LastModifiedDate: now,
    };
    fs.writeFileSync(clientsFile, JSON.stringify(clients, null, 2));
  }
}

const attr = (attrs: Attr[] | undefined, name: string) => attrs?.find((a) => a.Name === name)?.Value;

export async function startCognitoLocal(o: CognitoLocalOptions): Promise<CognitoLocal> {
  const configDir = path.resolve(o.dataDir);
  const dbDir = path.join(configDir, 'db');
  ensurePoolFiles(dbDir, o);
  const issuerDomain = `https://cognito-idp.${o.region}.amazonaws.com`;

  const silent = { debug() {}, info() {}, warn() {}, error() {}, child() { return silent; } };
  const logger = silent;
  const ctx: Ctx = { logger };
  const config = {
    LambdaClient: { credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, region: 'local' },
    TriggerFunctions: {},
    UserPoolDefaults: { UsernameAttributes: ['email'] },
    TokenConfig: { IssuerDomain: issuerDomain },
    KMSConfig: { credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, region: 'local' },
    ServerConfig: { port: o.port, hostname: o.host, development: false, https: false },
  };

  const clock = new services.DateClock();
  const dataStoreFactory = new StormDBDataStoreFactory(dbDir);
  const cognitoServiceFactory = new CognitoServiceFactoryImpl(dbDir, dataStoreFactory, new UserPoolServiceFactoryImpl(clock, dataStoreFactory));
  const cognito = await cognitoServiceFactory.create(ctx, config.UserPoolDefaults);
  // No Lambda triggers are configured, so the Lambda client is never called.
  const triggers = new services.TriggersService(clock, cognito, { enabled: () => false }, new CryptoService(config.KMSConfig));

  const sender = {
    async sendEmail(_c: Ctx, user: { Attributes: Attr[] }, destination: string, message: { __code: string; __source: CodeSource }) {
      await o.sendCode({ source: message.__source, email: destination, code: message.__code, givenName: attr(user.Attributes, 'given_name') });
      o.log?.(`[cognito] ${message.__source} code for ${destination}: ${message.__code}`);
    },
    async sendSms() {
      throw new CognitoError('InvalidParameterException', 'SMS is not enabled for this pool.');
    },
  };
  // cognito-local does not tell the sender which flow a code is for; carry it in the message.
  class SourceAwareMessages extends services.MessagesService {
    override async create(...args: unknown[]) {
      const [, source] = args;
      const msg = await super.create(...args);
      return { ...msg, __source: source };
    }
  }
  const messages = new SourceAwareMessages(triggers, new MessageDeliveryService(sender));
  // Real Cognito puts standard attributes such as given_name in the ID token; cognito-local does not.
  const tokenTriggers = {
    enabled: (name: string) => name === 'PreTokenGeneration',
    preTokenGeneration: async (_c: Ctx, { userAttributes }: { userAttributes: Attr[] }) => ({
      claimsOverrideDetails: {
        claimsToAddOrOverride: {
          given_name: attr(userAttributes, 'given_name') ?? '',
          family_name: attr(userAttributes, 'family_name') ?? '',
          email_verified: attr(userAttributes, 'email_verified') === 'true',
        },
      },
    }),
  };
  const tokenGenerator = new JwtTokenGenerator(clock, tokenTriggers, config.TokenConfig);
  const svc = { clock, cognito, config, messages, otp, tokenGenerator, triggers };
  const base = Router(svc) as (target: string) => Handler;

  const userPool = () => cognito.getUserPoolForClientId(ctx, o.userPoolClientId);
  const enforcePolicy = (password: unknown) => {
    const why = passwordPolicyViolation(String(password ?? ''));
    if (why) throw new CognitoError('InvalidPasswordException', `Password did not conform with policy: ${why}`);
  };
  const refuseDisabled = (user: { Enabled?: boolean } | null | undefined) => {
    if (user && user.Enabled === false) throw new CognitoError('NotAuthorizedException', 'User is disabled.');
  };
  /** The user an access token names (cognito-local does not check signatures either). */
  const userOfAccessToken = async (c: Ctx, token: unknown) => {
    const payload = String(token ?? '').split('.')[1];
    let claims: { username?: string; sub?: string } = {};
    try {
      claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    } catch {
      throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    }
    const user = await (await userPool()).getUserByUsername(c, String(claims.username ?? claims.sub ?? ''));
    if (!user) throw new CognitoError('NotAuthorizedException', 'Invalid Access Token');
    return user as { Enabled?: boolean; Password?: string };
  };
  const refuseDisabledRefresh = async (c: Ctx, refreshToken: unknown) => {
    refuseDisabled(await (await userPool()).getUserByRefreshToken(c, String(refreshToken ?? '')));
  };
  const wrongPasswordIsNotAuthorized = (h: Handler): Handler => async (c, req) => {
    try {
      return await h(c, req);
    } catch (e) {
      if ((e as { code?: string }).code === 'InvalidPasswordException') {
        throw new CognitoError('NotAuthorizedException', 'Incorrect username or password.');
      }
      throw e;
    }
  };

  /** Cognito's PreSignUp call, made before the user exists: a thrown error refuses the sign-up with its message. */
  const runPreSignUp = async (req: Record<string, unknown>) => {
    const userAttributes = Object.fromEntries(((req.UserAttributes as Attr[] | undefined) ?? []).map((a) => [a.Name, a.Value]));
    const event: PreSignUpTriggerEvent = {
      version: '1',
      region: o.region,
      userPoolId: o.userPoolId,
      userName: String(req.Username ?? ''),
      callerContext: { awsSdkVersion: 'aws-sdk-unknown-unknown', clientId: String(req.ClientId ?? '') },
      triggerSource: 'PreSignUp_SignUp',
      request: { userAttributes, validationData: {}, clientMetadata: (req.ClientMetadata as Record<string, string> | undefined) ?? {} },
      response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
    };
    try {
      await preSignUp(event);
    } catch (e) {
      throw new CognitoError('UserLambdaValidationException', `PreSignUp failed with error ${(e as Error).message}.`);
    }
  };

  const extra: Record<string, Handler> = {
    async ResendConfirmationCode(c, req) {
      const pool = await userPool();
      const user = await pool.getUserByUsername(c, String(req.Username ?? ''));
      if (!user) throw new CognitoError('UserNotFoundException', 'Username/client id combination not found.');
      if (user.UserStatus === 'CONFIRMED') throw new CognitoError('InvalidParameterException', 'User is already confirmed.');
      const email = attr(user.Attributes, 'email')!;
      const code = otp();
      await pool.saveUser(c, { ...user, ConfirmationCode: code });
      const delivery = { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: email };
      await messages.deliver(c, 'ResendCode', req.ClientId, pool.options.Id, user, code, req.ClientMetadata, delivery);
      return { CodeDeliveryDetails: delivery };
    },
    async GetTokensFromRefreshToken(c, req) {
      await refuseDisabledRefresh(c, req.RefreshToken);
      return base('InitiateAuth')(c, {
        ClientId: req.ClientId,
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        AuthParameters: { REFRESH_TOKEN: req.RefreshToken },
      });
    },
    async GlobalSignOut() {
      return {};
    },
  };

  /** Names the user by the normalized address, as the web does before any call: one account per email, any case. */
  const withNormalizedEmail = (req: Record<string, unknown>): Record<string, unknown> => {
    const out = { ...req };
    if (typeof out.Username === 'string') out.Username = normalizeEmail(out.Username);
    const params = out.AuthParameters as Record<string, string> | undefined;
    if (params?.USERNAME) out.AuthParameters = { ...params, USERNAME: normalizeEmail(params.USERNAME) };
    if (Array.isArray(out.UserAttributes)) {
      out.UserAttributes = (out.UserAttributes as Attr[]).map((a) => (a.Name === 'email' && typeof a.Value === 'string' ? { ...a, Value: normalizeEmail(a.Value) } : a));
    }
    return out;
  };

  const router = (target: string): Handler => {
    const h0 = routed(target);
    return (c, req) => h0(c, withNormalizedEmail(req));
  };
  const routed = (target: string): Handler => {
    if (extra[target]) return extra[target];
    const h = base(target);
    switch (target) {
      case 'SignUp':
        return async (c, req) => {
          enforcePolicy(req.Password);
          await runPreSignUp(req);
          return h(c, req);
        };
      case 'ConfirmSignUp':
        // Confirming with the emailed code verifies the email, as in Cognito.
        return async (c, req) => {
          const out = await h(c, req);
          const pool = await userPool();
          const user = await pool.getUserByUsername(c, String(req.Username ?? ''));
          if (user && attr(user.Attributes, 'email_verified') !== 'true') {
            const rest = (user.Attributes as Attr[]).filter((a) => a.Name !== 'email_verified');
            await pool.saveUser(c, { ...user, Attributes: [...rest, { Name: 'email_verified', Value: 'true' }] });
          }
          return out;
        };
      case 'ConfirmForgotPassword':
        return async (c, req) => (enforcePolicy(req.Password), h(c, req));
      case 'ChangePassword':
        // The current password is checked before the new one is judged, so a wrong one always says so.
        return async (c, req) => {
          const user = await userOfAccessToken(c, req.AccessToken);
          refuseDisabled(user);
          if (req.PreviousPassword !== user.Password) throw new CognitoError('NotAuthorizedException', 'Incorrect username or password.');
          enforcePolicy(req.ProposedPassword);
          return h(c, req);
        };
      case 'GetUser':
        return async (c, req) => (refuseDisabled(await userOfAccessToken(c, req.AccessToken)), h(c, req));
      case 'InitiateAuth':
        return wrongPasswordIsNotAuthorized(async (c, req) => {
          const params = (req.AuthParameters as Record<string, string> | undefined) ?? {};
          if (params.USERNAME) refuseDisabled(await (await userPool()).getUserByUsername(c, params.USERNAME));
          if (params.REFRESH_TOKEN) await refuseDisabledRefresh(c, params.REFRESH_TOKEN);
          return h(c, req);
        });
      default:
        return h;
    }
  };
  // Errors thrown here must look like cognito-local's own, which its server turns into {__type, message}.
  const { CognitoError: LocalCognitoError } = lib('errors');
  const translated = (target: string): Handler => {
    const h = router(target);
    return async (c, req) => {
      try {
        return await h(c, req);
      } catch (e) {
        if (e instanceof CognitoError) throw new LocalCognitoError(e.code, e.message);
        throw e;
      }
    };
  };

  const server: { start(): Promise<Server>; stop?(): Promise<void> } = createServer(translated, logger, config.ServerConfig, svc);
  const http = await server.start();
  const { port } = http.address() as AddressInfo;
  const url = `http://${o.host}:${port}`;
  return {
    url,
    issuer: `${issuerDomain}/${o.userPoolId}`,
    jwksUrl: `${url}/${o.userPoolId}/.well-known/jwks.json`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
