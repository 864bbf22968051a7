import { clientIp } from '../../lambdas/handlers/client-ip';

describe('clientIp', () => {
  const req = (viewer: string | undefined, sourceIp = '130.176.1.1') => ({
    headers: (viewer === undefined ? {} : { 'cloudfront-viewer-address': viewer }) as Record<string, string>,
    sourceIp,
  });

  it.each([
    ['198.51.100.7:46532', '198.51.100.7'],
    ['2001:db8::1:46532', '2001:db8::1'],
    ['[2001:DB8::2]:443', '2001:db8::2'],
  ])('reads the viewer IP from CloudFront-Viewer-Address %s', (header, ip) => {
    expect(clientIp(req(header))).toBe(ip);
  });

  it.each([undefined, '', 'garbage', 'no port', '<script>:1'])('falls back to the source IP for %p', (header) => {
    expect(clientIp(req(header))).toBe('130.176.1.1');
  });
});
