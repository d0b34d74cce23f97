// Payees and Zelle payments.
import type { KeyedAnswer } from '../../domain/idempotency.ts';
import { createPayee, createPayment, listPayments, paymentOf, requirePayments, SCHEMES } from '../../domain/payments.ts';
import type { PayeeRow, PaymentRow } from '../../storage/store.ts';
import { answer } from '../answer.ts';
import type { AppContext } from '../env.ts';
import { presentPayee, presentPayment } from '../present.ts';
import { apiBody } from '../respond.ts';
import { pathAccount } from './accounts.ts';
import type { ApiHandlers } from './types.ts';

/** Payment lists up to this length are rendered whole (and may be replayed); longer ones are streamed. */
const WHOLE_LIST_MAX = 100;
/** On the stored answer of a repeated Idempotency-Key, so that a client can tell nothing was created twice. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';

const idempotencyKeyOf = (c: AppContext) => c.get('params')['Idempotency-Key'] as string | undefined;

/** What a keyed request answers with (its resource or its MFA challenge), the answer marked when it is a replay. */
function keyedBody<Answer extends KeyedAnswer<unknown>>(c: AppContext, result: Answer): Answer['body'] {
  if (result.replayed) c.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  return result.body;
}

// Payees and payments check the institution on the account they use; they do not set off the
// users that disconnect at their first data request.
export const paymentHandlers = {
  createPayee: {
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime, { reachesInstitution: true });
      const present = (row: PayeeRow) => presentPayee(c.get('base'), row);
      const result = await createPayee(runtime.deps, c.get('enrollment'), account, apiBody(c, 'createPayee'), idempotencyKeyOf(c), present);
      return answer.json(c, runtime, 'createPayee', 200, keyedBody(c, result));
    },
  },

  listPaymentSchemes: {
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime);
      requirePayments(account);
      return answer.json(c, runtime, 'listPaymentSchemes', 200, { schemes: SCHEMES.map((name) => ({ name })) });
    },
  },

  createPayment: {
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime, { reachesInstitution: true });
      const present = (row: PaymentRow) => presentPayment(c.get('base'), row);
      const result = await createPayment(runtime.deps, c.get('enrollment'), account, apiBody(c, 'createPayment'), idempotencyKeyOf(c), present);
      if (result.kind === 'challenge') return answer.json(c, runtime, 'createPayment', 200, keyedBody(c, result));
      return answer.json(c, runtime, 'createPayment', 202, keyedBody(c, result));
    },
  },

  listPayments: {
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime);
      const rows = listPayments(runtime.deps, account);
      const base = c.get('base');
      return answer.list(
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
    },
  },

  getPayment: {
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime);
      requirePayments(account);
      const row = await paymentOf(runtime.deps, account, c.req.param('payment_id')!);
      return answer.json(c, runtime, 'getPayment', 200, presentPayment(c.get('base'), row));
    },
  },
} satisfies Partial<ApiHandlers>;
