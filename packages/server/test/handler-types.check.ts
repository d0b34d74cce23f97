// Compile-time proof that handlers are held to the contract: each line below must fail the
// type check (`npm run typecheck` fails if one of them stops failing).
import type { AppContext, Runtime } from '../src/http/env.ts';
import { type ApiBody, apiBody, apiJson, sandboxJson } from '../src/http/respond.ts';

export async function wrongShapes(c: AppContext, runtime: Runtime): Promise<void> {
  // @ts-expect-error an Account needs every required field
  await apiJson(c, runtime, 'getAccount', 200, { id: 'acc_1' });
  // biome-ignore format: the expected error must stay on the line under its directive
  // @ts-expect-error balances allow no extra fields
  await apiJson(c, runtime, 'getAccountBalances', 200, { account_id: 'acc_1', ledger: '1.00', available: '1.00', links: { self: 'x', account: 'y' }, extra: 1 });
  // @ts-expect-error createPayment answers 200 or 202, never 201
  await apiJson(c, runtime, 'createPayment', 201, { connect_token: 'x' });
  const transaction = {} as ApiBody<'getTransaction', 200>;
  // @ts-expect-error a Transaction's status is posted or pending
  await apiJson(c, runtime, 'getTransaction', 200, { ...transaction, status: 'cleared' });
  await apiJson(c, runtime, 'getTransaction', 200, { ...transaction, status: 'posted' });
  // @ts-expect-error the sandbox clock needs offset_seconds
  sandboxJson(c, 'getSandboxClock', 200, { now: '2025-01-01T00:00:00Z' });
  // @ts-expect-error request bodies are typed too: memo is a string
  const memo: number = apiBody(c, 'createPayment').memo;
  void memo;
}
