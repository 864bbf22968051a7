/**
 * What CloudFront does to a request for /api/* before the API sees it (lib/constructs/site.ts), played by the embedded
 * stack's single origin: it adds the secret origin header (replacing any a client sent, as CloudFront's custom
 * origin headers do) and sets `CloudFront-Viewer-Address` from the connection itself, so a client-supplied viewer
 * address never reaches a handler.
 */
import type { IncomingMessage } from 'node:http';
import { ORIGIN_HEADER } from '../../lambdas/handlers/origin';

const VIEWER_ADDRESS = 'cloudfront-viewer-address';

export function asCloudFront(req: IncomingMessage, originSecret: string): IncomingMessage {
  const ip = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  req.headers[ORIGIN_HEADER] = originSecret;
  // "ip:port", IPv6 without brackets, as CloudFront writes it.
  req.headers[VIEWER_ADDRESS] = `${ip}:${req.socket.remotePort ?? 0}`;
  // The raw list (rawHeaders) still holds what the client sent; nothing downstream reads it.
  return req;
}
