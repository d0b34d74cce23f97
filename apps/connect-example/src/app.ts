// The example's backend: serves the page, takes the widget's result (verifying its signatures before it trusts the
// token), and calls the API for the page with the user's token, which never goes back to the browser.
import { fileURLToPath } from 'node:url';
import { ApiError, createClient, isEnrollmentDisconnected } from '@aggregation/client';
import { serveStatic } from '@hono/node-server/serve-static';
import { type Context, Hono } from 'hono';
import { type PendingPayment, type Session, Sessions } from './sessions.ts';
import { type EnrollmentProof, type SignatureVerifier, verifiedEnrollment } from './verify.ts';

export const publicDir = fileURLToPath(new URL('../public', import.meta.url));

export interface ExampleOptions {
  /** Where the sandbox answers: the API the backend calls, and the widget the page loads. */
  sandboxUrl: string;
  /** The application the widget enrolls for (`app_default` in a local sandbox). */
  applicationId: string;
  /** Checks the widget's signatures with the application's public key. */
  verifier: SignatureVerifier;
}

type ErrorBody = { error: { code: string; message: string } };

const fail = (c: Context, status: 400 | 401 | 404 | 409 | 422 | 502, code: string, message: string) =>
  c.json<ErrorBody>({ error: { code, message } }, status);

/** A JSON body of string fields only; anything else is refused. */
async function stringFields(c: Context, names: readonly string[]): Promise<Record<string, string> | undefined> {
  const body = (await c.req.json().catch(() => undefined)) as unknown;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const fields: Record<string, string> = Object.create(null);
  for (const name of names) {
    const value = (body as Record<string, unknown>)[name];
    if (typeof value !== 'string' || value.length === 0 || value.length > 200) return undefined;
    fields[name] = value;
  }
  return fields;
}

