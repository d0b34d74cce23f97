// Talking to a server under test: a caller (the server tests' harness over fetch), a fresh sandbox
// enrollment, the error shape every refusal must have, a snapshot of everything a token can read,
// and the canary that proves the server still serves.
import assert from 'node:assert/strict';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { Agent } from 'undici';
import { basic, type Caller, caller, contract, type Reply } from '../../server/test/helpers/harness.ts';
import { tally } from './tally.ts';

export { basic, type Caller, type Reply };

/**
 * Each request on a connection of its own. A server closes a connection it kept alive once it has been idle for its
 * keep-alive time, and a client starved on a loaded machine can send a request on it just then: the request meets a
 * reset that says nothing of the server under test (test/caller.test.ts).
 */
const NO_KEEP_ALIVE = { pipelining: 0 } as const;
const freshConnections = new Agent(NO_KEEP_ALIVE);
const fetchFresh = (request: Request) => fetch(request, { dispatcher: freshConnections } as RequestInit);

/** A caller of `url` that counts its requests; `unchecked` by default (hostile requests are outside the contract). */
export function callerOf(url: string, send: (request: Request) => Promise<Response> = fetchFresh): Caller {
  const call = caller((request) => {
    tally.requests++;
    return send(request);
  }, url);
  return (method, path, options = {}) => call(method, path, { unchecked: true, ...options });
}

/** fetch over HTTPS trusting `ca` (the test CA that signed the server's certificate); `close` ends its connections. */
export function fetchTrusting(ca: Buffer): { send: (request: Request) => Promise<Response>; close(): Promise<void> } {
  const dispatcher = new Agent({ ...NO_KEEP_ALIVE, connect: { ca } });
  return { send: (request) => fetch(request, { dispatcher } as RequestInit), close: () => dispatcher.close() };
}

export interface Enrolled {
  token: string;
  enrollmentId: string;
  checking: string;
  accounts: string[];
}

/** A new application: its id and key (`test_app_key_...`). */
export async function createApplication(call: Caller): Promise<{ id: string; key: string }> {
  const reply = await call('POST', '/sandbox/applications', { json: {}, unchecked: false });
  assert.equal(reply.status, 201, reply.text);
  return { id: reply.body.application.id, key: reply.body.key };
}

/** A new enrollment of the default application, or of the application whose key is given. */
export async function enroll(call: Caller, username = 'username', applicationKey?: string): Promise<Enrolled> {
  const reply = await call('POST', '/sandbox/enrollments', {
    json: { username, password: 'password' },
    ...(applicationKey ? { headers: { authorization: basic(applicationKey) } } : {}),
    unchecked: false,
  });
  assert.equal(reply.status, 201, reply.text);
  const accounts = reply.body.accounts as { id: string; links: { payments?: string } }[];
  return {
    token: reply.body.access_token,
    enrollmentId: reply.body.enrollment.id,
    checking: accounts.find((account) => account.links.payments)!.id,
    accounts: accounts.map((account) => account.id),
  };
}

/** Problems of an error body against the description's `Error` schema (`{"error": {"code", "message", "params?"}}`). */
export function errorShapeProblems(body: unknown): string[] {
  if (body === undefined) return ['no JSON body'];
  return contract(CURRENT_VERSION)
    .validateAt('#/components/schemas/Error', body)
    .map((problem) => `${problem.where} ${problem.message}`);
}

/** A 4xx in the error shape. */
export function assertRefused(status: number, body: unknown, text: string, what: string): void {
  assert.ok(status >= 400 && status < 500, `${what}: answered ${status}, not 4xx: ${text.slice(0, 300)}`);
  assert.deepEqual(errorShapeProblems(body), [], `${what}: ${status} is not in the error shape: ${JSON.stringify(text.slice(0, 300))}`);
}

export const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };

/** Everything the token can read: accounts, balances, transactions, payments, webhook settings, deliveries, clock. */
export async function snapshot(call: Caller, enrolled: Enrolled): Promise<unknown> {
  const { token } = enrolled;
  const read = async (path: string) => {
    const reply = await call('GET', path, { token });
    return { status: reply.status, body: reply.body };
  };
  const accounts: Record<string, unknown> = {};
  for (const id of enrolled.accounts) {
    accounts[id] = {
      account: await read(`/accounts/${id}`),
      balances: await read(`/accounts/${id}/balances`),
      transactions: await read(`/accounts/${id}/transactions?count=10000`),
      payments: id === enrolled.checking ? await read(`/accounts/${id}/payments`) : undefined,
    };
  }
  const webhook = await read('/sandbox/webhook');
  const deliveries = await read('/sandbox/webhook/deliveries');
  // The clock's `now` moves with real time; its offset is what a request could change.
  const clock = await call('GET', '/sandbox/clock', { token });
  return { list: await read('/accounts'), accounts, webhook, deliveries, clockOffset: clock.body?.offset_seconds };
}

/** The server answers a read and a write with a body (a payee named `mfa` makes nothing) as it should. */
export async function assertServes(call: Caller, enrolled: Enrolled, what: string): Promise<void> {
  const list = await call('GET', '/accounts', { token: enrolled.token, unchecked: false });
  assert.equal(list.status, 200, `${what}: GET /accounts afterwards answered ${list.status}: ${list.text.slice(0, 300)}`);
  const write = await call('POST', `/accounts/${enrolled.checking}/payees`, {
    token: enrolled.token,
    json: { ...payee, name: 'mfa' },
    unchecked: false,
  });
  assert.equal(write.status, 200, `${what}: a POST afterwards answered ${write.status}: ${write.text.slice(0, 300)}`);
}
