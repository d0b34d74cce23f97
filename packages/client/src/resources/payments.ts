// `client.payments`: the schemes an account can pay with, and payments: created with an `Idempotency-Key` and
// refused locally for an account that cannot originate them, listed and read.
import {
  type AccountWithLinks,
  assertSupportsPayments,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isMfaChallenge,
  newIdempotencyKey,
  type PaymentResult,
} from '../payments.ts';
import { type ApiRequest, type CallOptions, requireId } from '../request.ts';
import { attachResponse } from '../response-info.ts';
import type { CreatePaymentRequest, CurrentVersion, Payment, PaymentSchemes, Version } from '../versions.ts';
import { type AccountsResource, accountParams, type KnownAccountLinks } from './accounts.ts';

export type CreatePaymentOptions = CallOptions & {
  /**
   * When `account` is an id and its links are not known yet, the account is fetched first to check that it
   * supports payments. Default true.
   */
  checkAccount?: boolean;
};

export type PaymentsResource<V extends Version = CurrentVersion> = {
  /** `OPTIONS /accounts/{account_id}/payments`: the schemes the account can pay with. */
  schemes(accountId: string, options?: CallOptions): Promise<PaymentSchemes<V>>;
  /**
   * Sends a payment with an `Idempotency-Key`. Refuses accounts whose links have no `payments`
   * ({@link PaymentsNotSupportedError}). Resolves to a payment or to an MFA challenge.
   */
  create(account: string | AccountWithLinks, payment: CreatePaymentRequest<V>, options?: CreatePaymentOptions): Promise<PaymentResult<V>>;
  list(accountId: string, options?: CallOptions): Promise<Payment<V>[]>;
  get(accountId: string, paymentId: string, options?: CallOptions): Promise<Payment<V>>;
};

/** A payment on an account whose links are in `known` needs no request for its guard; any other reads it with `accounts`. */
export function paymentsResource<V extends Version>(
  request: ApiRequest,
  known: KnownAccountLinks,
  accounts: Pick<AccountsResource<V>, 'get'>,
): PaymentsResource<V> {
  const payments = '/accounts/{account_id}/payments';

  /** Throws PaymentsNotSupportedError before anything is sent when the account cannot originate payments. */
  async function checkSupportsPayments(target: string | AccountWithLinks, call: CreatePaymentOptions): Promise<void> {
    if (typeof target !== 'string') return assertSupportsPayments(target);
    const supported = known.supportsPayments(target);
    if (supported !== undefined) {
      if (!supported) assertSupportsPayments({ id: target, links: {} });
    } else if (call.checkAccount !== false) {
      assertSupportsPayments((await accounts.get(target, call)) as unknown as AccountWithLinks);
    }
  }

  return {
    schemes: async (accountId, call) => request.read('OPTIONS', payments, { params: accountParams(accountId) }, call),
    async create(target, payment, call = {}) {
      const accountId = typeof target === 'string' ? target : target.id;
      await checkSupportsPayments(target, call);
      const idempotencyKey = call.idempotencyKey ?? headerValue(call.headers, IDEMPOTENCY_KEY_HEADER) ?? newIdempotencyKey();
      // The key is a header of the one Request object; every retry sends a clone of it, key included.
      const init = { params: accountParams(accountId), body: payment, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } };
      const { data, response } = await request.send('POST', payments, init, call);
      if (isMfaChallenge(data)) {
        return { kind: 'mfa', connectToken: data.connect_token, challenge: attachResponse(data, response), idempotencyKey } as PaymentResult<V>;
      }
      return {
        kind: 'payment',
        payment: attachResponse(data, response),
        status: response.status,
        idempotencyKey,
        replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true',
      } as PaymentResult<V>;
    },
    list: async (accountId, call) => request.read('GET', payments, { params: accountParams(accountId) }, call),
    get: async (accountId, paymentId, call) =>
      request.read(
        'GET',
        '/accounts/{account_id}/payments/{payment_id}',
        { params: { path: { ...accountParams(accountId).path, payment_id: requireId(paymentId, 'paymentId') } } },
        call,
      ),
  };
}

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}
