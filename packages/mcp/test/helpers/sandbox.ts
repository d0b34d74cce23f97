// The sandbox server, in-process on a free port as the other packages' tests start it, and what the tests read from
// it directly (with plain fetch, beside the MCP server) to compare with what the tools answer.
import { createSandboxClient } from '@aggregation/client';
import { type RunningServer, startServer } from '@aggregation/server';

export type Enrollment = { token: string; accounts: { id: string; name: string; subtype: string; status: string; links: Record<string, string> }[] };

export type Sandbox = {
  url: string;
  server: RunningServer;
  /** A fresh enrollment of a sandbox test user (`username`, `closed`, `history.250`, ...). */
  enroll(username: string): Promise<Enrollment>;
  /**
   * Ids for the required arguments of every reading tool: the enrollment's checking account, its newest transaction,
   * and a payment made from it for the purpose.
   */
  readingIds(enrollment: Enrollment): Promise<Record<string, string>>;
  /** A request to the API as the token's holder: the status and the parsed body. */
  api(
    token: string,
    path: string,
    init?: { method?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
};

export async function startSandbox(): Promise<Sandbox> {
  // No webhook deliveries: nothing may leave this machine.
  const server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false }, logError: () => {} });
  const control = createSandboxClient({ baseUrl: server.url });
  const sandbox: Sandbox = {
    url: server.url,
    server,
    async enroll(username) {
      const { data, error } = await control.POST('/sandbox/enrollments', { body: { username, password: 'password' } });
      if (!data) throw new Error(`enrollment of ${username} failed: ${JSON.stringify(error)}`);
      return { token: data.access_token, accounts: data.accounts as Enrollment['accounts'] };
    },
    async api(token, path, init = {}) {
      const headers: Record<string, string> = { authorization: `Basic ${btoa(`${token}:`)}`, ...init.headers };
      if (init.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? 'GET',
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    async readingIds(enrollment) {
      const account = enrollment.accounts.find((candidate) => candidate.subtype === 'checking')!;
      const [transaction] = (await sandbox.api(enrollment.token, `/accounts/${account.id}/transactions?count=1`)).body;
      const payment = await sandbox.api(enrollment.token, `/accounts/${account.id}/payments`, {
        method: 'POST',
        body: { amount: '1.00', memo: 'Tea', payee: { scheme: 'zelle', address: 'sam@example.com', name: 'Sam', type: 'person' } },
        headers: { 'idempotency-key': crypto.randomUUID() },
      });
      if (payment.status !== 202) throw new Error(`the payment for the reading tools failed: ${JSON.stringify(payment.body)}`);
      return { account_id: account.id, transaction_id: transaction.id, payment_id: payment.body.id };
    },
    close: () => server.close(),
  };
  return sandbox;
}
