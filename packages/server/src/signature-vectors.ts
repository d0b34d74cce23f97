// The enrollment signature vectors every language's verifier is tested on (`verifyEnrollmentSignature` of the
// TypeScript client, `verify_enrollment_signature` in Python, `VerifyEnrollmentSignature` in Go), made by the server's
// own signing code from fixed seeds: Ed25519 is deterministic, so the same code makes the same vectors, and a change to
// what the server signs changes what every verifier is checked against. `@aggregation/server/signature-vectors`.
import { createHash } from 'node:crypto';
import {
  type EnrollmentSignature,
  enrollmentSignatureMessage,
  SANDBOX_ENVIRONMENT,
  type SIGNATURE_ALGORITHM,
  type SignedEnrollment,
  signEnrollment,
  signingKeyPairFromSeed,
} from './domain/enrollment-signatures.ts';

export interface SignatureVectorCase {
  name: string;
  /** The public key to verify with (raw, base64url) and its id. */
  public_key: string;
  key_id: string;
  nonce: string | null;
  access_token: string | null;
  user_id: string;
  enrollment_id: string;
  environment: string;
  signatures: EnrollmentSignature[];
  /** Whether a verifier must accept it. */
  valid: boolean;
}

export interface SignatureVectors {
  description: string;
  message: string;
  cases: SignatureVectorCase[];
}

const seed = (name: string) => createHash('sha256').update(`enrollment signature vectors/${name}`).digest();

/** The vectors, made now by the signing code (the same every time). */
export function enrollmentSignatureVectors(): SignatureVectors {
  const current = { ...signingKeyPairFromSeed(seed('current')), keyId: 'key_vectorscurrent' };
  const other = { ...signingKeyPairFromSeed(seed('other')), keyId: 'key_vectorsother' };
  const signed: SignedEnrollment = {
    nonce: 'n-8f3k2',
    accessToken: 'test_token_k3J9xQ2vLm8Rt5Wz',
    userId: 'usr_4f9c2a7e1b3d8c6a0e5f',
    enrollmentId: 'enr_3Fh9kQ2mLx7Pz1Wn',
    environment: SANDBOX_ENVIRONMENT,
  };
  const signature = signEnrollment(current, signed);
  const make = (name: string, fields: Partial<SignedEnrollment>, signatures: EnrollmentSignature[], valid: boolean): SignatureVectorCase => {
    const what = { ...signed, ...fields };
    return {
      name,
      public_key: current.publicKey,
      key_id: current.keyId,
      nonce: what.nonce,
      access_token: what.accessToken,
      user_id: what.userId,
      enrollment_id: what.enrollmentId,
      environment: what.environment,
      signatures,
      valid,
    };
  };
  const signedAs = (fields: Partial<SignedEnrollment>) => signEnrollment(current, { ...signed, ...fields });
  const truncated = { ...signature, signature: signature.signature.slice(0, -4) };
  const flipped = {
    ...signature,
    signature: `${signature.signature.slice(0, 10)}${signature.signature[10] === 'A' ? 'B' : 'A'}${signature.signature.slice(11)}`,
  };
  return {
    description:
      'Enrollment signatures as the sandbox makes them, for the verifiers of every language: Ed25519 (RFC 8032) by the ' +
      "application's key (public_key, raw 32 bytes, base64url) of the UTF-8 message below, each signature base64url of " +
      'its 64 bytes. A verifier accepts when any signature of the key verifies. Made by the server (src/signature-vectors.ts).',
    message: enrollmentSignatureMessage({
      nonce: '<nonce>',
      accessToken: '<access_token>',
      userId: '<user_id>',
      enrollmentId: '<enrollment_id>',
      environment: '<environment>',
    }),
    cases: [
      make('valid', {}, [signature], true),
      make('valid, without a nonce (signed as empty)', { nonce: null }, [signedAs({ nonce: null })], true),
      make('valid, a reconnect: no access token (signed as empty)', { accessToken: null }, [signedAs({ accessToken: null })], true),
      make('valid, beside a signature of another key (a rotation)', {}, [signEnrollment(other, signed), signature], true),
      make('another nonce', { nonce: 'n-other' }, [signature], false),
      make('another access token', { accessToken: 'test_token_forged' }, [signature], false),
      make('another user', { userId: 'usr_0000000000000000000' }, [signature], false),
      make('another enrollment', { enrollmentId: 'enr_0000000000000000' }, [signature], false),
      make('another environment', { environment: 'live' }, [signature], false),
      make('signed by another key', {}, [signEnrollment(other, signed)], false),
      make('a signature altered', {}, [flipped], false),
      make('a signature cut short', {}, [truncated], false),
      make('a signature that is not base64url', {}, [{ ...signature, signature: '!'.repeat(86) }], false),
      make('another algorithm named', {}, [{ ...signature, algorithm: 'RS256' as typeof SIGNATURE_ALGORITHM }], false),
      make('no signature', {}, [], false),
    ],
  };
}
