// Test harness: an app served in-process, a caller whose every response (status, headers,
// body) is checked against the bundled description through the shared ContractValidator,
// and a webhook receiver that verifies signatures with the client's verifyWebhook.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractValidator, type DocumentName } from '@aggregation/openapi/contract';
import { afterAll, beforeAll } from 'vitest';
// The client's source, not its build: the client's own tests depend on this package, so it cannot be a dependency.
import { verifyWebhook, WebhookVerificationError } from '../../../client/src/index.ts';
import { type App, type AppOptions, createApp, type RunningServer, type ServerOptions, startServer } from '../../src/index.ts';

export const contract = (name: DocumentName): ContractValidator => ContractValidator.shared(name);

export interface CallOptions {
  token?: string;
  /** Sent as Service-Version. */
  version?: string;
  json?: unknown;
  form?: string;
  body?: string;
  headers?: Record<string, string>;
  /** Skip the contract check (for requests the description does not cover at all). */
  unchecked?: boolean;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** Basic credentials for the token, with a password authentication ignores (none by default). */
export const basic = (token: string, password = '') => `Basic ${Buffer.from(`${token}:${password}`).toString('base64')}`;

/** Checks a response against the document that describes it; fails the test on any problem. */
export function assertContract(method: string, path: string, reply: Reply): void {
  const pathname = path.split('?')[0]!;
  const document: DocumentName = pathname.startsWith('/sandbox/')
    ? 'sandbox'
    : ((reply.headers.get('service-version') ?? '2020-10-12') as DocumentName);
  const problems = contract(document).validateResponse({
    method,
    path: pathname,
    status: reply.status,
    headers: reply.headers,
    body: reply.text === '' ? undefined : reply.body,
  });
  assert.deepEqual(problems, [], `${method} ${path} -> ${reply.status} breaks the ${document} contract: ${reply.text.slice(0, 500)}`);
}

export type Caller = (method: string, path: string, options?: CallOptions) => Promise<Reply>;

export function caller(fetcher: (request: Request) => Response | Promise<Response>, base = 'http://localhost'): Caller {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = basic(options.token);
    if (options.version) headers['service-version'] = options.version;
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = options.form;
    }
    const response = await fetcher(new Request(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }));
    const text = await response.text();
    let parsed: unknown;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const reply: Reply = { status: response.status, headers: response.headers, body: parsed, text };
    if (!options.unchecked) assertContract(method, path, reply);
    return reply;
  };
}

export interface TestApp {
  app: App;
  call: Caller;
  /** A new sandbox enrollment: its token and accounts. */
  enroll(username?: string, institution?: string): Promise<{ token: string; enrollmentId: string; accounts: any[] }>;
  close(): Promise<void>;
}

export function testApp(options: AppOptions = {}): TestApp {
  const app = createApp({ webhooks: { retry: { baseDelayMs: 50, maxDelayMs: 200 }, pollMs: 50, ...options.webhooks }, ...withoutWebhooks(options) });
  const call = caller((request) => app.fetch(request));
  return {
    app,
    call,
    async enroll(username = 'username', institution) {
      const reply = await call('POST', '/sandbox/enrollments', {
        json: { username, password: 'password', ...(institution ? { institution } : {}) },
      });
      assert.equal(reply.status, 201, reply.text);
      return { token: reply.body.access_token, enrollmentId: reply.body.enrollment.id, accounts: reply.body.accounts };
    },
    close: () => app.close(),
  };
}

export interface EnrolledSuite {
  t: TestApp;
  token: string;
  /** The checking account of the `username` user. */
  checking: any;
}

/**
 * For a describe block: a test app with the user `username` enrolled before its tests, closed
 * after them. The fields are set once `before` has run.
 */
export function enrolledSuite(options: () => AppOptions | Promise<AppOptions> = () => ({})): EnrolledSuite {
  const suite = {} as EnrolledSuite;
  beforeAll(async () => {
    suite.t = testApp(await options());
    const created = await suite.t.enroll();
    suite.token = created.token;
    suite.checking = created.accounts[0];
  });
  afterAll(() => suite.t.close());
  return suite;
}

