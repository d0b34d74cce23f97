// The reference integration the consumer contract tests prove themselves on: a sync of accounts, balances and
// transactions, then one payment, written against the API the way its description asks. No dependencies: plain fetch.
//
//   AGGREGATION_BASE_URL=... AGGREGATION_TOKEN=test_token_... node app.js
//
// What it does about each documented failure:
// - 429, 503, 504: waits the seconds of Retry-After, then sends the same request again (at most 5 attempts);
//   502 and a lost answer (the connection closed before the answer): waits a growing backoff and sends it again.
// - A payment is sent again only with its own Idempotency-Key and body, so that a retry can never pay twice.
// - 410 account.closed: the account is gone; nothing more is asked of it.
// - Service-Enrollment-Status disconnected (or 404 enrollment.disconnected): the user must reconnect; the sync stops.
// - An MFA challenge ({connect_token}): the payment waits for the user's approval in the enrollment widget.
import { randomUUID } from 'node:crypto';

const VERSION = '2020-10-12';
const MAX_ATTEMPTS = 5;
const base = (process.env.AGGREGATION_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
const token = process.env.AGGREGATION_TOKEN;
if (!token) {
  console.error('app: set AGGREGATION_TOKEN (a sandbox token, test_token_...)');
  process.exit(2);
}
const authorization = `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class Disconnected extends Error {}

/** One request, sent again as the API asks after a failure it documents as temporary. */
async function request(method, path, { body, idempotencyKey } = {}) {
  const headers = { authorization, 'service-version': VERSION };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  const payload = body === undefined ? undefined : JSON.stringify(body);
  for (let attempt = 1; ; attempt++) {
    const backoff = 250 * 2 ** (attempt - 1);
    let response;
    try {
      response = await fetch(`${base}${path}`, { method, headers, body: payload, signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      // No answer: the request may or may not have been carried out. Only a read or a request with an
      // Idempotency-Key is safe to send again.
      if (attempt >= MAX_ATTEMPTS || (method !== 'GET' && !idempotencyKey)) throw error;
      await sleep(backoff);
      continue;
    }
    const status = response.status;
    if (status === 429 || status === 502 || status === 503 || status === 504) {
      await response.body?.cancel();
      if (attempt >= MAX_ATTEMPTS) throw new Error(`${method} ${path} answered ${status} ${MAX_ATTEMPTS} times`);
      const retryAfter = Number(response.headers.get('retry-after'));
      await sleep(Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff);
      continue;
    }
    const text = await response.text();
    const data = text ? JSON.parse(text) : undefined;
    const enrollment = response.headers.get('service-enrollment-status') ?? '';
    if (enrollment.split('.')[0] === 'disconnected' || String(data?.error?.code ?? '').startsWith('enrollment.disconnected'))
      throw new Disconnected(`the enrollment is ${enrollment || data.error.code}: the user must reconnect`);
    return { status, data };
  }
}

const isClosed = (answer) => answer.status === 410 && String(answer.data?.error?.code ?? '').startsWith('account.closed');

async function syncAccount(account) {
  const path = `/accounts/${encodeURIComponent(account.id)}`;
  const fresh = await request('GET', path);
  if (isClosed(fresh)) return { id: account.id, closed: true };
  const balances = await request('GET', `${path}/balances`);
  if (isClosed(balances)) return { id: account.id, closed: true };
  const since = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  const transactions = await request('GET', `${path}/transactions?start_date=${since}&count=100`);
  if (isClosed(transactions)) return { id: account.id, closed: true };
  return { id: account.id, subtype: fresh.data.subtype, links: fresh.data.links, ledger: balances.data.ledger, transactions: transactions.data.length };
}

async function pay(account) {
  // One key per intended payment, made before the first attempt and kept for every retry of it.
  const idempotencyKey = randomUUID();
  const body = { amount: '12.50', memo: 'Dinner, split', payee: { scheme: 'zelle', address: 'jane@example.org', name: 'Jane Doe', type: 'person' } };
  const answer = await request('POST', `/accounts/${encodeURIComponent(account.id)}/payments`, { body, idempotencyKey });
  if (isClosed(answer)) return console.log(`app: account ${account.id} closed before the payment`);
  if (answer.status === 200 && answer.data?.connect_token)
    return console.log(`app: the payment needs the user's approval: open the enrollment widget with connectToken ${answer.data.connect_token}`);
  if (answer.status !== 202) throw new Error(`the payment answered ${answer.status}: ${JSON.stringify(answer.data)}`);
  console.log(`app: paid ${answer.data.amount} to ${answer.data.payee.name} (${answer.data.id})`);
}

try {
  const accounts = await request('GET', '/accounts');
  if (accounts.status !== 200) throw new Error(`GET /accounts answered ${accounts.status}`);
  const synced = [];
  for (const account of accounts.data) synced.push(await syncAccount(account));
  for (const a of synced)
    console.log(`app: ${a.id} ${a.closed ? 'closed' : `${a.subtype}, ledger ${a.ledger}, ${a.transactions} recent transactions`}`);
  const payer = synced.find((a) => !a.closed && a.links?.payments);
  if (payer) await pay(payer);
  else console.log('app: no open account can send payments');
} catch (error) {
  if (!(error instanceof Disconnected)) throw error;
  console.log(`app: ${error.message}`);
}
