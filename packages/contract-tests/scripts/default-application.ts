// The default application of a sandbox as a developer leaves it: a user enrolled without an application key, the
// webhook URL at a local receiver (as `aggregation listen` sets it) and one event delivered. A snapshot of its
// webhook URL, signing secrets and deliveries is taken before a contract run and compared after it: the run must
// leave all three as they were.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';

type Settings = { url: string | null; secrets: { id: string; expires_at: string | null }[] };
type Delivery = { id: string; status: string; attempts: number; event_type: string };
type Snapshot = { settings: Settings; deliveries: Delivery[] };

export type WatchedApplication = { compare(): Promise<string[]>; close(): Promise<void> };

const authorization = (token: string) => ({ authorization: `Basic ${btoa(`${token}:`)}` });

async function call<T>(url: string, init: RequestInit, status: number): Promise<T> {
  const response = await fetch(url, init);
  if (response.status !== status) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export async function watchDefaultApplication(baseUrl: string): Promise<WatchedApplication> {
  const receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(204).end());
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  const json = { 'content-type': 'application/json' };
  const { access_token: token } = await call<{ access_token: string }>(
    `${baseUrl}/sandbox/enrollments`,
    { method: 'POST', headers: json, body: JSON.stringify({ username: 'username', password: 'password' }) },
    201,
  );
  await call(
    `${baseUrl}/sandbox/webhook`,
    { method: 'PUT', headers: { ...json, ...authorization(token) }, body: JSON.stringify({ url: receiverUrl }) },
    200,
  );
  await call(
    `${baseUrl}/sandbox/events`,
    { method: 'POST', headers: { ...json, ...authorization(token) }, body: JSON.stringify({ type: 'webhook.test' }) },
    202,
  );

  const snapshot = async (): Promise<Snapshot> => {
    const settings = await call<Settings>(`${baseUrl}/sandbox/webhook`, { headers: authorization(token) }, 200);
    const deliveries = await call<Delivery[]>(`${baseUrl}/sandbox/webhook/deliveries`, { headers: authorization(token) }, 200);
    return {
      settings: { url: settings.url, secrets: settings.secrets.map(({ id, expires_at }) => ({ id, expires_at })) },
      deliveries: deliveries.map(({ id, status, attempts, event_type }) => ({ id, status, attempts, event_type })),
    };
  };
  // The event's delivery settles first, so that the snapshot does not catch it on its way.
  let before = await snapshot();
  for (let tries = 0; before.deliveries.some((d) => d.status === 'pending') && tries < 300; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    before = await snapshot();
  }
  return {
    async compare() {
      const after = await snapshot();
      const problems: string[] = [];
      if (after.settings.url !== before.settings.url) problems.push(`webhook URL ${before.settings.url} became ${after.settings.url}`);
      if (!isDeepStrictEqual(after.settings.secrets, before.settings.secrets)) {
        problems.push(`signing secrets ${JSON.stringify(before.settings.secrets)} became ${JSON.stringify(after.settings.secrets)}`);
      }
      if (!isDeepStrictEqual(after.deliveries, before.deliveries)) {
        problems.push(`${before.deliveries.length} deliveries became ${after.deliveries.length}: ${JSON.stringify(after.deliveries.slice(0, 5))}`);
      }
      return problems;
    },
    close: () => new Promise((resolve) => receiver.close(() => resolve())),
  };
}
