// Compile-time proof that the handler map covers each document's operations exactly, and that each
// handler answers its own operation: every line under a directive must fail the type check
// (`npm run typecheck` fails if one of them stops failing).
import { answer } from '../src/http/answer.ts';
import type { AppContext, Runtime } from '../src/http/env.ts';
import { apiHandlers, sandboxHandlers } from '../src/http/handlers/index.ts';
import type { ApiHandlers, SandboxHandlers } from '../src/http/handlers/types.ts';

const { getPayment: _getPayment, ...withoutGetPayment } = apiHandlers;
// @ts-expect-error every operation of the API needs its handler
export const missingApiOperation: ApiHandlers = withoutGetPayment;

const { getSandboxClock: _getSandboxClock, ...withoutClock } = sandboxHandlers;
// @ts-expect-error every operation of the sandbox control API needs its handler
export const missingSandboxOperation: SandboxHandlers = withoutClock;

export const extraOperation = {
  // @ts-expect-error no handler for an operation the description does not have
  getBalance: { handle: (c: AppContext, runtime: Runtime) => answer.json(c, runtime, 'getAccountBalances', 200, {} as never) },
} satisfies Partial<ApiHandlers>;

// @ts-expect-error a handler answers its own operation, not another's
export const swapped: ApiHandlers = { ...apiHandlers, getPayment: apiHandlers.getTransaction };

export const wrongAnswers = {
  getPayment: {
    // @ts-expect-error a plain Response says nothing of the contract
    handle: (c) => c.json({}),
  },
  deleteAccount: {
    // @ts-expect-error getPayment has no empty answer
    handle: (c) => answer.noContent(c, 'getPayment'),
  },
  getAccount: {
    // @ts-expect-error getAccount answers 200, never 201
    handle: (c, runtime) => answer.json(c, runtime, 'getAccount', 201, {} as never),
  },
} satisfies Partial<ApiHandlers>;
