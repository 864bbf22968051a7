/**
 * The signer a stage uses until its operator puts a certificate in, and the one the embedded stack makes
 * (adapters/content-credentials-cert.ts): a signing certificate C2PA accepts (X.509 v3, ECDSA P-256, a critical
 * digitalSignature key usage, an extended key usage, not a CA, valid now, issued by its root), whose manifests the CAI's
 * reader validates; and what a function does when its stage's secret holds no certificate: a dev stage signs with one
 * it makes (readers show it untrusted), prod refuses (adapters/secrets.ts).
 */
import { X509Certificate as NodeCertificate } from 'node:crypto';
import { CreateSecretCommand } from '@aws-sdk/client-secrets-manager';
import * as x509 from '@peculiar/x509';
import sharp from 'sharp';
import { makeLocalSigningCredential } from '../../lambdas/adapters/content-credentials-cert';
import { readContentCredentials, signWith } from '../support/content-credentials';
import { secretsManager } from '../support/secrets';

jest.setTimeout(60_000);

const TRAINED = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';
const picture = () => sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 40, g: 90, b: 160 } } }).png().toBuffer();
/** A picture signed by our adapter with the credential (in its own process: the C2PA library is ESM only). */
const signed = async (credential: { privateKey: string; certificateChain: string }) =>
  signWith(credential, await picture(), 'image/png', { model: 'stability-ai/sdxl', createdAt: '2026-11-26T00:00:00.000Z' });

describe('the signer the embedded stack makes', () => {
  it('is a signing certificate C2PA accepts, under its own root, for the key it comes with', async () => {
    const now = new Date();
    const made = await makeLocalSigningCredential(now);
    const [cert, ...rest] = made.certificateChain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g)!;
    expect(rest).toEqual([]); // the chain holds the signing certificate only: the root is the reader's to trust
    const signing = new x509.X509Certificate(cert!);
    const root = new x509.X509Certificate(made.localTrustAnchor);
    // X.509 v3: the TBSCertificate opens with the explicit [0] version field, INTEGER 2.
    expect(Buffer.from(signing.rawData).subarray(0, 16).includes(Buffer.from([0xa0, 0x03, 0x02, 0x01, 0x02]))).toBe(true);
    expect(signing.publicKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    const usage = signing.getExtension(x509.KeyUsagesExtension)!;
    expect(usage.critical).toBe(true);
    expect(usage.usages & x509.KeyUsageFlags.digitalSignature).toBeTruthy();
    expect(usage.usages & x509.KeyUsageFlags.keyCertSign).toBeFalsy();
    expect(signing.getExtension(x509.ExtendedKeyUsageExtension)!.usages).toEqual(['1.3.6.1.5.5.7.3.4']);
    expect(signing.getExtension(x509.BasicConstraintsExtension)!.ca).toBe(false);
    expect(signing.notBefore.getTime()).toBeLessThanOrEqual(now.getTime());
    expect(signing.notAfter.getTime()).toBeGreaterThan(now.getTime() + 365 * 86_400_000);

    const node = new NodeCertificate(cert!);
    const anchor = new NodeCertificate(made.localTrustAnchor);
    expect(anchor.ca).toBe(true);
    expect(node.ca).toBe(false);
    expect(node.checkIssued(anchor) && node.verify(anchor.publicKey)).toBe(true);
    expect(node.checkPrivateKey((await import('node:crypto')).createPrivateKey(made.privateKey))).toBe(true);
    expect(root.subject).toBe(signing.issuer);
  });

  it("signs manifests the CAI's reader validates: trusted given its root, valid but untrusted without it", async () => {
    const made = await makeLocalSigningCredential();
    const file = await signed(made);
    const trusted = await readContentCredentials(file, 'image/png', made.localTrustAnchor);
    expect([trusted.validation_state, trusted.validation_status ?? []]).toEqual(['Trusted', []]);
    const strangers = await readContentCredentials(file, 'image/png', (await makeLocalSigningCredential()).localTrustAnchor);
    expect(strangers.validation_state).toBe('Valid');
    expect((strangers.validation_status ?? []).map((s) => s.code)).toEqual(['signingCredential.untrusted']);
  });
});

describe("a stage whose content-credentials secret holds no certificate yet", () => {
  let emptyArn = '';
  beforeAll(async () => {
    const created = await secretsManager().send(new CreateSecretCommand({ Name: `framewright/test-${Date.now()}/content-credentials`, SecretString: '{}' }));
    emptyArn = created.ARN!;
  });
  afterEach(() => {
    delete process.env.CONTENT_CREDENTIALS_FALLBACK;
    jest.resetModules();
  });

  /** adapters/secrets.ts as a function of that stage loads it: its configuration read from the environment once. */
  async function secretsOfStage(fallback?: 'self-signed') {
    process.env.CONTENT_CREDENTIALS_ARN = emptyArn;
    if (fallback) process.env.CONTENT_CREDENTIALS_FALLBACK = fallback;
    jest.resetModules();
    return import('../../lambdas/adapters/secrets');
  }

  it('in prod is an error that says what to do, and nothing is signed', async () => {
    const { contentCredentialsSecret } = await secretsOfStage();
    await expect(contentCredentialsSecret()).rejects.toThrow('Invalid configuration: the content credentials secret holds no certificate; put one in (docs/deploy.md)');
  });

  it('in dev signs with a certificate the function makes: the file is marked as AI-generated, the signer untrusted', async () => {
    const { contentCredentialsSecret } = await secretsOfStage('self-signed');
    const credential = await contentCredentialsSecret();
    expect(await contentCredentialsSecret()).toEqual(credential); // one per instance
    const report = await readContentCredentials(await signed(credential), 'image/png');
    expect(report.validation_state).toBe('Valid');
    expect((report.validation_status ?? []).map((s) => s.code)).toEqual(['signingCredential.untrusted']);
    const actions = report.manifests[report.active_manifest!]!.assertions.flatMap((a) => a.data.actions ?? []);
    expect(actions).toEqual([expect.objectContaining({ action: 'c2pa.created', digitalSourceType: TRAINED })]);
  });
});
