/**
 * ContentCredentials with @trustnxt/c2pa-ts: pure TypeScript (runs in Lambda as it is, nothing native or downloaded at
 * install), creates and signs C2PA manifests for PNG and ISO BMFF files. The CAI's own packages do not fit: c2pa-node
 * downloads a native binary when installed, and c2pa-wasm signs only in a browser worker (it needs FileReaderSync)
 * with a signer that must build the COSE structure itself. The tests read our files with c2pa-wasm, the CAI's reader.
 */
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { X509Certificate } from '@peculiar/x509';
import type { Signer } from '@trustnxt/c2pa-ts/cose';
import type { ActionAssertion, IngredientAssertion, Manifest, ManifestStore } from '@trustnxt/c2pa-ts/manifest';
import type { ContentCredentials, CredentialedType, Provenance, SourceFile } from '../ports/content-credentials';
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
const SIGNATURE_ROOM_BYTES = 1024;

/** c2pa-ts ships as ES modules only: imported, not required (the bundle inlines it; the embedded stack runs it as is). */
interface Library {
  asset: typeof import('@trustnxt/c2pa-ts/asset');
  cose: typeof import('@trustnxt/c2pa-ts/cose');
  manifest: typeof import('@trustnxt/c2pa-ts/manifest');
  jumbf: typeof import('@trustnxt/c2pa-ts/jumbf');
}
let library: Promise<Library> | undefined;
function c2pa() {
  library ??= Promise.all([import('@trustnxt/c2pa-ts/asset'), import('@trustnxt/c2pa-ts/cose'), import('@trustnxt/c2pa-ts/manifest'), import('@trustnxt/c2pa-ts/jumbf')]).then(([asset, cose, manifest, jumbf]) => {
    // c2pa-ts hashes any ISO BMFF file box by box, but admits only HEIF brands; MP4s from the models are ISO BMFF too
    // (the CAI's reader validates what it signs: test/journeys/content-credentials.test.ts).
    const brands = (asset.BMFF as unknown as { canReadBrands: Set<string> }).canReadBrands;
    for (const brand of ['isom', 'iso2', 'mp41', 'mp42']) brands.add(brand);
    return { asset, cose, manifest, jumbf };
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

/** A stored file as c2pa-ts reads it; undefined when it is not of its type. */
function assetOf(lib: Library, bytes: Uint8Array, type: CredentialedType) {
  const { BMFF, PNG } = lib.asset;
  if (type === 'image/png') return PNG.canRead(bytes) ? new PNG(bytes) : undefined;
  return BMFF.canRead(bytes) ? new BMFF(bytes) : undefined;
}

/** A source's own manifest store, and what validating it against the source's bytes found (none: it has no credentials). */
async function credentialsOf(lib: Library, source: SourceFile) {
  if (!source.file) return undefined;
  const asset = assetOf(lib, new Uint8Array(source.file), source.type);
  const jumbf = asset?.getManifestJUMBF();
  if (!asset || !jumbf) return undefined;
  try {
    const store = lib.manifest.ManifestStore.read(lib.jumbf.SuperBox.fromBuffer(new Uint8Array(jumbf)));
    return { store, validation: await store.validate(asset) };
  } catch {
    // Credentials a reader cannot parse are no provenance: the source is named without them.
    return undefined;
  }
}

type ValidationEntry = Awaited<ReturnType<ManifestStore['validate']>>['statusEntries'][number];
const statusMap = (e: ValidationEntry) => ({ code: e.code, ...(e.url ? { url: e.url } : {}), ...(e.explanation ? { explanation: e.explanation } : {}) });

/**
 * Names a source as an ingredient (C2PA 2 ingredient v3) of the manifest being made. A source with credentials brings
 * its manifests into the new store (deduplicated: two sources may share ancestors), and the ingredient points at its
 * active manifest and that manifest's signature by hash, with the result of validating it when it was taken, as a
 * v3 ingredient must. The hashes are filled when the manifest is signed.
 */
async function addIngredient(lib: Library, store: ManifestStore, manifest: Manifest, source: SourceFile, relationship: 'parentOf' | 'inputTo'): Promise<IngredientAssertion> {
  const { IngredientAssertion, RelationshipType } = lib.manifest;
  const ingredient = IngredientAssertion.createV3(relationship === 'parentOf' ? RelationshipType.ParentOf : RelationshipType.InputTo);
  // Assertions of one kind are told apart by an index suffix (c2pa.ingredient.v3__1, ...).
  const earlier = manifest.assertions!.getAssertionsByLabel(ingredient.label).length;
  if (earlier) ingredient.labelSuffix = earlier;
  ingredient.title = source.title;
  ingredient.format = source.type;
  const found = await credentialsOf(lib, source);
  const active = found?.store.getActiveManifest();
  if (found && active?.label) {
    for (const m of found.store.manifests) {
      if (m.label && !store.getManifestByLabel(m.label)) store.manifests.splice(store.manifests.length - 1, 0, m);
    }
    ingredient.instanceID = active.claim?.instanceID;
    ingredient.activeManifest = manifest.createHashedReference(`/c2pa/${active.label}`);
    ingredient.claimSignature = manifest.createHashedReference(`/c2pa/${active.label}/c2pa.signature`);
    const entries = found.validation.statusEntries;
    ingredient.validationResults = {
      activeManifest: { success: entries.filter((e) => e.success).map(statusMap), informational: [], failure: entries.filter((e) => !e.success).map(statusMap) },
    };
  }
  manifest.addAssertion(ingredient);
  return ingredient;
}

export function c2paContentCredentials(credential: SigningCredential): ContentCredentials {
  const made = signerOf(credential);
  // A bad key or certificate fails each sign (the save is retried), not the process.
  made.catch(() => undefined);
  return {
    async sign(file: Buffer, type: CredentialedType, p: Provenance): Promise<Buffer> {
      const [signer, lib] = await Promise.all([made, c2pa()]);
      const { ActionAssertion, BMFFHashAssertion, DataHashAssertion, ManifestStore } = lib.manifest;
      if (!assetOf(lib, new Uint8Array(file), type)) throw new Error(`Not a ${type} file`);
      const store = new ManifestStore();
      // C2PA 2's claim (v2): the version whose ingredients (v3) carry their manifest's validation.
      const manifest = store.createManifest({ claimVersion: lib.manifest.ClaimVersion.V2, assetFormat: type, instanceID: `xmp:iid:${crypto.randomUUID()}`, defaultHashAlgorithm: 'SHA-256', signer });
      manifest.claim!.claimGeneratorName = 'Framewright';
      // The signature's room: c2pa-ts reserves 25 kB (in every file) for an RFC 3161 timestamp, which we do not add; an
      // ES256 signature takes 64 bytes. Signing fails loudly ("Not enough padding") if it ever outgrows this.
      manifest.signature!.signatureData.paddingLength = SIGNATURE_ROOM_BYTES;
      const by = {
        digitalSourceType: TRAINED_ALGORITHMIC_MEDIA as Action['digitalSourceType'],
        softwareAgent: { name: p.model, ...(p.version ? { version: p.version } : {}) },
      };
      const parent = p.parent && (await addIngredient(lib, store, manifest, p.parent.source, 'parentOf'));
      const inputs = [];
      for (const source of p.inputs ?? []) inputs.push(await addIngredient(lib, store, manifest, source, 'inputTo'));
      const given = inputs.length ? { ingredients: inputs.map((i) => manifest.createAssertionReference(i)) } : {};
      const actions = new ActionAssertion();
      actions.actions = parent
        ? // A result changed whole: the first action opens it (its parent ingredient), the next says what the model did.
          [
            { action: 'c2pa.opened' as Action['action'], parameters: { ingredients: [manifest.createAssertionReference(parent)] } },
            { action: p.parent!.change as Action['action'], ...by, parameters: { when: p.createdAt, ...given } },
          ]
        : [{ action: 'c2pa.created' as Action['action'], ...by, parameters: { when: p.createdAt, ...given } }];
      manifest.addAssertion(actions);
      // The hard binding: a PNG's bytes outside the manifest chunk; an MP4's top-level boxes.
      const hash = type === 'image/png' ? DataHashAssertion.create('SHA-256') : BMFFHashAssertion.createV2('jumbf manifest', 'SHA-256');
      manifest.addAssertion(hash);
      const space = store.measureSize();
      let bytes = new Uint8Array(file);
      if (type === 'video/mp4') {
        // Where the manifest box goes and how big it is (a dry run on a copy), so the sample tables can point past it
        // before the boxes are hashed: the hash then covers the offsets the signed file really has.
        const dry = assetOf(lib, new Uint8Array(file), type)!;
        await dry.ensureManifestSpace(space);
        const spaced = Buffer.from(await dry.getDataRange());
        bytes = new Uint8Array(shiftChunkOffsets(file, insertionPoint(file, spaced), spaced.length - file.length));
      }
      const asset = assetOf(lib, bytes, type)!;
      await asset.ensureManifestSpace(space);
      await hash.updateWithAsset(asset);
      await manifest.sign(signer);
      await asset.writeManifestJUMBF(store.getBytes());
      return Buffer.from(await asset.getDataRange());
    },
  };
}
