// The handler map's types: one handler per operationId of each document, typed from the generated
// `operations`. A map that misses an operation, names one the description does not have, or answers
// an operation with another's status or body fails the type check (test/handler-map.check.ts).
import type { operations, sandboxOperations, sandboxWebhooks, webhooks } from '../../contract/types.ts';
import type { Answer } from '../answer.ts';
import type { AppContext, Runtime } from '../env.ts';
import type { ApiOperation, SandboxOperation } from '../respond.ts';

type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
/** The operations of a set of path items (each method's, where it has one). */
type OperationsOf<Items> = NonNullable<{ [K in keyof Items]: Items[K][Method & keyof Items[K]] }[keyof Items]>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** The operations of a document's paths: its `operations` also holds its webhooks, which the server sends rather than serves. */
type Served<Ops, Op extends keyof Ops, Hooks> = {
  [O in Op]: true extends (OperationsOf<Hooks> extends infer W ? (W extends unknown ? Same<Ops[O], W> : never) : never) ? never : O;
}[Op];

export type ServedOperation = Served<operations, ApiOperation, webhooks>;
export type ServedSandboxOperation = Served<sandboxOperations, SandboxOperation, sandboxWebhooks>;

/** How a route is served besides its handler; authentication comes from the operation's `security` in the description. */
export interface HandlerOptions {
  /**
   * A data request that reaches the institution (details, balances, transactions): the users that disconnect at
   * their first data request disconnect before it is served. The handler checks the account with the same flag.
   */
  reachesInstitution?: true;
  /** The response carries Service-Enrollment-Status. */
  enrollmentStatus?: true;
}

export interface OperationHandler<O extends ApiOperation | SandboxOperation> extends HandlerOptions {
  handle: (c: AppContext, runtime: Runtime) => Promise<Answer<O>> | Answer<O>;
}

/** A handler as the route registration sees it, whatever its operation. */
export interface RegisteredHandler extends HandlerOptions {
  handle: (c: AppContext, runtime: Runtime) => Promise<Response> | Response;
}

export type ApiHandlers = { [O in ServedOperation]: OperationHandler<O> };
export type SandboxHandlers = { [O in ServedSandboxOperation]: OperationHandler<O> };
