// The backend trusts what the widget's onSuccess posted only once its signatures check out (verifyEnrollmentSignature
// of @aggregation/client): each is an Ed25519 signature, by the application's signing key, of the nonce this session
// issued, the access token, the user and the enrollment. A forged or replayed result (another session's nonce,
// another token) is refused.
import { type SignedEnrollmentResult, verifyEnrollmentSignature } from '@aggregation/client';
import type { Enrollment } from './sessions.ts';

/** What the page posts: the widget's onSuccess, after an enrollment (a token) or a reconnect (no token). */
export interface EnrollmentProof extends SignedEnrollmentResult {
  enrollment: { id: string; institution: { id: string; name: string } };
}

/** Checks `proof` for `nonce`, reading the application's key with `token` (the proof's, or the kept one on a reconnect). */
export type SignatureVerifier = (proof: EnrollmentProof, nonce: string, token: string) => Promise<boolean>;

/**
 * The verifier of one application. Its public key is read from the sandbox (`GET /sandbox/application`) with the token
 * being checked, and used only when that token belongs to this application: a token of another application reads
 * another key, and is refused before any signature is checked. (A backend that knows its key from the dashboard
 * passes it to verifyEnrollmentSignature directly.)
 */
export async function applicationVerifier(sandboxUrl: string, applicationId: string): Promise<SignatureVerifier> {
  return async (proof, nonce, token) => {
    const response = await fetch(`${sandboxUrl}/sandbox/application`, { headers: { authorization: `Basic ${btoa(`${token}:`)}` } });
    if (!response.ok) return false;
    const application = (await response.json()) as { id: string; signing_key: { id: string; public_key: string } };
    if (application.id !== applicationId) return false;
    return verifyEnrollmentSignature(proof, { publicKey: application.signing_key, nonce });
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
