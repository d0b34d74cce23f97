// The backend trusts what the widget's onSuccess posted only once its signatures check out: each is an Ed25519
// signature, by the application's signing key, of the nonce this session issued, the access token, the user and the
// enrollment. A forged or replayed result (another session's nonce, another token) is refused.
import type { Enrollment } from './sessions.ts';

/** What the page posts: the widget's onSuccess, after an enrollment (a token) or a reconnect (no token). */
export interface EnrollmentProof {
  accessToken: string | null;
  user: { id: string };
  enrollment: { id: string; institution: { id: string; name: string } };
  signatures: { keyId: string; algorithm: string; signature: string }[];
}

/** Checks `proof` for `nonce`, reading the application's key with `token` (the proof's, or the kept one on a reconnect). */
export type SignatureVerifier = (proof: EnrollmentProof, nonce: string, token: string) => Promise<boolean>;

type SigningKey = { id: string; algorithm: string; public_key: string };

const fromBase64Url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0));

/**
 * The verifier of one application. Its public key is read from the sandbox (`GET /sandbox/application`) with the token
 * being checked, and used only when that token belongs to this application: a token of another application reads
 * another key, and is refused before any signature is checked.
 */
export async function applicationVerifier(sandboxUrl: string, applicationId: string): Promise<SignatureVerifier> {
  return async (proof, nonce, token) => {
    const response = await fetch(`${sandboxUrl}/sandbox/application`, { headers: { authorization: `Basic ${btoa(`${token}:`)}` } });
    if (!response.ok) return false;
    const application = (await response.json()) as { id: string; signing_key: SigningKey };
    if (application.id !== applicationId) return false;
    const key = application.signing_key;
    const message = new TextEncoder().encode([nonce, proof.accessToken ?? '', proof.user.id, proof.enrollment.id, 'sandbox'].join('.'));
    const publicKey = await crypto.subtle.importKey('raw', fromBase64Url(key.public_key), { name: 'Ed25519' }, false, ['verify']);
    for (const signature of proof.signatures) {
      if (signature.keyId !== key.id || signature.algorithm !== 'Ed25519') continue;
      if (await crypto.subtle.verify({ name: 'Ed25519' }, publicKey, fromBase64Url(signature.signature), message)) return true;
    }
    return false;
  };
}

/**
 * The enrollment `proof` describes, when its signatures check out for this session's `nonce`. A reconnect carries no
 * token: it must name the enrollment the session already has, whose token it keeps.
 */
export async function verifiedEnrollment(
  verifier: SignatureVerifier,
  proof: EnrollmentProof,
  nonce: string,
  kept: Enrollment | undefined,
): Promise<Enrollment | undefined> {
  const token = proof.accessToken ?? (kept?.enrollmentId === proof.enrollment.id ? kept.accessToken : undefined);
  if (!token || !(await verifier(proof, nonce, token))) return undefined;
  return { accessToken: token, userId: proof.user.id, enrollmentId: proof.enrollment.id, institution: proof.enrollment.institution };
}
