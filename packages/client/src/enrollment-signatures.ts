// The enrollment widget's results are signed by the application's Ed25519 key: a backend checks that an access token
// its page posted came from the widget (for the nonce it gave the widget), not from a forged request. Web Crypto's
// Ed25519, so that it runs unchanged in Node.js, browsers and edge runtimes; that makes the API async.

/** A signature as the widget's result carries it. */
export interface EnrollmentSignature {
  key_id?: string;
  algorithm?: string;
  signature: string;
}

/** What the widget's `onSuccess` hands the page (and the page posts to its backend). */
export interface SignedEnrollmentResult {
  /** The new access token; null after a reconnect, where the enrollment keeps its own. */
  accessToken: string | null;
  user: { id: string };
  enrollment: { id: string };
  signatures: readonly EnrollmentSignature[];
}

/** The application's public key as `GET /sandbox/application` gives it (`signing_key`), or its `public_key` alone. */
export type EnrollmentSigningKey = string | { id?: string; public_key: string };

export interface VerifyEnrollmentOptions {
  /** The application's public signing key. With its `id`, only the signatures of that key are checked. */
  publicKey: EnrollmentSigningKey;
  /** The nonce the backend gave the widget for this run (none: the widget was opened without one). */
  nonce?: string | null;
  /** Default `sandbox`: a sandbox result never passes for another environment's. */
  environment?: string;
}

export const ENROLLMENT_SIGNATURE_ALGORITHM = 'Ed25519';

/** `<nonce>.<access_token>.<user_id>.<enrollment_id>.<environment>`; a missing nonce or token is empty. */
export function enrollmentSignatureMessage(result: SignedEnrollmentResult, nonce: string | null | undefined, environment: string): string {
  return [nonce ?? '', result.accessToken ?? '', result.user.id, result.enrollment.id, environment].join('.');
}

/**
 * Whether one of the result's Ed25519 signatures is the application's key's signature of the nonce, access token, user
 * and enrollment: false for a forged, altered or replayed result (another nonce), or one signed by another key.
 * Throws `TypeError` for a public key that is not 32 bytes of base64url.
 */
export async function verifyEnrollmentSignature(result: SignedEnrollmentResult, options: VerifyEnrollmentOptions): Promise<boolean> {
  const { publicKey } = options;
  const raw = typeof publicKey === 'string' ? publicKey : publicKey.public_key;
  const keyId = typeof publicKey === 'string' ? undefined : publicKey.id;
  const keyBytes = fromBase64Url(raw);
  if (keyBytes?.length !== 32) throw new TypeError('The public key is not an Ed25519 key: expected 32 bytes, base64url (signing_key.public_key).');
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: ENROLLMENT_SIGNATURE_ALGORITHM }, false, ['verify']);
  const message = new TextEncoder().encode(enrollmentSignatureMessage(result, options.nonce, options.environment ?? 'sandbox'));
  let verified = false;
  // Every candidate is checked, so the time taken does not tell which one matched.
  for (const candidate of result.signatures) {
    if ((candidate.algorithm ?? ENROLLMENT_SIGNATURE_ALGORITHM) !== ENROLLMENT_SIGNATURE_ALGORITHM) continue;
    if (keyId !== undefined && candidate.key_id !== undefined && candidate.key_id !== keyId) continue;
    const signature = fromBase64Url(candidate.signature);
    if (signature?.length !== 64) continue;
    if (await crypto.subtle.verify({ name: ENROLLMENT_SIGNATURE_ALGORITHM }, key, signature, message)) verified = true;
  }
  return verified;
}

/** The bytes of unpadded (or padded) base64url text; undefined for anything else. */
function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return undefined;
  const base64 = text.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
  if (base64.length % 4 === 1) return undefined;
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
