// Identifiers and secrets: a type prefix plus random base32 (lowercase, unambiguous).
import { hash, randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

export function randomString(length: number, alphabet = ALPHABET): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}

export type IdPrefix = 'app' | 'enr' | 'acc' | 'txn' | 'pay' | 'evt' | 'dlv' | 'whs' | 'key';

export const newId = (prefix: IdPrefix): string => `${prefix}_${randomString(20)}`;

export const newSandboxToken = (): string => `test_token_${randomString(24)}`;
/** Names an application when creating sandbox enrollments: `test_app_key_<random>`. */
export const newApplicationKey = (): string => `test_app_key_${randomString(32)}`;
export const isApplicationKey = (value: string): boolean => value.startsWith('test_app_key_');
export const newLiveToken = (): string => `token_${randomString(24)}`;
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;
export const newConnectToken = (): string => randomBytes(24).toString('base64url');
/** A run of the enrollment widget: whoever holds the id drives it, so it is as hard to guess as a token. */
export const newConnectSessionId = (): string => `cs_${randomString(32)}`;

/** The user a test user is within an application: the same username enrolled twice in one application is one user. */
export const userIdFor = (applicationId: string, username: string): string =>
  `usr_${hash('sha256', `${applicationId}\n${username}`, 'hex').slice(0, 20)}`;
export const newPaymentReference = (): string => randomString(12, 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789');

/** Tokens and application keys are stored hashed: a leaked database does not leak usable ones. */
// One-shot: every authenticated request hashes its token, and a Hash object per call showed in profiles.
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

export const isLiveToken = (token: string): boolean => token.startsWith('token_');
