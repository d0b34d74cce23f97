// What the enrollment widget's results are signed with: each application's Ed25519 key signs the nonce the widget
// was opened with, the access token, the user and the enrollment, so that the application's backend can tell a token
// that came from the widget from one a forged request claims. The one source of the signed message's form: the
// clients' verifiers are tested on vectors made here (signature-vectors.ts).
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, sign } from 'node:crypto';

export const SIGNATURE_ALGORITHM = 'Ed25519';
/** The environment a sandbox signs into every message: a sandbox token cannot pass for a live one. */
export const SANDBOX_ENVIRONMENT = 'sandbox';

/** What a signature covers. A missing nonce (none given) or access token (a reconnect keeps its own) is signed as ''. */
export interface SignedEnrollment {
  nonce: string | null;
  accessToken: string | null;
  userId: string;
  enrollmentId: string;
  environment: string;
}

/** `<nonce>.<access_token>.<user_id>.<enrollment_id>.<environment>`, as UTF-8. */
export function enrollmentSignatureMessage(signed: SignedEnrollment): string {
  return [signed.nonce ?? '', signed.accessToken ?? '', signed.userId, signed.enrollmentId, signed.environment].join('.');
}

export interface EnrollmentSignature {
  key_id: string;
  algorithm: typeof SIGNATURE_ALGORITHM;
  signature: string;
}

/** A key pair as it is stored: the raw public key and the PKCS #8 private key, both base64url. */
export interface SigningKeyPair {
  publicKey: string;
  privateKey: string;
}

/** The raw 32 bytes of an Ed25519 public key, base64url (a JWK's `x`). */
const rawPublicKey = (key: KeyObject): string => key.export({ format: 'jwk' }).x!;

export function newSigningKeyPair(): SigningKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicKey: rawPublicKey(publicKey), privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64url') };
}

/** PKCS #8 of an Ed25519 private key, up to its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The key pair of a 32-byte seed: the same seed, the same keys (for test vectors). */
export function signingKeyPairFromSeed(seed: Uint8Array): SigningKeyPair {
  if (seed.length !== 32) throw new Error('an Ed25519 seed has 32 bytes');
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, seed]);
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  return { publicKey: rawPublicKey(createPublicKey(privateKey)), privateKey: der.toString('base64url') };
}

/** The signature of the enrollment by the key `keyId` (Ed25519 is deterministic: the same input, the same signature). */
export function signEnrollment(key: { keyId: string; privateKey: string }, signed: SignedEnrollment): EnrollmentSignature {
  const privateKey = createPrivateKey({ key: Buffer.from(key.privateKey, 'base64url'), format: 'der', type: 'pkcs8' });
  const signature = sign(null, Buffer.from(enrollmentSignatureMessage(signed), 'utf8'), privateKey);
  return { key_id: key.keyId, algorithm: SIGNATURE_ALGORITHM, signature: signature.toString('base64url') };
}
