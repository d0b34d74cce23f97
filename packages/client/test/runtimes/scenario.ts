// One scenario, bundled with esbuild and run in every runtime the client supports (runtimes.test.ts): what an
// integrator does first, and every failure the client turns into its own error class, against the sandbox server.
// It imports nothing but the client it is given, so that the same code runs in Node.js, Bun, Deno, workerd and Chromium.
import type * as Client from '../../src/index.ts';

export type ScenarioInput = {
  baseUrl: string;
  /** A path prefix under which the server never answers. */
  holdUrl: string;
  /** An address where nothing listens. */
  closedUrl: string;
  tokens: { healthy: string; rateLimited: string; rateLimitedPayment: string; timeout: string };
  /** The checking account of `rateLimitedPayment`'s enrollment, and of `timeout`'s. */
  accounts: { payment: string; timeout: string };
  webhook: { body: string; header: string; secret: string; now: number };
  /** A result of the enrollment widget as its onSuccess hands it, the nonce it was opened with, and its application's key. */
  enrollment: { result: Client.SignedEnrollmentResult; nonce: string; publicKey: string };
};

/** What an error says, without the fields it does not have (the result crosses JSON, which drops them). */
const failure = (error: unknown) => {
  const { name, status, code, reason } = error as { name: string; status?: number; code?: string; reason?: string };
  return { name, ...(status === undefined ? {} : { status }), ...(code === undefined ? {} : { code }), ...(reason === undefined ? {} : { reason }) };
};

/** The outcome of each step, as plain data the test compares with what every runtime must give. */
export async function scenario(client: typeof Client, input: ScenarioInput) {
  const { baseUrl } = input;
  const lines: string[] = [];
  const keep = (message: string, details?: unknown) => void lines.push(`${message} ${JSON.stringify(details)}`);
  const logger = { error: keep, warn: keep, info: keep, debug: keep };

  const healthy = client.createClient({ token: input.tokens.healthy, baseUrl, logger, logLevel: 'debug' });
  const accounts = (await healthy.accounts.list()).map((account) => account.type);
  const notFound = await healthy.accounts.get('acc_missing').then(
    () => 'resolved',
    (error: unknown) => ({ ...failure(error), isApiError: error instanceof client.ApiError, isNotFound: error instanceof client.NotFoundError }),
  );

  // rate_limited.2: the first call, sent once, meets the first 429; the second meets the other and is retried.
  const limited = client.createClient({ token: input.tokens.rateLimited, baseUrl });
  const rateLimitedOnce = await limited.accounts.list({ maxRetries: 0 }).then(
    () => 'resolved',
    (error: unknown) => ({ ...failure(error), isRateLimit: error instanceof client.RateLimitError, retryAfter: (error as Client.ApiError).retryAfter }),
  );
  const retriedThrough = (await limited.accounts.list()).length > 0;

  // rate_limited.1: the payment's first attempt meets the 429 and is retried with the same Idempotency-Key.
  const payer = client.createClient({ token: input.tokens.rateLimitedPayment, baseUrl });
  const payee = { scheme: 'zelle', address: 'runtime@example.com', name: 'Runtime', type: 'person' } as const;
  const paid = await payer.payments.create(input.accounts.payment, { amount: '1.00', memo: 'Runtime', payee }, { checkAccount: false });
  const payments = await payer.payments.list(input.accounts.payment);
  const payment = {
    kind: paid.kind,
    status: paid.kind === 'payment' ? paid.status : undefined,
    keyed: /^[0-9a-f-]{36}$/.test(paid.idempotencyKey),
    made: payments.filter((made) => made.memo === 'Runtime').length,
  };

  // timeout.first_transactions: 504 once, thrown as sent with no retry.
  const slow = client.createClient({ token: input.tokens.timeout, baseUrl });
  const gatewayTimeout = await slow.transactions.list(input.accounts.timeout, { count: 1 }, { maxRetries: 0 }).then(
    () => 'resolved',
    (error: unknown) => ({ ...failure(error), isGatewayTimeout: error instanceof client.GatewayTimeoutError }),
  );

  const held = client.createClient({ token: input.tokens.healthy, baseUrl: input.holdUrl, maxRetries: 0 });
  const timedOut = await held.accounts.list({ timeout: 300 }).then(
    () => 'resolved',
    (error: unknown) => ({
      ...failure(error),
      isTimeout: error instanceof client.ConnectionTimeoutError,
      isConnection: error instanceof client.ConnectionError,
    }),
  );
  const refused = await client
    .createClient({ token: input.tokens.healthy, baseUrl: input.closedUrl, maxRetries: 0 })
    .accounts.list()
    .then(
      () => 'resolved',
      (error: unknown) => ({ name: (error as Error).name, isConnection: error instanceof client.ConnectionError }),
    );

  // The level from AGGREGATION_LOG, where the runtime has an environment: no logLevel given.
  const fromEnvironment: string[] = [];
  const envLogger = { ...logger, info: (message: string) => void fromEnvironment.push(message) };
  await client.createClient({ token: input.tokens.healthy, baseUrl, logger: envLogger }).institutions.list();

  const { body, header, secret, now } = input.webhook;
  const event = await client.verifyWebhook(body, header, secret, { now });
  const forged = await client.verifyWebhook(body.replace('"payload":{}', '"payload":{"forged":true}'), header, secret, { now }).then(
    () => 'accepted',
    (error: unknown) => (error as Client.WebhookVerificationError).reason,
  );

  // Ed25519 in Web Crypto, as a backend checks what the widget handed its page.
  const signed = input.enrollment;
  const enrollmentSignature = {
    valid: await client.verifyEnrollmentSignature(signed.result, { publicKey: signed.publicKey, nonce: signed.nonce }),
    forged: await client.verifyEnrollmentSignature(
      { ...signed.result, accessToken: 'test_token_forged' },
      { publicKey: signed.publicKey, nonce: signed.nonce },
    ),
  };

  const logged = lines.join('\n');
  const tokens = Object.values(input.tokens);
  return {
    accounts,
    notFound,
    rateLimitedOnce,
    retriedThrough,
    payment,
    gatewayTimeout,
    timedOut,
    refused,
    logLines: lines.length,
    tokenLogged: tokens.some((token) => logged.includes(token) || logged.includes(btoa(`${token}:`))),
    environmentLogLines: fromEnvironment.length,
    event: event.type,
    forged,
    enrollmentSignature,
  };
}

export type ScenarioResult = Awaited<ReturnType<typeof scenario>>;
