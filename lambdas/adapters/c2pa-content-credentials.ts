/**
 * ContentCredentials with @trustnxt/c2pa-ts: pure TypeScript (runs in Lambda as it is, nothing native or downloaded at
 * install), creates and signs C2PA manifests for PNG and ISO BMFF files. The CAI's own packages do not fit: c2pa-node
 * downloads a native binary when installed, and c2pa-wasm signs only in a browser worker (it needs FileReaderSync)
 * with a signer that must build the COSE structure itself. The tests read our files with c2pa-wasm, the CAI's reader.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { X509Certificate } from '@peculiar/x509';
import type { Signer } from '@trustnxt/c2pa-ts/cose';
import type { ActionAssertion } from '@trustnxt/c2pa-ts/manifest';
import type { ContentCredentials, CredentialedType, Provenance } from '../ports/content-credentials';
import { insertionPoint, shiftChunkOffsets } from './mp4-chunk-offsets';

/** The signing key and its certificate chain, as the secret holds them (docs/deploy.md). */
export interface SigningCredential {
  /** PKCS#8 PEM of an EC P-256 key. */
  privateKey: string;
  /** PEM certificates: the signing certificate first, then the intermediates up to (not including) the root. */
  certificateChain: string;
}

type Action = ActionAssertion['actions'][number];

const TRAINED_ALGORITHMIC_MEDIA = 'http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia';

/** c2pa-ts ships as ES modules only: imported, not required (the bundle inlines it; the embedded stack runs it as is). */
interface Library {
  asset: typeof import('@trustnxt/c2pa-ts/asset');
  cose: typeof import('@trustnxt/c2pa-ts/cose');
  manifest: typeof import('@trustnxt/c2pa-ts/manifest');
}
let library: Promise<Library> | undefined;
function c2pa() {
  library ??= Promise.all([import('@trustnxt/c2pa-ts/asset'), import('@trustnxt/c2pa-ts/cose'), import('@trustnxt/c2pa-ts/manifest')]).then(([asset, cose, manifest]) => {
    // c2pa-ts hashes any ISO BMFF file box by box, but admits only HEIF brands; MP4s from the models are ISO BMFF too
    // (the CAI's reader validates what it signs: test/journeys/content-credentials.test.ts).
    const brands = (asset.BMFF as unknown as { canReadBrands: Set<string> }).canReadBrands;
    for (const brand of ['isom', 'iso2', 'mp41', 'mp42']) brands.add(brand);
    return { asset, cose, manifest };
  });
  return library;
}

async function signerOf(credential: SigningCredential): Promise<Signer> {
  const { CoseAlgorithmIdentifier } = (await c2pa()).cose;
  const [certificate, ...chain] = (credential.certificateChain.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((pem) => new X509Certificate(pem));
  if (!certificate) throw new Error('Invalid configuration: the content credentials secret holds no certificate');
  const key: KeyObject = createPrivateKey(credential.privateKey);
  return {
    algorithm: CoseAlgorithmIdentifier.ES256,
    certificate,
    chainCertificates: chain,
    // COSE wants ECDSA signatures as r|s (IEEE P1363); c2pa-ts's own signer gives DER in Node, which the CAI's reader refuses.
    sign: async (payload) => new Uint8Array(sign('sha256', payload, { key, dsaEncoding: 'ieee-p1363' })),
  };
}

export function c2paContentCredentials(credential: SigningCredential): ContentCredentials {
  const made = signerOf(credential);
  // A bad key or certificate fails each sign (the save is retried), not the process.
  made.catch(() => undefined);
  return {
    async sign(file: Buffer, type: CredentialedType, p: Provenance): Promise<Buffer> {
      const [signer, { asset: assets, manifest: m }] = await Promise.all([made, c2pa()]);
      const { BMFF, PNG } = assets;
      const { ActionAssertion, BMFFHashAssertion, DataHashAssertion, ManifestStore } = m;
      if (type === 'image/png' ? !PNG.canRead(new Uint8Array(file)) : !BMFF.canRead(new Uint8Array(file))) throw new Error(`Not a ${type} file`);
      const store = new ManifestStore();
      const manifest = store.createManifest({ assetFormat: type, instanceID: `xmp:iid:${crypto.randomUUID()}`, defaultHashAlgorithm: 'SHA-256', signer });
      manifest.claim!.claimGeneratorName = 'Framewright';
      const actions = new ActionAssertion();
      actions.actions = [
        {
          action: 'c2pa.created' as Action['action'],
          digitalSourceType: TRAINED_ALGORITHMIC_MEDIA as Action['digitalSourceType'],
          softwareAgent: { name: p.model, ...(p.version ? { version: p.version } : {}) },
          parameters: { when: p.createdAt },
        },
      ];
      manifest.addAssertion(actions);
      // The hard binding: a PNG's bytes outside the manifest chunk; an MP4's top-level boxes.
      const hash = type === 'image/png' ? DataHashAssertion.create('SHA-256') : BMFFHashAssertion.createV2('jumbf manifest', 'SHA-256');
      manifest.addAssertion(hash);
      const space = store.measureSize();
      let bytes = new Uint8Array(file);
      if (type === 'video/mp4') {
        // Where the manifest box goes and how big it is (a dry run on a copy), so the sample tables can point past it
        // before the boxes are hashed: the hash then covers the offsets the signed file really has.
        const dry = new BMFF(new Uint8Array(file));
        await dry.ensureManifestSpace(space);
        const spaced = Buffer.from(await dry.getDataRange());
        bytes = new Uint8Array(shiftChunkOffsets(file, insertionPoint(file, spaced), spaced.length - file.length));
      }
      const asset = type === 'image/png' ? new PNG(bytes) : new BMFF(bytes);
      await asset.ensureManifestSpace(space);
      await hash.updateWithAsset(asset);
      await manifest.sign(signer);
      await asset.writeManifestJUMBF(store.getBytes());
      return Buffer.from(await asset.getDataRange());
    },
  };
}
