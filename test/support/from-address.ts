/**
 * Requests from a chosen loopback address: Linux routes all of 127.0.0.0/8 to this machine, so a client socket bound
 * to 127.a.b.c reaches the stack's 127.0.0.1 and the stack sees 127.a.b.c as the caller, as CloudFront would see a
 * viewer's address. Tests get an IP of their own without a header, since the stack ignores client-sent addresses.
 */
import http from 'node:http';

/** A random loopback address other than 127.0.0.1. */
export function loopbackIp(): string {
  const b = () => Math.floor(Math.random() * 254) + 1;
  return `127.${b()}.${b()}.${b()}`;
}

export interface FromAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A fetch-like request from `localAddress`. */
export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<FromAnswer> {
  const u = new URL(url);
  const body = init.body === undefined ? undefined : Buffer.from(init.body);
  const headers = { ...init.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname === 'localhost' ? '127.0.0.1' : u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: init.method ?? 'GET', headers, localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: async () => JSON.parse(text) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
