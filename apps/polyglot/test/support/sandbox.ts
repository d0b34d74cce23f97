// The sandbox server, in-process on a free port, and sandbox data for the programs run against it.
import { startServer } from '@aggregation/server';

export type Sandbox = { url: string; close(): Promise<void> };

export async function startSandbox(): Promise<Sandbox> {
  // No webhook deliveries: the samples set a webhook URL, and nothing may leave this machine.
  const server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false } });
  return { url: server.url, close: () => server.close() };
}

type Enrollment = { access_token: string; accounts: { id: string; subtype: string; links: Record<string, string> }[] };

async function call(url: string, init: RequestInit & { token?: string } = {}): Promise<unknown> {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Basic ${btoa(`${init.token}:`)}`);
  if (init.body) headers.set('content-type', 'application/json');
  const response = await fetch(url, { ...init, headers });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/**
 * A fresh enrollment of the healthy sandbox user, as environment variables: ACCESS_TOKEN, ACCOUNT_ID (its
 * checking account, which can pay), and TRANSACTION_ID and PAYMENT_ID when `needs` names them.
 */
export async function sampleEnv(baseUrl: string, needs: readonly string[] = []): Promise<Record<string, string>> {
  const enrollment = (await call(`${baseUrl}/sandbox/enrollments`, {
    method: 'POST',
    body: JSON.stringify({ username: 'username', password: 'password' }),
  })) as Enrollment;
  const token = enrollment.access_token;
  const account = enrollment.accounts.find((candidate) => candidate.links.payments) ?? enrollment.accounts[0]!;
  const env: Record<string, string> = { ACCESS_TOKEN: token, ACCOUNT_ID: account.id };
  if (needs.includes('TRANSACTION_ID')) {
    const [transaction] = (await call(`${baseUrl}/accounts/${account.id}/transactions?count=1`, { token })) as { id: string }[];
    env.TRANSACTION_ID = transaction!.id;
  }
  if (needs.includes('PAYMENT_ID')) {
    const payment = (await call(`${baseUrl}/accounts/${account.id}/payments`, {
      method: 'POST',
      token,
      body: JSON.stringify({ amount: '1.00', memo: 'Lunch', payee: { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' } }),
    })) as { id: string };
    env.PAYMENT_ID = payment.id;
  }
  return env;
}
