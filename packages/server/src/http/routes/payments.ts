// Payees and Zelle payments.
import { createPayee, createPayment, listPayments, paymentOf, requirePayments, SCHEMES } from '../../domain/payments.ts';
import type { PaymentRow } from '../../storage/store.ts';
import type { Runtime } from '../env.ts';
import { presentPayee, presentPayment } from '../present.ts';
import { apiBody, apiJson, apiJsonList } from '../respond.ts';
import type { Router } from '../router.ts';
import { pathAccount } from './accounts.ts';

/** Payment lists up to this length are rendered whole (and may be replayed); longer ones are streamed. */
const WHOLE_LIST_MAX = 100;
/** On the stored answer of a repeated Idempotency-Key, so that a client can tell it made no second payment. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

export function paymentRoutes(r: Router, runtime: Runtime): void {
  const api = { document: 'api' } as const;

  r.route('post', '/accounts/:account_id/payees', { ...api, operationId: 'createPayee' }, async (c) => {
    const account = await pathAccount(c, runtime, { reachesInstitution: true });
    const result = await createPayee(runtime.deps, c.get('enrollment'), account, apiBody(c, 'createPayee'));
    const body = 'connect_token' in result ? result : presentPayee(c.get('base'), result);
    return apiJson(c, runtime, 'createPayee', 200, body);
  });

  r.route('options', '/accounts/:account_id/payments', { ...api, operationId: 'listPaymentSchemes' }, async (c) => {
    const account = await pathAccount(c, runtime);
    requirePayments(account);
    return apiJson(c, runtime, 'listPaymentSchemes', 200, { schemes: SCHEMES.map((name) => ({ name })) });
  });

  r.route('post', '/accounts/:account_id/payments', { ...api, operationId: 'createPayment' }, async (c) => {
    const account = await pathAccount(c, runtime, { reachesInstitution: true });
    const key = c.get('params')['Idempotency-Key'] as string | undefined;
    const base = c.get('base');
    const present = (row: PaymentRow) => presentPayment(base, row);
    const result = await createPayment(runtime.deps, c.get('enrollment'), account, apiBody(c, 'createPayment'), key, present);
    if ('connect_token' in result) return apiJson(c, runtime, 'createPayment', 200, result);
    if (result.replayed) c.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return apiJson(c, runtime, 'createPayment', 202, result.body);
  });

  r.route('get', '/accounts/:account_id/payments', { ...api, operationId: 'listPayments' }, async (c) => {
    const account = await pathAccount(c, runtime);
    const rows = listPayments(runtime.deps, account);
    const base = c.get('base');
    return apiJsonList(
      c,
      runtime,
      'listPayments',
      {
        async *[Symbol.asyncIterator]() {
          for await (const row of rows) yield presentPayment(base, row);
        },
      },
      WHOLE_LIST_MAX,
    );
  });

  r.route('get', '/accounts/:account_id/payments/:payment_id', { ...api, operationId: 'getPayment' }, async (c) => {
    const account = await pathAccount(c, runtime);
    requirePayments(account);
    const row = await paymentOf(runtime.deps, account, c.req.param('payment_id')!);
    return apiJson(c, runtime, 'getPayment', 200, presentPayment(c.get('base'), row));
  });
}
