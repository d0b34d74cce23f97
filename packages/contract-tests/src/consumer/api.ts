// The API the integrator's command talks to (through the proxy): the sandbox when @aggregation/server is installed
// (a fresh SQLite file, an application of the run's own, an enrollment per run of the command), else the Prism mock
// of @aggregation/mock, or a running server named with --upstream (and --token). Each gives every run of the command
// a token, tells how many payments it holds, and names the webhook signing secret a receiver is to check with.
import { randomBytes } from 'node:crypto';
import type { DocumentName } from '@aggregation/openapi/contract';
import type { Exchange } from '../recorder.ts';
import { externalServer, openSandbox, type Sandbox, type Server, SetupError, startLocalServer } from '../target.ts';
import { DISCONNECT_REASON, type HeldPayment, MFA_TEST_USER } from './faults.ts';

/** One run's identity: its token, and what can be done with its enrollment. */
export type Session = {
  token: string;
  /** Disconnects the enrollment for real (the sandbox only; a given token is never disconnected). */
  disconnect?: () => Promise<void>;
  /** The enrollment's payees and payments ask for approval for real (the sandbox's MFA test user). */
  mfa?: boolean;
  /** The payments the enrollment's accounts hold, or undefined when the API cannot say (the mock). */
  payments(): Promise<HeldPayment[] | undefined>;
};

export type Api = {
  kind: 'sandbox' | 'mock' | 'upstream';
  /** Where the proxy sends the command's requests. */
  baseUrl: string;
  version: DocumentName;
  /** The secret the API signs its events with now, handed to the command as AGGREGATION_WEBHOOK_SECRET. */
  webhookSecret: string;
  /** A secret that signed events once and no longer does. */
  rotatedOutSecret: string;
  /** A fresh enrollment for each run of the command where the API makes them, else the one token; with `mfa`, of the
   * test user whose payees and payments ask for approval, where the API has it. */
  session(options?: { mfa?: boolean }): Promise<Session>;
  /** Headers the proxy adds to a request on its way to the API (the mock's choice of answer). */
  upstreamHeaders?: (exchange: Exchange) => Record<string, string> | undefined;
  /** The API sends its own events to this URL (the sandbox only). */
  sendEventsTo(url: string): Promise<void>;
  close(): Promise<void>;
};

export type ApiOptions = { version: DocumentName; upstream?: string; token?: string };

/** A secret in the sandbox's own form, for an API that has none to give. */
export const newSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

const basic = (token: string) => `Basic ${btoa(`${token}:`)}`;

