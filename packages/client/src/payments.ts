// Payee and payment creation can answer with an MFA challenge instead of the resource. The results are
// discriminated by `kind`, so code cannot read a payment out of a challenge without checking first.
import { PaymentsNotSupportedError } from './errors.ts';

export { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from './idempotency.ts';

import type { CurrentVersion, MfaChallenge, Payee, Payment, Version } from './versions.ts';

/** The user must complete MFA in the enrollment widget: pass `connectToken` as its `connectToken` option. */
export type MfaRequired<V extends Version = CurrentVersion> = {
  kind: 'mfa';
  connectToken: string;
  challenge: MfaChallenge<V>;
};

export type PayeeResult<V extends Version = CurrentVersion> = { kind: 'payee'; payee: Payee<V> } | MfaRequired<V>;

export type PaymentResult<V extends Version = CurrentVersion> =
  | {
      kind: 'payment';
      payment: Payment<V>;
      /** 202: the instruction was accepted for processing. */
      status: number;
      /** Sent with the request; reuse it to retry this same payment later. */
      idempotencyKey: string;
      /** The stored answer of an earlier request with this key (`Idempotent-Replayed: true`): no second payment. */
      replayed: boolean;
    }
  | (MfaRequired<V> & { idempotencyKey: string });

/** Sent on the stored answer of a repeated key. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

/** An object whose only meaningful field is `connect_token`. */
export function isMfaChallenge(body: unknown): body is { connect_token: string } {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { connect_token?: unknown }).connect_token === 'string' &&
    !('id' in body) &&
    !('address' in body)
  );
}

/** Anything with the account's `id` and `links`, e.g. an Account of either version. */
export type AccountWithLinks = { id: string; links: { payments?: string | undefined } };

export function supportsPayments(account: AccountWithLinks): boolean {
  return typeof account.links?.payments === 'string' && account.links.payments.length > 0;
}

/** Throws {@link PaymentsNotSupportedError} when the account's links have no `payments`. */
export function assertSupportsPayments(account: AccountWithLinks): void {
  if (!supportsPayments(account)) throw new PaymentsNotSupportedError(account.id);
}
