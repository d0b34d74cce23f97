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
 * A fresh enrollment of the healthy sandbox user, as environment variables: AGGREGATION_TOKEN, ACCOUNT_ID (its
 * checking account, which can pay), and TRANSACTION_ID, PAYMENT_ID, DELIVERY_ID, CONNECT_TOKEN (an MFA challenge of
 * its payment) and APPLICATION_ID when `needs` names them. With `UPGRADE`, the enrollment belongs to an application of
 * its own, upgraded from the older version (so that it can roll back); with `DISCONNECTED` it is disconnected; with
 * `SESSION:<step>`, SESSION_ID is an enrollment widget session of its application at that step (`select_accounts`:
 * ACCOUNT_ID is an account it offers; `approve`: it approves a challenge of the enrollment).
 */
export async function sampleEnv(baseUrl: string, needs: readonly string[] = []): Promise<Record<string, string>> {
  const application = needs.includes('UPGRADE')
    ? ((await call(`${baseUrl}/sandbox/applications`, { method: 'POST', body: JSON.stringify({ default_version: '2019-07-01' }) })) as {
        key: string;
      })
    : undefined;
  const enrollment = (await call(`${baseUrl}/sandbox/enrollments`, {
    method: 'POST',
    ...(application ? { token: application.key } : {}),
    body: JSON.stringify({ username: 'username', password: 'password' }),
  })) as Enrollment;
  const token = enrollment.access_token;
  if (application) {
    await call(`${baseUrl}/sandbox/application/version`, { method: 'POST', token, body: JSON.stringify({ version: '2020-10-12' }) });
  }
  const account = enrollment.accounts.find((candidate) => candidate.links.payments) ?? enrollment.accounts[0]!;
  const env: Record<string, string> = { AGGREGATION_TOKEN: token, ACCOUNT_ID: account.id };
  if (needs.includes('TRANSACTION_ID')) {
    const [transaction] = (await call(`${baseUrl}/accounts/${account.id}/transactions?count=1`, { token })) as { id: string }[];
    env.TRANSACTION_ID = transaction!.id;
  }
  if (needs.includes('PAYMENT_ID')) {
    const payment = (await call(`${baseUrl}/accounts/${account.id}/payments`, {
      method: 'POST',
      token,
      body: JSON.stringify({
        amount: '1.00',
        memo: 'Lunch',
        payee: { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' },
      }),
    })) as { id: string };
    env.PAYMENT_ID = payment.id;
  }
  if (needs.includes('DELIVERY_ID')) {
    // A delivery needs a webhook URL; the worker is off, so nothing is sent to it.
    const settings = (await call(`${baseUrl}/sandbox/webhook`, { token })) as { url: string | null };
    if (settings.url === null) {
      await call(`${baseUrl}/sandbox/webhook`, { method: 'PUT', token, body: JSON.stringify({ url: 'http://localhost:8080/webhooks' }) });
    }
    const event = (await call(`${baseUrl}/sandbox/events`, { method: 'POST', token, body: JSON.stringify({ type: 'webhook.test' }) })) as {
      id: string;
    };
    const deliveries = (await call(`${baseUrl}/sandbox/webhook/deliveries`, { token })) as { id: string; event_id: string }[];
    env.DELIVERY_ID = deliveries.find((delivery) => delivery.event_id === event.id)!.id;
  }
  if (needs.includes('DISCONNECTED')) {
    await call(`${baseUrl}/sandbox/enrollment/disconnect`, { method: 'POST', token, body: JSON.stringify({}) });
  }
  const session = needs.find((need) => need.startsWith('SESSION:'))?.slice('SESSION:'.length);
  if (needs.includes('APPLICATION_ID') || session) {
    env.APPLICATION_ID = ((await call(`${baseUrl}/sandbox/application`, { token })) as { id: string }).id;
  }
  if (needs.includes('CONNECT_TOKEN') || session === 'approve') env.CONNECT_TOKEN = await challengeOf(baseUrl, token, account.id);
  if (session) Object.assign(env, await sessionAt(baseUrl, env, session));
  return env;
}

/** An MFA challenge of a payment from the account (a memo of `mfa` asks for one), kept under its Idempotency-Key. */
async function challengeOf(baseUrl: string, token: string, accountId: string): Promise<string> {
  const answer = (await call(`${baseUrl}/accounts/${accountId}/payments`, {
    method: 'POST',
    token,
    headers: { 'idempotency-key': `sample-${accountId}` },
    body: JSON.stringify({
      amount: '1.00',
      memo: 'mfa',
      payee: { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' },
    }),
  })) as { connect_token: string };
  return answer.connect_token;
}

/** An enrollment widget session of the application at `step`, and what the step's sample reads. */
async function sessionAt(baseUrl: string, env: Record<string, string>, step: string): Promise<Record<string, string>> {
  const start = {
    application_id: env.APPLICATION_ID,
    ...(step === 'approve' ? { connect_token: env.CONNECT_TOKEN } : {}),
    ...(step === 'select_accounts' ? { select_account: 'single' } : {}),
  };
  const session = (await call(`${baseUrl}/sandbox/connect/sessions`, { method: 'POST', body: JSON.stringify(start) })) as { id: string };
  if (step !== 'mfa' && step !== 'select_accounts') return { SESSION_ID: session.id };
  const username = step === 'mfa' ? 'mfa.device' : 'username';
  const signedIn = (await call(`${baseUrl}/sandbox/connect/sessions/${session.id}/credentials`, {
    method: 'POST',
    body: JSON.stringify({ application_id: env.APPLICATION_ID, institution_id: 'chase', username, password: 'password' }),
  })) as { accounts: { id: string }[] | null };
  return { SESSION_ID: session.id, ...(signedIn.accounts ? { ACCOUNT_ID: signedIn.accounts[0]!.id } : {}) };
}
