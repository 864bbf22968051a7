import type { HttpRequest } from './http';

/**
 * The caller's IP. Behind CloudFront the API sees an edge server's address as the source, so the viewer's
 * own address comes from the `CloudFront-Viewer-Address` header ("ip:port", set by CloudFront itself and forwarded by
 * the /api/* origin request policy; the embedded stack's single origin sets it from the socket). It can be trusted
 * only because http.ts has already refused every request that did not come through CloudFront (origin.ts): a
 * client that sends its own header reaches no handler directly, and through CloudFront its value is replaced.
 */
export function clientIp(req: Pick<HttpRequest<unknown>, 'headers' | 'sourceIp'>): string {
  const viewer = req.headers['cloudfront-viewer-address']?.trim();
  if (viewer) {
    // IPv4 "1.2.3.4:5678" or IPv6 "2001:db8::1:5678": the port is after the last colon.
    const ip = viewer.slice(0, viewer.lastIndexOf(':')).replace(/^\[|\]$/g, '');
    if (/^[0-9a-f.:]{2,45}$/i.test(ip)) return ip.toLowerCase();
  }
  return req.sourceIp;
}