/** `value.a.b...` when every step is an object, else undefined. */
function at(value: unknown, ...path: string[]): unknown {
  let current = value;
  for (const name of path) {
    if (typeof current !== 'object' || current === null || !Object.hasOwn(current, name)) return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current;
}

const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 500;

/** The widget's onSuccess payload, checked for shape: strings of sane length, a token or null, signature objects. */
async function proofOf(c: Context): Promise<EnrollmentProof | undefined> {
  const body: unknown = await c.req.json().catch(() => undefined);
  const accessToken = at(body, 'accessToken');
  const [userId, enrollmentId, institutionId, institutionName] = [
    at(body, 'user', 'id'),
    at(body, 'enrollment', 'id'),
    at(body, 'enrollment', 'institution', 'id'),
    at(body, 'enrollment', 'institution', 'name'),
  ];
  if ((accessToken !== null && !text(accessToken)) || !text(userId) || !text(enrollmentId) || !text(institutionId) || !text(institutionName))
    return undefined;
  const signatures = at(body, 'signatures');
  if (!Array.isArray(signatures) || signatures.length === 0 || signatures.length > 10) return undefined;
  const parsed = signatures.map((entry: unknown) => ({
    key_id: at(entry, 'key_id'),
    algorithm: at(entry, 'algorithm'),
    signature: at(entry, 'signature'),
  }));
  if (!parsed.every((entry) => text(entry.key_id) && text(entry.algorithm) && text(entry.signature))) return undefined;
  return {
    accessToken,
    user: { id: userId },
    enrollment: { id: enrollmentId, institution: { id: institutionId, name: institutionName } },
    signatures: parsed as EnrollmentProof['signatures'],
  };
}

export function exampleApp(options: ExampleOptions): Hono {
  const sessions = new Sessions();
  const app = new Hono();
  const clientOf = (session: Session) => createClient({ token: session.enrollment!.accessToken, baseUrl: options.sandboxUrl });

  // The page may load the widget's script and frame from the sandbox, and nothing else from elsewhere.
  app.use('*', async (c, next) => {
    await next();
    const sandbox = new URL(options.sandboxUrl).origin;
    c.header(
      'Content-Security-Policy',
      `default-src 'self'; script-src 'self' ${sandbox}; frame-src ${sandbox}; connect-src 'self' ${sandbox}; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
    );
    c.header('X-Content-Type-Options', 'nosniff');
  });

  app.get('/api/session', (c) => {
    const session = sessions.of(c);
    const { enrollment } = session;
    return c.json({
      sandboxUrl: options.sandboxUrl,
      applicationId: options.applicationId,
      nonce: session.nonce,
      enrollment: enrollment ? { id: enrollment.enrollmentId, institution: enrollment.institution } : null,
    });
  });

  // The widget's onSuccess, after an enrollment or a reconnect: trusted only once its signatures check out.
  app.post('/api/enrollments', async (c) => {
    const session = sessions.of(c);
    const proof = await proofOf(c);
    if (!proof) return fail(c, 400, 'invalid_request', 'Send the object onSuccess received.');
    const enrollment = await verifiedEnrollment(options.verifier, proof, session.nonce, session.enrollment);
    if (!enrollment)
      return fail(c, 401, 'signature_invalid', 'The signatures do not match: this result did not come from the widget for this session.');
    if (session.enrollment && session.enrollment.enrollmentId !== enrollment.enrollmentId) session.pending.clear();
    session.enrollment = enrollment;
    return c.json({ enrollment: { id: enrollment.enrollmentId, institution: enrollment.institution } }, 201);
  });

  // Every route below needs an enrollment; the API's errors pass through with their status and code.
  app.use('/api/accounts/*', async (c, next) => (sessions.of(c).enrollment ? next() : fail(c, 409, 'not_enrolled', 'Connect a bank first.')));
  app.use('/api/accounts', async (c, next) => (sessions.of(c).enrollment ? next() : fail(c, 409, 'not_enrolled', 'Connect a bank first.')));
  app.use('/api/payments/*', async (c, next) => (sessions.of(c).enrollment ? next() : fail(c, 409, 'not_enrolled', 'Connect a bank first.')));
  app.onError((error, c) => {
    if (error instanceof ApiError) {
      const { status, code, message } = error;
      return fail(c, isEnrollmentDisconnected(error) ? 409 : status === 404 ? 404 : status === 422 ? 422 : 502, code, message);
    }
    throw error;
  });

  app.get('/api/accounts', async (c) => {
    const accounts = await clientOf(sessions.of(c)).accounts.list();
    return c.json(
      accounts.map((account) => ({
        id: account.id,
        name: account.name,
        subtype: account.subtype,
        lastFour: account.last_four,
        canPay: Boolean(account.links.payments),
      })),
    );
  });

  app.get('/api/accounts/:id/transactions', async (c) => {
    const transactions = await clientOf(sessions.of(c)).transactions.list(c.req.param('id'), { count: 20 });
    return c.json(transactions.map(({ id, date, description, amount, status }) => ({ id, date, description, amount, status })));
  });

  /** Sends a payment (again, with its key, once approved): 'sent' with the payment, or 'mfa' with the challenge. */
  async function send(c: Context, session: Session, id: string, pending: Omit<PendingPayment, 'connectToken'>) {
    const result = await clientOf(session).payments.create(pending.accountId, pending.payment, { idempotencyKey: pending.idempotencyKey });
    if (result.kind === 'mfa') {
      session.pending.set(id, { ...pending, connectToken: result.connectToken });
      return c.json({ status: 'mfa', id, connectToken: result.connectToken });
    }
    session.pending.delete(id);
    return c.json({ status: 'sent', payment: { id: result.payment.id, amount: result.payment.amount, reference: result.payment.reference } });
  }

  app.post('/api/payments', async (c) => {
    const session = sessions.of(c);
    const fields = await stringFields(c, ['accountId', 'amount', 'memo', 'payeeName', 'payeeAddress']);
    if (!fields) return fail(c, 400, 'invalid_request', 'accountId, amount, memo, payeeName and payeeAddress are required strings.');
    const id = crypto.randomUUID();
    return send(c, session, id, {
      accountId: fields.accountId!,
      payment: {
        amount: fields.amount!,
        memo: fields.memo!,
        payee: { scheme: 'zelle', address: fields.payeeAddress!, name: fields.payeeName!, type: 'person' },
      },
      // One key for this payment, whatever happens: the request after the approval is the same request.
      idempotencyKey: crypto.randomUUID(),
    });
  });

  // After the widget's approval: the same request, with the same Idempotency-Key, makes the payment once.
  app.post('/api/payments/:id/confirm', async (c) => {
    const session = sessions.of(c);
    const pending = session.pending.get(c.req.param('id'));
    if (!pending) return fail(c, 404, 'not_found', 'No payment waits for approval under this id.');
    return send(c, session, c.req.param('id'), pending);
  });

  app.get('/', serveStatic({ path: 'index.html', root: publicDir }));
  app.get('/*', serveStatic({ root: publicDir }));
  return app;
}
