// Each application's signing key, made with the application. An application made before keys existed (the default
// one of an older database among them) gets its key the first time one is needed, and keeps it: it is stored.
import type { SigningKeyRow } from '../storage/store.ts';
import { type Deps, transactUnshown } from './context.ts';
import { type EnrollmentSignature, newSigningKeyPair, SANDBOX_ENVIRONMENT, type SignedEnrollment, signEnrollment } from './enrollment-signatures.ts';
import { newId } from './ids.ts';

export function newSigningKey(applicationId: string, now: number): SigningKeyRow {
  const pair = newSigningKeyPair();
  return { application_id: applicationId, key_id: newId('key'), public_key: pair.publicKey, private_key: pair.privateKey, created_at: now };
}

/** The application's key; made (once, whichever process asks first) when it has none. */
export async function signingKeyOf(deps: Deps, applicationId: string): Promise<SigningKeyRow> {
  const kept = await deps.store.applications.getSigningKey(applicationId);
  if (kept) return kept;
  return transactUnshown(deps, async (tx) => {
    // A second insert changes nothing: the key read back is the first one made.
    await tx.applications.insertSigningKey(newSigningKey(applicationId, deps.now()));
    return (await tx.applications.getSigningKey(applicationId))!;
  });
}

/** The signatures of what the widget hands the application: one per key of the application (it has one). */
export async function enrollmentSignatures(
  deps: Deps,
  applicationId: string,
  signed: Omit<SignedEnrollment, 'environment'>,
): Promise<EnrollmentSignature[]> {
  const key = await signingKeyOf(deps, applicationId);
  return [signEnrollment({ keyId: key.key_id, privateKey: key.private_key }, { ...signed, environment: SANDBOX_ENVIRONMENT })];
}
