// The client against the server in-process (createApp(...).fetch): every operation, success and error paths,
// in both versions. Every response the client receives is also checked against the bundled description.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractValidator, type DocumentName } from '@aggregation/openapi/contract';
import { type App, createApp } from '@aggregation/server';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import {
  type Account,
  type AggregationClient,
  ApiError,
  ConfigurationError,
  createClient,
  createSandboxClient,
  disconnectReason,
  getResponseInfo,
  isAccountClosed,
  isEnrollmentDisconnected,
  isValidationError,
  isVerificationExpired,
  isVerificationPending,
  PaymentsNotSupportedError,
  type Transaction,
  verifyWebhook,
  type WebhookEvent,
} from '../src/index.ts';
import { missingBundle } from './helpers/prism.ts';

const skip = missingBundle('2020-10-12');
const baseUrl = 'http://localhost';

describe.skipIf(skip)('against the server in-process', () => {
  let app: App;
  const problems: string[] = [];

  /** The app's fetch, with every response checked against the document that describes it. */
  const fetch = async (request: Request): Promise<Response> => {
    const response = await app.fetch(request);
    const path = new URL(request.url).pathname;
    const document = (path.startsWith('/sandbox/') ? 'sandbox' : (response.headers.get('service-version') ?? '2020-10-12')) as DocumentName;
    const validator = ContractValidator.shared(document);
    const text = await response.clone().text();
    const found = validator.validateResponse({
      method: request.method,
      path,
      status: response.status,
      headers: response.headers,
      body: text === '' ? undefined : JSON.parse(text),
    });
    for (const problem of found) problems.push(`${problem.where}: ${problem.message}`);
    return response;
  };

  const sandbox = createSandboxClient({ baseUrl, fetch });
  async function enroll(username: string) {
    const { data, error } = await sandbox.POST('/sandbox/enrollments', { body: { username, password: 'password' } });
    assert.ok(data, `enrollment of ${username} failed: ${JSON.stringify(error)}`);
    return data;
  }
  const clientFor = <V extends '2020-10-12' | '2019-07-01' = '2020-10-12'>(token: string, version?: V) =>
    createClient<V>({ token, baseUrl, fetch, retry: false, ...(version ? { version } : {}) });

  beforeAll(() => {
    app = createApp({ databasePath: ':memory:', logError: () => {} });
  });
  afterAll(async () => {
    await app?.close();
  });
  afterEach(() => {
    assert.deepEqual(problems.splice(0), [], 'responses that break the contract');
  });

  describe('healthy enrollment (username)', () => {
    let client: AggregationClient;
    let token: string;
    let checking: Account;
    let savings: Account;
    let card: Account;

    beforeAll(async () => {
      const enrollment = await enroll('username');
      token = enrollment.access_token;
      client = clientFor(token, '2020-10-12');
      [checking, savings, card] = enrollment.accounts as [Account, Account, Account];
    });

    it("takes the app's fetch as it is", async () => {
      const direct = createClient({ token, baseUrl, fetch: app.fetch });
      assert.equal((await direct.accounts.list()).length, 3);
    });

    it('listInstitutions', async () => {
      const institutions = await client.institutions.list();
      assert.ok(institutions.some((i) => i.id === 'chase' && i.products.includes('payments')));
    });

    it('getEntrypoint, and its links lead to the collections', async () => {
      const { links } = await client.entrypoint();
      assert.deepEqual(links, { accounts: `${baseUrl}/accounts`, institutions: `${baseUrl}/institutions` });
      assert.equal(getResponseInfo(await client.entrypoint())?.version, '2020-10-12');
      const followed = await client.raw.GET('/accounts', { baseUrl: links.accounts.slice(0, -'/accounts'.length) });
      assert.equal(followed.response.status, 200);
    });

    it('listAccounts and getAccount, with the enrollment status', async () => {
      const accounts = await client.accounts.list();
      assert.deepEqual(
        accounts.map((a) => a.subtype),
        ['checking', 'savings', 'credit_card'],
      );
      assert.equal(getResponseInfo(accounts)?.version, '2020-10-12');
      const one = await client.accounts.get(checking.id);
      assert.equal(one.id, checking.id);
      assert.deepEqual(getResponseInfo(one)?.enrollmentStatus, { status: 'healthy', reason: undefined, raw: 'healthy' });
      assert.equal(client.enrollmentStatus?.status, 'healthy');
    });

    it('getAccountDetails and getAccountBalances', async () => {
      const details = await client.accounts.details(checking.id);
      assert.equal(details.account_number.slice(-4), checking.last_four);
      const balances = await client.accounts.balances(checking.id);
      assert.match(balances.available, /^-?\d+\.\d{2}$/);
    });

    it('listTransactions and getTransaction', async () => {
      const page = await client.transactions.list(checking.id, { count: 5 });
      assert.equal(page.length, 5);
      const first = page[0] as Transaction;
      const one = await client.transactions.get(checking.id, first.id);
      assert.deepEqual(one, first);
    });

    it('iterate pages the same transactions as one unpaged call, newest first', async () => {
      const all = await client.transactions.list(checking.id, {});
      const paged: string[] = [];
      for await (const transaction of client.transactions.iterate(checking.id, { pageSize: 7 })) paged.push(transaction.id);
      assert.deepEqual(
        paged,
        all.map((t) => t.id),
      );
      const dates = all.map((t) => t.date);
      assert.deepEqual(dates, [...dates].sort().reverse());
    });

    it('iterate keeps a date range', async () => {
      const all = await client.transactions.list(checking.id, {});
      const end = all[0]?.date as string;
      const start = all.at(-1)?.date as string;
      const middle = all[Math.floor(all.length / 2)]?.date as string;
      const inRange: Transaction[] = [];
      for await (const t of client.transactions.iterate(checking.id, { startDate: start, endDate: middle, pageSize: 4 })) inRange.push(t);
      assert.ok(inRange.length > 0 && inRange.every((t) => t.date >= start && t.date <= middle));
      assert.equal(inRange.length, all.filter((t) => t.date <= middle).length);
      assert.ok(end >= middle);
    });

    it('sync: the first run inserts the history; after a refresh, inserts, updates and removals match the server', async () => {
      const stored = new Map<string, Transaction>();
      const first = await client.transactions.sync(checking.id, { pageSize: 50 });
      for (const t of first.inserted) stored.set(t.id, t);
      assert.ok(first.inserted.length > 0);
      assert.deepEqual([first.updated.length, first.removed.length], [0, 0]);

      const again = await client.transactions.sync(checking.id, { state: first.state, known: stored });
      assert.deepEqual([again.inserted.length, again.updated.length, again.removed.length], [0, 0, 0]);
      assert.ok(again.window.start_date);

      // Days pass on the sandbox clock: pending transactions post (some under a new id) and new ones arrive.
      const authed = createSandboxClient({ baseUrl, fetch, token });
      await authed.POST('/sandbox/clock/advance', { body: { days: 3 } });
      await authed.POST('/sandbox/enrollment/refresh');
      const later = await client.transactions.sync(checking.id, { state: again.state, known: stored });
      assert.ok(later.inserted.length > 0, 'new transactions were inserted');
      for (const t of [...later.inserted, ...later.updated]) stored.set(t.id, t);
      for (const t of later.removed) stored.delete(t.id);

      const truth = await client.transactions.list(checking.id, {});
      const truthIds = new Set(truth.map((t) => t.id));
      for (const t of truth) assert.deepEqual(stored.get(t.id), t, `stored copy of ${t.id} is current`);
      for (const t of later.removed) assert.equal(truthIds.has(t.id), false, `${t.id} was removed by the server`);
      assert.equal(stored.size, truth.length);
    });

    it('listPaymentSchemes', async () => {
      const schemes = await client.payments.schemes(checking.id);
      assert.deepEqual(schemes.schemes, [{ name: 'zelle' }]);
    });

    it('createPayee: a payee, or the MFA challenge for the sandbox payee named mfa', async () => {
      const created = await client.payees.create(checking.id, { scheme: 'zelle', address: 'bob@example.com', name: 'Bob', type: 'person' });
      assert.equal(created.kind, 'payee');
      if (created.kind === 'payee') assert.equal(created.payee.account_id, checking.id);
      const challenged = await client.payees.create(checking.id, { scheme: 'zelle', address: 'mfa@example.com', name: 'mfa', type: 'person' });
      assert.equal(challenged.kind, 'mfa');
      if (challenged.kind === 'mfa') assert.ok(challenged.connectToken.length > 0);
    });

    it('createPayment: 202, replayed for the same key, refused for a reused key with another body', async () => {
      const body = { amount: '12.34', memo: 'Lunch', payee: { scheme: 'zelle', address: 'bob@example.com', name: 'Bob', type: 'person' } } as const;
      const paid = await client.payments.create(checking, body);
      assert.equal(paid.kind, 'payment');
      assert.ok(paid.kind === 'payment' && paid.status === 202 && paid.payment.id.startsWith('pay_'));
      const replay = await client.payments.create(checking, body, { idempotencyKey: paid.idempotencyKey });
      assert.equal(replay.kind === 'payment' && replay.payment.id, paid.kind === 'payment' && paid.payment.id);
      assert.equal(paid.kind === 'payment' && paid.replayed, false);
      assert.equal(replay.kind === 'payment' && replay.replayed, true, 'the stored answer says it is one');
      assert.match(getResponseInfo(replay.kind === 'payment' ? replay.payment : undefined)?.requestId ?? '', /^req_/);
      await assert.rejects(
        client.payments.create(checking, { ...body, amount: '99.00' }, { idempotencyKey: paid.idempotencyKey }),
        (error: ApiError) => error.status === 422 && error.code === 'idempotency_key_reused',
      );
    });

    it('createPayment: the MFA challenge (memo mfa)', async () => {
      const result = await client.payments.create(checking.id, { amount: '5', memo: 'mfa', payee: { scheme: 'zelle', address: 'bob@example.com' } });
      assert.equal(result.kind, 'mfa');
    });

    it('listPayments and getPayment', async () => {
      const payments = await client.payments.list(checking.id);
      assert.ok(payments.length >= 1);
      const first = payments[0];
      assert.ok(first);
      assert.deepEqual(await client.payments.get(checking.id, first.id), first);
    });

    it('payments are refused locally for accounts without a payments link, and by the server', async () => {
      await assert.rejects(
        client.payments.create(card, { amount: '1.00', memo: 'x', payee: { scheme: 'zelle', address: 'a@example.com' } }),
        PaymentsNotSupportedError,
      );
      await assert.rejects(
        client.payments.create(savings.id, { amount: '1.00', memo: 'x', payee: { scheme: 'zelle', address: 'a@example.com' } }),
        PaymentsNotSupportedError,
      );
      const { error, response } = await client.raw.POST('/accounts/{account_id}/payments', {
        params: { path: { account_id: card.id } },
        body: { amount: '1.00', memo: 'x', payee: { scheme: 'zelle', address: 'a@example.com' } },
      });
      assert.equal(response.status, 422);
      assert.equal(error?.error.code, 'payments.not_supported');
    });

    it('422 with params for an invalid query or body', async () => {
      await assert.rejects(client.transactions.list(checking.id, { count: 0 }), (error: ApiError) => {
        assert.ok(isValidationError(error));
        assert.ok(error.params?.count);
        return true;
      });
      const bad = { amount: '-5', memo: 'x', payee: { scheme: 'zelle', address: 'a@example.com' } } as const;
      await assert.rejects(client.payments.create(checking, bad), (error: ApiError) => isValidationError(error) && error.params !== undefined);
    });

    it('404 for an unknown transaction or payment', async () => {
      await assert.rejects(client.transactions.get(checking.id, 'txn_missing'), (error: ApiError) => error.status === 404);
      await assert.rejects(client.payments.get(checking.id, 'pay_missing'), (error: ApiError) => error.status === 404);
      await assert.rejects(client.accounts.get('acc_missing'), (error: ApiError) => error.status === 404 && error.code === 'not_found');
    });

    it('an error names its request: requestId is error.request_id, the Request-Id header', async () => {
      await assert.rejects(client.accounts.get('acc_missing'), (error: ApiError) => {
        assert.match(error.requestId ?? '', /^req_/);
        assert.equal(error.requestId, error.headers.get('Request-Id'));
        assert.equal(error.requestId, (error.body as { error: { request_id: string } }).error.request_id);
        return true;
      });
    });

    it('403 for an invalid token; 400 for an unknown version', async () => {
      await assert.rejects(
        clientFor('test_token_doesnotexist').accounts.list(),
        (error: ApiError) => error.status === 403 && error.code === 'forbidden',
      );
      const odd = createClient({ token, baseUrl, fetch, retry: false, headers: { 'Service-Version': '2001-01-01' } });
      await assert.rejects(odd.accounts.list(), (error: ApiError) => error.status === 400 && error.code === 'bad_request');
    });

    it('a live token: refused by the client before sending, and by the server without a certificate', async () => {
      let sent = 0;
      const counting = async (request: Request) => {
        sent++;
        return fetch(request);
      };
      assert.throws(() => createClient({ token: 'token_abc123', baseUrl, fetch: counting }), ConfigurationError);
      assert.equal(sent, 0);
      // Declaring mutual TLS over an in-process fetch (no TLS at all): the server refuses it too.
      const pretending = createClient({ token: 'token_abc123', baseUrl, fetch: counting, mutualTls: true, retry: false });
      await assert.rejects(pretending.accounts.list(), (error: ApiError) => error.status === 400 && error.code === 'bad_request');
    });

    it('the 2019-07-01 shapes through the same client API', async () => {
      const older = clientFor(token, '2019-07-01');
      const [account] = await older.accounts.list();
      assert.equal(account?.institution, 'Chase');
      assert.equal(getResponseInfo(account)?.version, undefined); // info is on the list, not its items
      const balances = await older.accounts.balances(checking.id);
      assert.deepEqual(
        balances.map((b) => b.type),
        ['ledger', 'available'],
      );
      const schemes = await older.payments.schemes(checking.id);
      assert.deepEqual(schemes.schemes, [{ scheme: 'zelle' }]);
      const transactions = await older.transactions.list(checking.id, { count: 3 });
      assert.ok(transactions.every((t) => !('status' in t) && 'counterparty' in t));
      const paged = [];
      for await (const t of older.transactions.iterate(checking.id, { pageSize: 10 })) paged.push(t.id);
      assert.equal(paged.length, (await older.transactions.list(checking.id)).length);
    });

    it('deleteAccount (204), after which the account is gone', async () => {
      const info = await client.accounts.delete(savings.id);
      assert.equal(info.status, 204);
      await assert.rejects(client.accounts.get(savings.id), (error: ApiError) => error.status === 404);
    });

    it('deleteAccounts (204), after which the token no longer works', async () => {
      const info = await client.accounts.deleteAll();
      assert.equal(info.status, 204);
      await assert.rejects(client.accounts.list(), ApiError);
    });
  });

  describe('closed account (closed)', () => {
    it('410 account.closed on the account and its sub-resources', async () => {
      const { access_token, accounts } = await enroll('closed');
      const client = clientFor(access_token);
      const closed = accounts[0] as Account;
      assert.equal(closed.status, 'closed');
      for (const call of [
        () => client.accounts.get(closed.id),
        () => client.accounts.details(closed.id),
        () => client.accounts.balances(closed.id),
        () => client.transactions.list(closed.id),
      ]) {
        await assert.rejects(call(), (error: ApiError) => {
          assert.equal(error.status, 410);
          assert.ok(isAccountClosed(error));
          return true;
        });
      }
    });

    it('a reason token after account.closed', async () => {
      const { access_token, accounts } = await enroll('username');
      const authed = createSandboxClient({ baseUrl, fetch, token: access_token });
      const account = accounts[0] as Account;
      await authed.POST('/sandbox/accounts/{account_id}/close', {
        params: { path: { account_id: account.id } },
        body: { reason: 'insufficient_access' },
      });
      await assert.rejects(clientFor(access_token).accounts.balances(account.id), (error: ApiError) => {
        assert.ok(isAccountClosed(error));
        assert.equal(error.reason, 'insufficient_access');
        return true;
      });
    });
  });

  describe('disconnected enrollment (disconnected.<reason>)', () => {
    it('404 enrollment.disconnected with the reason, and the status header', async () => {
      const { access_token, accounts } = await enroll('disconnected.credentials_changed');
      const client = clientFor(access_token);
      const account = accounts[0] as Account;
      await assert.rejects(client.transactions.list(account.id), (error: ApiError) => {
        assert.ok(isEnrollmentDisconnected(error));
        assert.equal(disconnectReason(error), 'credentials_changed');
        assert.equal(error.enrollmentStatus?.status, 'disconnected');
        return true;
      });
      // The account itself is still served, from the last refresh, with the status.
      const stale = await client.accounts.get(account.id);
      assert.deepEqual(getResponseInfo(stale)?.enrollmentStatus, {
        status: 'disconnected',
        reason: 'credentials_changed',
        raw: 'disconnected.credentials_changed',
      });
      assert.equal(client.enrollmentStatus?.status, 'disconnected');
    });
  });

  describe('microdeposit verification (verify.microdeposit)', () => {
    it('pending, then available for Success and expired for Failure', async () => {
      const { access_token, accounts } = await enroll('verify.microdeposit');
      const client = clientFor(access_token);
      const success = accounts.find((a) => a.name === 'Success') as Account;
      const failure = accounts.find((a) => a.name === 'Failure') as Account;
      await assert.rejects(client.accounts.details(failure.id), (error: unknown) => isVerificationPending(error));
      // The microdeposit shows among Success's transactions, which completes its verification.
      await client.transactions.list(success.id);
      const details = await client.accounts.details(success.id).catch((error: unknown) => error);
      if (details instanceof ApiError) assert.ok(isVerificationPending(details), String(details));
      else assert.equal((details as { account_id: string }).account_id, success.id);

      const authed = createSandboxClient({ baseUrl, fetch, token: access_token });
      await authed.POST('/sandbox/clock/advance', { body: { days: 8 } });
      await assert.rejects(client.accounts.details(failure.id), (error: unknown) => isVerificationExpired(error));
      assert.equal((await client.accounts.details(success.id)).account_id, success.id);
    });
  });

  describe('large history (history.<n>)', () => {
    it('iterate walks the whole history in pages; sync reads it once', async () => {
      const { access_token, accounts } = await enroll('history.1200');
      const client = clientFor(access_token);
      const account = accounts[0] as Account;
      const pageSizes: number[] = [];
      for await (const page of client.transactions.pages(account.id, { pageSize: 250 })) pageSizes.push(page.length);
      const total = pageSizes.reduce((a, b) => a + b, 0);
      assert.ok(total >= 1000, `history has ${total} transactions`);
      assert.ok(pageSizes.slice(0, -1).every((size) => size === 250));
      const synced = await client.transactions.sync(account.id, { pageSize: 500 });
      assert.equal(synced.inserted.length, total);
    });
  });

  describe('applications', () => {
    it('an application key enrolls into its application, whose token reads it', async () => {
      const { data: created } = await sandbox.POST('/sandbox/applications', { body: {} });
      assert.ok(created);
      const owned = createSandboxClient({ baseUrl, fetch, applicationKey: created.key });
      const { data: enrollment } = await owned.POST('/sandbox/enrollments', { body: { username: 'username', password: 'password' } });
      assert.ok(enrollment);
      const authed = createSandboxClient({ baseUrl, fetch, token: enrollment.access_token });
      const { data: application } = await authed.GET('/sandbox/application');
      assert.equal(application?.id, created.application.id);
      assert.throws(() => createSandboxClient({ baseUrl, token: enrollment.access_token, applicationKey: created.key }), /not both/);
    });
  });

  describe('failures on purpose (timeout.first_transactions, rate_limited.<n>, institution.down)', () => {
    // The sandbox's failure users against the client's default retries: Retry-After is honoured (1 s here).
    const retrying = (token: string, retried: number[]) =>
      createClient({ token, baseUrl, fetch, retry: { onRetry: (info) => retried.push(info.response?.status ?? 0) } });

    it('a first transactions request that times out is retried and served', async () => {
      const { access_token, accounts } = await enroll('timeout.first_transactions');
      const retried: number[] = [];
      const page = await retrying(access_token, retried).transactions.list((accounts[0] as Account).id, { count: 5 });
      assert.equal(page.length, 5);
      assert.deepEqual(retried, [504]);
    });

    it('rate-limited requests are retried after Retry-After', async () => {
      const { access_token } = await enroll('rate_limited.1');
      const retried: number[] = [];
      assert.equal((await retrying(access_token, retried).accounts.list()).length, 3);
      assert.deepEqual(retried, [429]);
    });

    it('an institution that stays down ends in ApiError 502 bad_gateway', async () => {
      const { access_token, accounts } = await enroll('institution.down');
      const error = await clientFor(access_token)
        .accounts.balances((accounts[0] as Account).id)
        .catch((e: unknown) => e);
      assert.ok(error instanceof ApiError);
      assert.equal(error.status, 502);
      assert.equal(error.code, 'bad_gateway');
    });
  });

  describe('webhooks, signed by the server and verified by the client', () => {
    it('a fired event arrives signed with every live secret, and verifies', async () => {
      const { access_token } = await enroll('username');
      const authed = createSandboxClient({ baseUrl, fetch, token: access_token });
      const received: { body: Buffer; signature: string | undefined }[] = [];
      const receiver = createServer(async (req: IncomingMessage, res) => {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        received.push({ body: Buffer.concat(chunks), signature: req.headers['service-signature']?.toString() });
        res.writeHead(204).end();
      });
      receiver.listen(0, '127.0.0.1');
      await once(receiver, 'listening');
      try {
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
        const settings = await authed.PUT('/sandbox/webhook', { body: { url } });
        assert.equal(settings.response.status, 200);
        // Rotation: the current secret stays live for an hour, a new one is created at once.
        const rotated = await authed.POST('/sandbox/webhook/secrets', {
          body: { expire_current_at: new Date(Date.now() + 3_600_000).toISOString() },
        });
        const secrets = rotated.data?.secrets.map((s) => s.secret) ?? [];
        assert.equal(secrets.length, 2);

        const fired = await authed.POST('/sandbox/events', { body: { type: 'webhook.test' } });
        assert.equal(fired.response.status, 202);
        // However long a loaded machine takes to deliver it.
        while (received.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
        const delivery = received[0];
        assert.ok(delivery, 'the event was delivered');
        assert.equal(delivery.signature?.match(/v1=/g)?.length, 2);

        for (const secret of secrets) {
          const event: WebhookEvent = await verifyWebhook(delivery.body, delivery.signature, secret);
          assert.equal(event.type, 'webhook.test');
          assert.equal(event.id, fired.data?.id);
        }
        await assert.rejects(verifyWebhook(delivery.body, delivery.signature, 'whsec_wrong'));
      } finally {
        receiver.close();
        await authed.PUT('/sandbox/webhook', { body: { url: null } });
      }
    });
  });
});
