/**
 * A content-credentials signer made here: a root and a signing certificate under it. The embedded stack makes one
 * per data directory (like a stage's secret, it is kept across restarts); a cloud function makes one for itself only
 * while its stage's secret holds no certificate yet (adapters/secrets.ts). The signing certificate has what C2PA asks of
 * one (X.509 v3, critical digitalSignature key usage, an extended key usage, not a CA); the root is only trusted by
 * whoever is told to (the tests give it to the CAI's reader as a trust anchor), as a real one would be by its CA list.
 */
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export interface LocalSigningCredential {
  privateKey: string;
  certificateChain: string;
  /** The local root (PEM): a reader trusts the signer once given it. Not in a stage's secret. */
  localTrustAnchor: string;
}

const EC_P256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 86_400_000;
const EMAIL_PROTECTION_EKU = '1.3.6.1.5.5.7.3.4';

export async function makeLocalSigningCredential(now = new Date()): Promise<LocalSigningCredential> {
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const notBefore = new Date(now.getTime() - DAY_MS);
  const notAfter = new Date(now.getTime() + 10 * 365 * DAY_MS);
  const rootKeys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair;
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=Framewright Local Content Credentials Root, O=Framewright (embedded stack)',
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: EC_P256,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const keys = (await webcrypto.subtle.generateKey(EC_P256, true, ['sign', 'verify'])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=Framewright Content Credentials, O=Framewright (embedded stack)',
    issuer: root.subject,
    notBefore,
    notAfter,
    publicKey: keys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: EC_P256,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([EMAIL_PROTECTION_EKU], false),
      await x509.AuthorityKeyIdentifierExtension.create(rootKeys.publicKey),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey)).toString('base64');
  return {
    privateKey: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join('\n')}\n-----END PRIVATE KEY-----\n`,
    certificateChain: cert.toString('pem'),
    localTrustAnchor: root.toString('pem'),
  };
}
