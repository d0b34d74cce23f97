// A scripted journey through the typed client that calls every operation of one API version and of the sandbox
// control API, success and documented error answers alike, the way an integrator's code would. It only sends
// requests the description allows, so that anything a validating proxy reports is the server's doing.
import type { AggregationClient, createSandboxClient, Version } from '@aggregation/client';
import { CURRENT_VERSION, VERSIONS } from '@aggregation/openapi/versions';
import { Steps } from './steps.ts';

/** The oldest version: an application made on it can be upgraded to the current one and rolled back. */
const OLDEST_VERSION = VERSIONS[VERSIONS.length - 1]!;

export type JourneyContext<V extends Version> = {
  version: V;
  /** The typed client of this version with a token. */
  api: (token: string) => AggregationClient<V>;
  /** The sandbox control API client, authenticated when a token (or else an application key) is given. */
  sandbox: (token?: string, applicationKey?: string) => SandboxClient;
  /** The run's own application: every sandbox user of the journey is enrolled in it. */
  applicationKey: string;
  /** Where webhook events should be delivered, when something here listens; otherwise the setting is kept. */
  webhookUrl?: string;
};

/** The one raw call of the journey, typed the same in both versions. */
type RawPost = {
  POST(
    path: '/accounts/{account_id}/payments',
    init: { params: { path: { account_id: string } }; body: unknown },
  ): Promise<{ response: Response; error?: { error?: { code?: string } } }>;
};

type SandboxClient = ReturnType<typeof createSandboxClient>;

type Enrolled = { token: string; accounts: { id: string; name: string; subtype: string; status: string }[] };

const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' } as const;
export const eventTypes = ['enrollment.disconnected', 'transactions.processed', 'account.number_verification.processed', 'webhook.test'] as const;

/** Unwraps an openapi-fetch answer of the sandbox client, throwing on an error status. */
async function sandboxCall<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>, status: number): Promise<T> {
  const { data, error, response } = await pending;
  if (response.status !== status) throw new Error(`answered ${response.status}, expected ${status}: ${JSON.stringify(error ?? data)}`);
  return data as T;
}

async function enroll(steps: Steps, sandbox: SandboxClient, username: string): Promise<Enrolled | undefined> {
  return steps.ok(`createSandboxEnrollment ${username}`, async () => {
    const data = await sandboxCall(sandbox.POST('/sandbox/enrollments', { body: { username, password: 'password' } }), 201);
    return { token: data.access_token, accounts: data.accounts as Enrolled['accounts'] };
  });
}

/**
 * The enrollment widget's steps, as its page drives them (no token, the application by its id): an enrollment of a
 * user whose sign-in asks for a one-time code, choosing one account; then the approval of a challenge of `accountId`.
 */
async function widgetJourney<V extends Version>(
  steps: Steps,
  ctx: JourneyContext<V>,
  applicationId: string,
  client: AggregationClient<V>,
  accountId: string,
): Promise<void> {
  const widget = ctx.sandbox();
  const application_id = applicationId;
  const session = await steps.ok('createConnectSession', () =>
    sandboxCall(widget.POST('/sandbox/connect/sessions', { body: { application_id, select_account: 'single', nonce: 'journey' } }), 201),
  );
  if (session) {
    const path = { session_id: session.id };
    const credentials = { application_id, institution_id: 'chase', username: 'mfa.device', password: 'password' };
    await steps.ok('submitConnectCredentials', () =>
      sandboxCall(widget.POST('/sandbox/connect/sessions/{session_id}/credentials', { params: { path }, body: credentials }), 200),
    );
    const chooser = await steps.ok('submitConnectMfa', () =>
      sandboxCall(widget.POST('/sandbox/connect/sessions/{session_id}/mfa', { params: { path }, body: { application_id, code: '1234' } }), 200),
    );
    const chosen = chooser?.accounts?.[0]?.id ?? 'acc_unknown';
    const done = await steps.ok('selectConnectAccounts', () =>
      sandboxCall(
        widget.POST('/sandbox/connect/sessions/{session_id}/accounts', { params: { path }, body: { application_id, account_ids: [chosen] } }),
        200,
      ),
    );
    steps.expect('selectConnectAccounts', done?.step === 'done', `the session is at ${done?.step}`);
  }
  const challenged = await steps.ok('createPayment mfa for the widget', () =>
    client.payments.create(accountId, { amount: '6', memo: 'mfa', payee: { scheme: 'zelle', address: payee.address } }, { checkAccount: false }),
  );
  if (challenged?.kind !== 'mfa') return;
  const approving = await steps.ok('createConnectSession approving', () =>
    sandboxCall(widget.POST('/sandbox/connect/sessions', { body: { application_id, connect_token: challenged.connectToken } }), 201),
  );
  if (approving) {
    await steps.ok('approveConnectSession', () =>
      sandboxCall(
        widget.POST('/sandbox/connect/sessions/{session_id}/approve', { params: { path: { session_id: approving.id } }, body: { application_id } }),
        200,
      ),
    );
  }
}

