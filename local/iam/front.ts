import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PolicyStatementJson } from '../../contract/permissions';
import { isAllowed, type RequestContext } from './evaluate';
import { FUNCTION_HEADER } from './identity';
import { LOCAL_ACCOUNT } from './policies';

/** How one service names a request in IAM, and how it answers a refusal. */
export interface ServiceFront {
  name: string;
  /** The request as IAM contexts (body: the raw request body). */
  contexts(req: IncomingMessage, url: URL, body: Buffer): RequestContext[];
  /** The service's own AccessDenied answer, so the SDK raises the error class it raises in AWS. */
  deny(res: ServerResponse, message: string, req: IncomingMessage): void;
}

export interface Refusal {
  fn: string;
  service: string;
  action: string;
  resource: string;
}

export interface IamFront {
  endpoint: string;
  close(): Promise<void>;
}

/** The principal a function's calls are made as (its role's session, as in Lambda). */
export const principalOf = (fn: string) => `arn:aws:sts::${LOCAL_ACCOUNT.accountId}:assumed-role/${fn}-role/${fn}`;

/**
 * A reverse proxy in front of an emulator, on the endpoint the functions use: a request marked with a function's
 * id (local/iam/identity.ts) is evaluated against that function's statements and refused as the service refuses;
 * anything else (the stack's own calls, browsers) passes as it is.
 */
export async function startIamFront(o: {
  target: string;
  /** The front is the address functions (and their presigned links) use: kept across restarts, like the service's. */
  port?: number;
  service: ServiceFront;
  policies: ReadonlyMap<string, PolicyStatementJson[]>;
  onRefusal: (r: Refusal) => void;
  /**
   * A fault on demand: a function's write whose request matches is carried out, and then the whole stack process dies
   * (SIGKILL) before the function sees the answer, as a Lambda dies mid-invocation (timeout, out of memory) after a
   * write landed. The stack's tests use it to put a kill -9 exactly between two steps.
   */
  dieAfterWrite?: RegExp;
}): Promise<IamFront> {
  const target = new URL(o.target);
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const fn = req.headers[FUNCTION_HEADER];
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
      delete headers[FUNCTION_HEADER];
      if (typeof fn === 'string') {
        const denied = firstDenied(fn, req, body);
        if (denied) {
          o.onRefusal({ fn, service: o.service.name, action: denied.action, resource: denied.resource });
          return o.service.deny(
            res,
            `User: ${principalOf(fn)} is not authorized to perform: ${denied.action} on resource: ${denied.resource} ` +
              `because no identity-based policy allows the ${denied.action} action`,
            req,
          );
        }
      }
      const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (up) => {
        if (o.dieAfterWrite && typeof fn === 'string' && (up.statusCode ?? 500) < 300 && o.dieAfterWrite.test(body.toString('utf8'))) {
          process.stderr.write(`[fault] ${fn}: a write matching ${String(o.dieAfterWrite)} landed; the stack dies now (SIGKILL)\n`);
          process.kill(process.pid, 'SIGKILL');
        }
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      // The emulator is down: the caller sees what a service it cannot reach gives, a dropped connection.
      upstream.on('error', () => res.socket?.destroy());
      upstream.end(body);
    });
  });

  function firstDenied(fn: string, req: IncomingMessage, body: Buffer): RequestContext | undefined {
    const statements = o.policies.get(fn);
    const url = new URL(req.url ?? '/', 'http://local');
    const contexts = o.service.contexts(req, url, body);
    // A function the stack does not know has no role: everything it asks is refused.
    return contexts.find((c) => !statements || !isAllowed(statements, c));
  }

  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (body: Buffer): Record<string, unknown> => {
  try {
    return JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
  } catch {
    return {};
  }
};

/** The JSON-protocol services (DynamoDB, Cognito) answer 400 with the error's `__type`. */
function jsonDeny(res: ServerResponse, message: string): void {
  const body = JSON.stringify({ __type: 'com.amazon.coral.service#AccessDeniedException', Message: message });
  res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-errortype': 'AccessDeniedException', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function jsonTargetFront(name: string, map: (target: string, body: Record<string, unknown>) => RequestContext[]): ServiceFront {
  return {
    name,
    contexts: (req, _url, body) => map(String(req.headers['x-amz-target'] ?? ''), json(body)),
    deny: (res, message) => jsonDeny(res, message),
  };
}

export function restJsonFront(name: string, map: (method: string, url: URL, body: Record<string, unknown>) => RequestContext[]): ServiceFront {
  return {
    name,
    contexts: (req, url, body) => map(req.method ?? 'GET', url, json(body)),
    // REST-JSON services (SES v2, @connections) answer 403 with the error type in a header and the body.
    deny: (res, message) => {
      const body = JSON.stringify({ message, Message: message });
      res.writeHead(403, { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    },
  };
}

export function s3Front(map: (method: string, url: URL, req: IncomingMessage, body: string) => RequestContext[]): ServiceFront {
  return {
    name: 's3',
    contexts: (req, url, body) => map(req.method ?? 'GET', url, req, body.toString('utf8')),
    deny: (res, message, req) => {
      const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</Message></Error>`;
      // HEAD answers have no body: the SDK names the error by the status.
      res.writeHead(403, { 'content-type': 'application/xml', 'content-length': req.method === 'HEAD' ? 0 : Buffer.byteLength(xml) });
      res.end(req.method === 'HEAD' ? undefined : xml);
    },
  };
}