async function call(baseUrl: string, token: string, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: basic(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
}

/** Every payment of every account of the token that can hold payments, asked of the API itself (not through the proxy). */
async function heldPayments(baseUrl: string, token: string): Promise<HeldPayment[] | undefined> {
  const accounts = await call(baseUrl, token, 'GET', '/accounts');
  if (!accounts.ok) return undefined;
  const list = (await accounts.json()) as { id: string; links?: Record<string, string> }[];
  const held: HeldPayment[] = [];
  for (const account of list.filter((a) => a.links?.payments)) {
    const answer = await call(baseUrl, token, 'GET', `/accounts/${encodeURIComponent(account.id)}/payments`);
    if (!answer.ok) return undefined;
    for (const p of (await answer.json()) as { id: string; amount: string; memo?: string; payee?: { address?: string } }[])
      held.push({ id: p.id, accountId: account.id, amount: p.amount, memo: p.memo ?? '', payee: p.payee?.address ?? '' });
  }
  return held;
}

type WebhookSettings = { url: string | null; secrets: { secret: string; expires_at: string | null }[] };

/**
 * The application's signing secrets, rotated once so that a secret that signed events before and no longer does is
 * known: the receiver checks send one event signed with it alone.
 */
async function rotatedSecrets(baseUrl: string, token: string, own: boolean): Promise<{ current: string; rotatedOut: string } | undefined> {
  const settings = await call(baseUrl, token, 'GET', '/sandbox/webhook');
  if (settings.status !== 200) return undefined;
  const before = ((await settings.json()) as WebhookSettings).secrets.find((s) => s.expires_at === null)?.secret;
  // A given token's application is the integrator's: its secrets are read, never rotated.
  if (!own) return before ? { current: before, rotatedOut: newSecret() } : undefined;
  const rotated = await call(baseUrl, token, 'POST', '/sandbox/webhook/secrets', { expire_current_at: new Date(Date.now() - 1000).toISOString() });
  if (rotated.status !== 201 || !before) return undefined;
  const current = ((await rotated.json()) as WebhookSettings).secrets.find((s) => s.expires_at === null)?.secret;
  return current ? { current, rotatedOut: before } : undefined;
}

function sandboxApi(
  server: Server,
  sandbox: Sandbox,
  kind: Api['kind'],
  version: DocumentName,
  firstToken: string,
  secrets: { current: string; rotatedOut: string },
): Api {
  const baseUrl = server.baseUrl;
  return {
    kind,
    baseUrl,
    version,
    webhookSecret: secrets.current,
    rotatedOutSecret: secrets.rotatedOut,
    async session(options = {}) {
      const mfa = sandbox.enrolls && !!options.mfa;
      const token = sandbox.enrolls ? (await sandbox.enroll(mfa ? MFA_TEST_USER : 'username')).token : firstToken;
      return {
        token,
        ...(sandbox.enrolls
          ? {
              mfa,
              disconnect: async () => {
                const answer = await call(baseUrl, token, 'POST', '/sandbox/enrollment/disconnect', { reason: DISCONNECT_REASON });
                if (!answer.ok)
                  throw new SetupError(`POST /sandbox/enrollment/disconnect answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
              },
            }
          : {}),
        payments: () => heldPayments(baseUrl, token),
      };
    },
    async sendEventsTo(url) {
      if (sandbox.mode !== 'own-application') return;
      const answer = await call(baseUrl, firstToken, 'PUT', '/sandbox/webhook', { url });
      if (!answer.ok) throw new SetupError(`PUT /sandbox/webhook (${url}) answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
    },
    async close() {
      await sandbox.close().catch(() => {});
      await server.close();
    },
  };
}

export async function mockApi(version: DocumentName): Promise<Api> {
  let mock: typeof import('@aggregation/mock');
  try {
    mock = await import('@aggregation/mock');
  } catch (error) {
    throw new SetupError(
      `neither @aggregation/server nor @aggregation/mock can start here (${(error as Error).message}): pass --upstream <url> of a running server`,
    );
  }
  const running = await mock.startMock({ version });
  const token = `test_token_${randomBytes(12).toString('hex')}`;
  return {
    kind: 'mock',
    baseUrl: running.url,
    version,
    webhookSecret: newSecret(),
    rotatedOutSecret: newSecret(),
    session: async () => ({ token, payments: async () => undefined }),
    // Prism answers a payment with the first documented status, the MFA challenge's 200; an API makes the payment.
    upstreamHeaders: (exchange) => (exchange.method === 'POST' && /\/payments$/.test(exchange.path) ? { prefer: 'code=202' } : undefined),
    sendEventsTo: async () => {},
    close: () => running.stop(),
  };
}

/** Whether @aggregation/server can be loaded here (then the sandbox is the API). */
async function serverInstalled(): Promise<boolean> {
  try {
    await import('@aggregation/server');
    return true;
  } catch {
    return false;
  }
}

export async function openApi(options: ApiOptions): Promise<Api> {
  if (!options.upstream && !(await serverInstalled())) return mockApi(options.version);
  const server = options.upstream ? await externalServer(options.upstream) : await startLocalServer();
  try {
    const sandbox = await openSandbox(server.baseUrl, options.token, { default_version: options.version });
    const first = await sandbox.token();
    const secrets = (await rotatedSecrets(server.baseUrl, first, sandbox.mode === 'own-application')) ?? {
      current: newSecret(),
      rotatedOut: newSecret(),
    };
    return sandboxApi(server, sandbox, options.upstream ? 'upstream' : 'sandbox', options.version, first, secrets);
  } catch (error) {
    await server.close();
    throw error;
  }
}