export interface ServedSuite {
  running: RunningServer;
  /** Over HTTP, through everything that answers before the app. */
  http: Caller;
  /** In-process `app.fetch`: always the app's handlers. */
  rendered: Caller;
  /** The access log's lines. */
  logged: string[];
}

/**
 * For a describe block: a server on a free loopback port (webhook deliveries not started), closed after its tests.
 * The fields are set once `before` has run.
 */
export function servedSuite(options: () => ServerOptions | Promise<ServerOptions>): ServedSuite {
  const suite = { logged: [] as string[] } as ServedSuite;
  beforeAll(async () => {
    suite.running = await startServer({
      port: 0,
      hostname: '127.0.0.1',
      webhooks: { autostart: false },
      accessLog: (line) => suite.logged.push(line),
      ...(await options()),
    });
    suite.http = caller((request) => fetch(request), suite.running.url);
    suite.rendered = caller((request) => suite.running.app.fetch(request), suite.running.url);
  });
  afterAll(() => suite.running.close());
  return suite;
}

function withoutWebhooks(options: AppOptions): AppOptions {
  const { webhooks: _webhooks, ...rest } = options;
  return rest;
}

export interface ReceivedEvent {
  event: any;
  raw: string;
  signature: string;
}

/** A local webhook endpoint. `respond` decides each answer's status (default 204). */
export interface Receiver {
  url: string;
  events: ReceivedEvent[];
  /** Why requests were refused (bad signature, contract breach). */
  rejected: string[];
  respond: (request: IncomingMessage, attempt: number) => number;
  /** The first request is never answered: the sender's own timeout has to give up on it (for timeouts). */
  holdFirst: boolean;
  /** Resolves once `count` events (matching `filter`) arrived, however long a loaded machine takes. */
  waitFor(count: number, filter?: (event: any) => boolean): Promise<ReceivedEvent[]>;
  close(): Promise<void>;
}

export async function receiver(secrets: () => string[], version: DocumentName = '2020-10-12'): Promise<Receiver> {
  const events: ReceivedEvent[] = [];
  const rejected: string[] = [];
  let attempts = 0;
  const state: Receiver = {
    url: '',
    events,
    rejected,
    respond: () => 204,
    holdFirst: false,
    async waitFor(count, filter = () => true) {
      for (;;) {
        const matching = events.filter((received) => filter(received.event));
        if (matching.length >= count) return matching;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const status = state.respond(request, ++attempts);
    if (attempts === 1 && state.holdFirst) return;
    if (status >= 200 && status < 300) {
      const signature = String(request.headers['service-signature'] ?? '');
      try {
        const { event, document } = await verifiedEvent(raw, signature, secrets(), version);
        const problems = contract(document).validateAt(
          `#/webhooks/${(event as { type: string }).type}/post/requestBody/content/application~1json/schema`,
          event,
        );
        if (problems.length > 0) throw new Error(`event breaks the contract: ${JSON.stringify(problems)}`);
        events.push({ event, raw, signature });
      } catch (error) {
        rejected.push(String(error));
        response.writeHead(400).end(String(error));
        return;
      }
    }
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return state;
}

/**
 * The event, verified by the client, and the document that describes it: the released version's, or the sandbox's for
 * the sandbox's own events (`enrollment.reconnected`), which the client reports as authentic but unknown.
 */
async function verifiedEvent(
  raw: string,
  signature: string,
  secrets: string[],
  version: DocumentName,
): Promise<{ event: unknown; document: DocumentName }> {
  try {
    return { event: await verifyWebhook(raw, signature, secrets), document: version };
  } catch (error) {
    if (!(error instanceof WebhookVerificationError) || error.reason !== 'unknown_event_type') throw error;
    const { type } = error.event as { type: string };
    if (!(contract('sandbox').doc.webhooks as Record<string, unknown> | undefined)?.[type]) throw error;
    return { event: error.event, document: 'sandbox' };
  }
}

/** Waits until `check` holds (polling), however long a loaded machine takes: the hang guard is the only limit. */
export async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}