export async function runJourney<V extends Version>(ctx: JourneyContext<V>): Promise<Steps> {
  const steps = new Steps();
  const v = ctx.version;
  // Enrollments made with the run's application key belong to it, not to the server's default application.
  const anonymous = ctx.sandbox(undefined, ctx.applicationKey);

  await steps.ok(`createSandboxEnrollment with a wrong password`, async () => {
    const { response } = await anonymous.POST('/sandbox/enrollments', { body: { username: 'username', password: 'wrong' } });
    if (response.status !== 401) throw new Error(`answered ${response.status}, expected 401`);
  });

  const main = await enroll(steps, anonymous, 'username');
  if (!main) return steps;
  const client = ctx.api(main.token);
  const [checking, savings] = main.accounts;
  if (!checking || !savings) {
    steps.expect(`${v} enrollment`, false, 'the sandbox user `username` has no checking and savings accounts');
    return steps;
  }

  const entrypoint = await steps.ok(`${v} getEntrypoint`, () => client.entrypoint());
  steps.expect(`${v} getEntrypoint`, entrypoint?.links.accounts.endsWith('/accounts') === true, `links ${JSON.stringify(entrypoint?.links)}`);
  // The entrypoint needs no token: an unknown one is not even looked at.
  await steps.ok(`${v} getEntrypoint with an unknown token`, () => ctx.api('test_token_unknown0000000000').entrypoint());
  await steps.ok(`${v} listInstitutions`, () => client.institutions.list());
  const accounts = await steps.ok(`${v} listAccounts`, () => client.accounts.list());
  steps.expect(`${v} listAccounts`, accounts?.length === main.accounts.length, `${accounts?.length} accounts, enrolled ${main.accounts.length}`);
  const account = await steps.ok(`${v} getAccount`, () => client.accounts.get(checking.id));
  await steps.ok(`${v} getAccountDetails`, () => client.accounts.details(checking.id));
  await steps.ok(`${v} getAccountBalances`, () => client.accounts.balances(checking.id));

  // Every page of the history, then one transaction read on its own and a date window.
  const paged: string[] = [];
  await steps.ok(`${v} listTransactions, paged`, async () => {
    for await (const page of client.transactions.pages(checking.id, { pageSize: 10 })) paged.push(...page.map((t) => t.id));
  });
  const all = await steps.ok(`${v} listTransactions, unpaged`, () => client.transactions.list(checking.id, {}));
  steps.expect(`${v} paging`, JSON.stringify(paged) === JSON.stringify(all?.map((t) => t.id)), 'pages do not add up to the unpaged list');
  const first = all?.[0];
  if (first) {
    await steps.ok(`${v} getTransaction`, () => client.transactions.get(checking.id, first.id));
    await steps.ok(`${v} listTransactions in a date window`, () =>
      client.transactions.list(checking.id, { start_date: first.date, end_date: first.date, count: 5 }),
    );
  }
  await steps.fails(`${v} getTransaction unknown`, () => client.transactions.get(checking.id, 'txn_unknown0000000000'), 404);

  // Payees and payments, with the MFA path the sandbox triggers by the name or memo `mfa`.
  const created = await steps.ok(`${v} createPayee`, () => client.payees.create(checking.id, payee));
  steps.expect(`${v} createPayee`, created?.kind === 'payee', `answered ${created?.kind}`);
  const challenged = await steps.ok(`${v} createPayee mfa`, () => client.payees.create(checking.id, { ...payee, name: 'mfa' }));
  steps.expect(`${v} createPayee mfa`, challenged?.kind === 'mfa', `answered ${challenged?.kind}`);
  await steps.ok(`${v} listPaymentSchemes`, () => client.payments.schemes(checking.id));
  const paid = account
    ? await steps.ok(`${v} createPayment`, () => client.payments.create(account, { amount: '12.50', memo: 'Dinner', payee }))
    : undefined;
  steps.expect(`${v} createPayment`, paid?.kind === 'payment' && paid.status === 202, `answered ${paid?.kind}`);
  if (paid) {
    await steps.fails(
      `${v} createPayment with a reused Idempotency-Key`,
      () =>
        client.payments.create(checking.id, { amount: '99.00', memo: 'Dinner', payee }, { idempotencyKey: paid.idempotencyKey, checkAccount: false }),
      422,
      'idempotency_key_reused',
    );
  }
  const mfaPayment = { amount: '5', memo: 'mfa', payee: { scheme: 'zelle', address: payee.address } } as const;
  const mfa = await steps.ok(`${v} createPayment mfa`, () => client.payments.create(checking.id, mfaPayment, { checkAccount: false }));
  steps.expect(`${v} createPayment mfa`, mfa?.kind === 'mfa', `answered ${mfa?.kind}`);
  // The challenge, approved as its user would (before the clock moves on: it lives 30 minutes of it): the same
  // request with the same key then pays, once.
  if (mfa?.kind === 'mfa') {
    const approver = ctx.sandbox(main.token);
    const path = { connect_token: mfa.connectToken };
    await steps.ok('getSandboxConnectToken', () => sandboxCall(approver.GET('/sandbox/connect_tokens/{connect_token}', { params: { path } }), 200));
    await steps.ok('approveSandboxConnectToken', () =>
      sandboxCall(approver.POST('/sandbox/connect_tokens/{connect_token}/approve', { params: { path } }), 200),
    );
    const completed = await steps.ok(`${v} createPayment approved`, () =>
      client.payments.create(checking.id, mfaPayment, { idempotencyKey: mfa.idempotencyKey, checkAccount: false }),
    );
    steps.expect(`${v} createPayment approved`, completed?.kind === 'payment', `answered ${completed?.kind}`);
  }
  const payments = await steps.ok(`${v} listPayments`, () => client.payments.list(checking.id));
  const payment = payments?.[0];
  if (payment) await steps.ok(`${v} getPayment`, () => client.payments.get(checking.id, payment.id));
  await steps.fails(`${v} getPayment unknown`, () => client.payments.get(checking.id, 'pay_unknown0000000000'), 404);
  // Sent raw: the client itself refuses an account whose links have no `payments`.
  await steps.ok(`${v} createPayment from a savings account`, async () => {
    const { response, error } = await (client.raw as unknown as RawPost).POST('/accounts/{account_id}/payments', {
      params: { path: { account_id: savings.id } },
      body: { amount: '1.00', memo: 'x', payee },
    });
    if (response.status !== 422 || error?.error?.code !== 'payments.not_supported') {
      throw new Error(`answered ${response.status} ${error?.error?.code}, expected 422 payments.not_supported`);
    }
  });
  await steps.fails(`${v} listAccounts with an unknown token`, () => ctx.api('test_token_unknown0000000000').accounts.list(), 403, 'forbidden');

  // The sandbox control API of this enrollment: clock, refresh, webhook settings, events, deliveries.
  const sandbox = ctx.sandbox(main.token);
  await steps.ok('getSandboxClock', () => sandboxCall(sandbox.GET('/sandbox/clock'), 200));
  await steps.ok('advanceSandboxClock', () => sandboxCall(sandbox.POST('/sandbox/clock/advance', { body: { days: 1 } }), 200));
  await steps.ok('refreshSandboxEnrollment', () => sandboxCall(sandbox.POST('/sandbox/enrollment/refresh'), 200));
  const settings = await steps.ok('getSandboxWebhook', () => sandboxCall(sandbox.GET('/sandbox/webhook'), 200));
  // Without a receiver here, the URL is set to what it was: the server's webhook settings stay as they are.
  const url = ctx.webhookUrl ?? settings?.url ?? null;
  await steps.ok('setSandboxWebhook', () => sandboxCall(sandbox.PUT('/sandbox/webhook', { body: { url } }), 200));
  const expireAt = new Date(Date.now() + 3_600_000).toISOString();
  await steps.ok('rotateSandboxWebhookSecret', () =>
    sandboxCall(sandbox.POST('/sandbox/webhook/secrets', { body: { expire_current_at: expireAt } }), 201),
  );
  for (const type of eventTypes) {
    await steps.ok(`fireSandboxEvent ${type}`, () => sandboxCall(sandbox.POST('/sandbox/events', { body: { type } }), 202));
  }
  const deliveries = await steps.ok('listSandboxWebhookDeliveries', () => sandboxCall(sandbox.GET('/sandbox/webhook/deliveries'), 200));
  // With a URL set the latest delivery is sent again; without one, the documented refusal of an unknown delivery.
  const [latest] = url !== null ? (deliveries ?? []) : [];
  await steps.ok('redeliverSandboxWebhookDelivery', () =>
    sandboxCall(
      sandbox.POST('/sandbox/webhook/deliveries/{delivery_id}/redeliver', { params: { path: { delivery_id: latest?.id ?? 'dlv_unknown' } } }),
      latest ? 202 : 404,
    ),
  );
  // The request log streams until the reader leaves; a timeout ends this one.
  await steps.ok('streamSandboxLogs', () =>
    sandboxCall(sandbox.GET('/sandbox/logs', { params: { query: { timeout_seconds: 1 } }, parseAs: 'text' }), 200),
  );

  // An application of its own on the older version: an enrollment made with its key, its version upgraded and rolled back.
  const ownApplication = await steps.ok('getSandboxApplication', () => sandboxCall(sandbox.GET('/sandbox/application'), 200));
  if (ownApplication) await widgetJourney(steps, ctx, ownApplication.id, client, checking.id);
  const application = await steps.ok('createSandboxApplication', () =>
    sandboxCall(ctx.sandbox().POST('/sandbox/applications', { body: { default_version: OLDEST_VERSION } }), 201),
  );
  const owned = application && (await enroll(steps, ctx.sandbox(undefined, application.key), 'username'));
  if (owned) {
    const ownSandbox = ctx.sandbox(owned.token);
    await steps.ok('upgradeSandboxApplicationVersion', () =>
      sandboxCall(ownSandbox.POST('/sandbox/application/version', { body: { version: CURRENT_VERSION } }), 200),
    );
    await steps.ok('rollBackSandboxApplicationVersion', () => sandboxCall(ownSandbox.POST('/sandbox/application/version/rollback'), 200));
  }

  // A closed account answers 410 for itself and its sub-resources.
  await steps.ok('closeSandboxAccount', () =>
    sandboxCall(sandbox.POST('/sandbox/accounts/{account_id}/close', { params: { path: { account_id: savings.id } }, body: {} }), 200),
  );
  await steps.fails(`${v} getAccount closed`, () => client.accounts.get(savings.id), 410, 'account.closed');
  await steps.fails(`${v} getAccountBalances closed`, () => client.accounts.balances(savings.id), 410, 'account.closed');

  // Microdeposit verification: details wait for the Success account's transactions to be fetched.
  const verify = await enroll(steps, anonymous, 'verify.microdeposit');
  const success = verify?.accounts.find((a) => a.name === 'Success');
  const failure = verify?.accounts.find((a) => a.name === 'Failure');
  if (verify && success && failure) {
    const verifying = ctx.api(verify.token);
    await steps.fails(`${v} getAccountDetails pending`, () => verifying.accounts.details(success.id), 404, 'account_number_verification_pending');
    await steps.ok(`${v} listTransactions of Success`, () => verifying.transactions.list(success.id, {}));
    await steps.ok(`${v} getAccountDetails verified`, () => verifying.accounts.details(success.id));
    const verifySandbox = ctx.sandbox(verify.token);
    await steps.ok('advanceSandboxClock 8 days', () => sandboxCall(verifySandbox.POST('/sandbox/clock/advance', { body: { days: 8 } }), 200));
    await steps.fails(`${v} getAccountDetails expired`, () => verifying.accounts.details(failure.id), 404, 'account_number_verification_expired');
  } else {
    steps.expect(`${v} verify.microdeposit`, false, 'no Success and Failure accounts');
  }

  // The sandbox user `closed` has one closed account from the start.
  const closed = await enroll(steps, anonymous, 'closed');
  const closedAccount = closed?.accounts.find((a) => a.status === 'closed');
  if (closed && closedAccount) {
    await steps.fails(`${v} getAccount of user closed`, () => ctx.api(closed.token).accounts.get(closedAccount.id), 410, 'account.closed');
  }

  // A disconnected enrollment answers data requests with 404 enrollment.disconnected.
  await steps.ok('disconnectSandboxEnrollment', () =>
    sandboxCall(sandbox.POST('/sandbox/enrollment/disconnect', { body: { reason: 'credentials_changed' } }), 200),
  );
  await steps.fails(`${v} listTransactions disconnected`, () => client.transactions.list(checking.id, {}), 404, 'enrollment.disconnected');
  await steps.ok('reconnectSandboxEnrollment', () => sandboxCall(sandbox.POST('/sandbox/enrollment/reconnect'), 200));
  await steps.ok(`${v} listTransactions reconnected`, () => client.transactions.list(checking.id, { count: 1 }));

  // The documented failures, provoked on purpose by their sandbox users.
  const slow = await enroll(steps, anonymous, 'timeout.first_transactions');
  const slowAccount = slow?.accounts[0];
  if (slow && slowAccount) {
    const slowClient = ctx.api(slow.token);
    await steps.fails(`${v} listTransactions timing out`, () => slowClient.transactions.list(slowAccount.id, { count: 5 }), 504, 'gateway_timeout');
    await steps.ok(`${v} listTransactions retried`, () => slowClient.transactions.list(slowAccount.id, { count: 5 }));
  }
  const down = await enroll(steps, anonymous, 'institution.down');
  const downAccount = down?.accounts[0];
  if (down && downAccount) {
    await steps.fails(`${v} getAccountBalances institution down`, () => ctx.api(down.token).accounts.balances(downAccount.id), 502, 'bad_gateway');
  }
  const limited = await enroll(steps, anonymous, 'rate_limited.1');
  if (limited) {
    const limitedClient = ctx.api(limited.token);
    await steps.fails(`${v} listAccounts rate limited`, () => limitedClient.accounts.list(), 429, 'rate_limited');
    await steps.ok(`${v} listAccounts after the limit`, () => limitedClient.accounts.list());
  }

  // Removing access, last: one account, then the whole enrollment (whose token then stops working).
  const removing = await enroll(steps, anonymous, 'username');
  if (removing?.accounts[0]) {
    const remover = ctx.api(removing.token);
    const removed = removing.accounts[0];
    await steps.ok(`${v} deleteAccount`, () => remover.accounts.delete(removed.id));
    await steps.fails(`${v} getAccount removed`, () => remover.accounts.get(removed.id), 404);
    await steps.ok(`${v} deleteAccounts`, () => remover.accounts.deleteAll());
    await steps.fails(`${v} listAccounts after deleteAccounts`, () => remover.accounts.list(), 403);
  }
  return steps;
}
