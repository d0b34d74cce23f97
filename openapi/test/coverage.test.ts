// The description covers the whole service: the 13 operations of the seed's endpoint table, the institutions
// list, the entrypoint, the four webhook events, their headers, security and the documented errors, in both versions.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ContractValidator, deref, type JsonObject, loadBundle, type OpenApiDocument, operationsOf, versions, webhooksOf } from '../src/contract.ts';

// Section 4 of the service description, numbered as there.
const seedOperations = [
  { n: 1, method: 'get', path: '/accounts', operationId: 'listAccounts' },
  { n: 2, method: 'get', path: '/accounts/{account_id}', operationId: 'getAccount' },
  { n: 3, method: 'delete', path: '/accounts/{account_id}', operationId: 'deleteAccount' },
  { n: 4, method: 'delete', path: '/accounts', operationId: 'deleteAccounts' },
  { n: 5, method: 'get', path: '/accounts/{account_id}/details', operationId: 'getAccountDetails' },
  { n: 6, method: 'get', path: '/accounts/{account_id}/balances', operationId: 'getAccountBalances' },
  { n: 7, method: 'get', path: '/accounts/{account_id}/transactions', operationId: 'listTransactions' },
  { n: 8, method: 'get', path: '/accounts/{account_id}/transactions/{transaction_id}', operationId: 'getTransaction' },
  { n: 9, method: 'post', path: '/accounts/{account_id}/payees', operationId: 'createPayee' },
  { n: 10, method: 'options', path: '/accounts/{account_id}/payments', operationId: 'listPaymentSchemes' },
  { n: 11, method: 'post', path: '/accounts/{account_id}/payments', operationId: 'createPayment' },
  { n: 12, method: 'get', path: '/accounts/{account_id}/payments', operationId: 'listPayments' },
  { n: 13, method: 'get', path: '/accounts/{account_id}/payments/{payment_id}', operationId: 'getPayment' },
] as const;
const withEnrollmentStatus = new Set([2, 5, 6, 7, 8]);
const seedEvents = ['enrollment.disconnected', 'transactions.processed', 'account.number_verification.processed', 'webhook.test'];

const operation = (doc: OpenApiDocument, method: string, path: string) => doc.paths?.[path]?.[method] as JsonObject | undefined;

/** The parameters of one operation, those of its path item included. */
const parametersOf = (doc: OpenApiDocument, method: string, path: string) =>
  operationsOf(doc).find((found) => found.method === method && found.path === path)!.parameters;

const responseOf = (doc: OpenApiDocument, op: JsonObject, status: string) => deref(doc, (op.responses as Record<string, unknown>)[status]);

/** The `code` values of a response's named examples. */
const exampleCodes = (doc: OpenApiDocument, op: JsonObject, status: string): string[] => {
  const content = (responseOf(doc, op, status).content ?? {}) as Record<string, JsonObject>;
  return Object.values(content).flatMap((media) =>
    Object.values((media.examples ?? {}) as Record<string, unknown>).map(
      (example) => (deref(doc, example).value as { error: { code: string } }).error.code,
    ),
  );
};

for (const version of versions) {
  describe(`version ${version}`, () => {
    const doc = loadBundle(version);

    test('has all 13 operations of the seed plus the institutions list and the entrypoint', () => {
      for (const expected of seedOperations) {
        const op = operation(doc, expected.method, expected.path);
        assert.ok(op, `#${expected.n} ${expected.method.toUpperCase()} ${expected.path} is missing`);
        assert.equal(op.operationId, expected.operationId, `#${expected.n} operationId`);
      }
      assert.equal(operation(doc, 'get', '/institutions')?.operationId, 'listInstitutions');
      assert.deepEqual(operation(doc, 'get', '/institutions')?.security, []);
      assert.equal(operation(doc, 'get', '/')?.operationId, 'getEntrypoint');
      assert.deepEqual(operation(doc, 'get', '/')?.security, []);
      assert.equal(operationsOf(doc).length, seedOperations.length + 2);
    });

    test('has the four webhook events', () => {
      for (const event of seedEvents) {
        const operation = doc.webhooks?.[event]?.post as JsonObject | undefined;
        assert.ok(operation, `webhook ${event} is missing`);
        // Events are authenticated by their signature, not by a token or a client certificate.
        assert.deepEqual(operation.security, [], `webhook ${event} security`);
        const { parameters } = webhooksOf(doc).find((found) => found.name === event)!;
        assert.ok(parameters.some((p) => p.in === 'header' && p.name === 'Service-Signature'));
      }
    });

    test('events about an enrollment carry its enrollment_id; a disconnect reason is the whole status, never null', () => {
      const validator = ContractValidator.forDocument(version);
      const payloadOf = (event: string) => `#/webhooks/${event}/post/requestBody/content/application~1json/schema`;
      const envelope = (type: string, payload: object) => ({ id: 'evt_1', type, timestamp: '2025-03-12T14:03:27Z', payload });
      const verification = { account_id: 'acc_1', status: 'completed' };
      assert.notDeepEqual(
        validator.validateAt(payloadOf('account.number_verification.processed'), envelope('account.number_verification.processed', verification)),
        [],
      );
      assert.deepEqual(
        validator.validateAt(
          payloadOf('account.number_verification.processed'),
          envelope('account.number_verification.processed', { enrollment_id: 'enr_1', ...verification }),
        ),
        [],
      );
      assert.notDeepEqual(validator.validateAt(payloadOf('transactions.processed'), envelope('transactions.processed', { transactions: [] })), []);
      assert.deepEqual(
        validator.validateAt(payloadOf('transactions.processed'), envelope('transactions.processed', { enrollment_id: 'enr_1', transactions: [] })),
        [],
      );
      const disconnected = (reason: unknown) =>
        validator.validateAt(payloadOf('enrollment.disconnected'), envelope('enrollment.disconnected', { enrollment_id: 'enr_1', reason }));
      for (const reason of ['disconnected', 'disconnected.account_locked']) assert.deepEqual(disconnected(reason), [], reason);
      for (const reason of [null, 'account_locked']) assert.notDeepEqual(disconnected(reason), [], String(reason));
    });

    test('every operation documents Service-Version on every response and accepts it on the request', () => {
      for (const { path, method, operation: op, parameters } of operationsOf(doc)) {
        assert.ok(
          parameters.some((p) => p.in === 'header' && p.name === 'Service-Version'),
          `${method} ${path}`,
        );
        for (const status of Object.keys(op.responses as object)) {
          const headers = (responseOf(doc, op, status).headers ?? {}) as object;
          assert.ok('Service-Version' in headers, `${method} ${path} ${status} lacks Service-Version`);
        }
      }
    });

    test('Service-Enrollment-Status is on the responses of endpoints 2, 5, 6, 7 and 8', () => {
      for (const expected of seedOperations) {
        const op = operation(doc, expected.method, expected.path)!;
        const success = Object.keys(op.responses as object).find((s) => s.startsWith('2'))!;
        const headers = (responseOf(doc, op, success).headers ?? {}) as object;
        assert.equal('Service-Enrollment-Status' in headers, withEnrollmentStatus.has(expected.n), `#${expected.n}`);
      }
    });

    test('transactions take count, from_id, start_date and end_date', () => {
      const path = '/accounts/{account_id}/transactions';
      const names = parametersOf(doc, 'get', path)
        .filter((p) => p.in === 'query')
        .map((p) => p.name);
      assert.deepEqual(names.sort(), ['count', 'end_date', 'from_id', 'start_date']);
    });

    test('payments take an Idempotency-Key and JSON or form-encoded bodies', () => {
      const path = '/accounts/{account_id}/payments';
      assert.ok(parametersOf(doc, 'post', path).some((p) => p.in === 'header' && p.name === 'Idempotency-Key'));
      for (const payPath of [path, '/accounts/{account_id}/payees']) {
        const body = deref(doc, operation(doc, 'post', payPath)!.requestBody);
        assert.deepEqual(Object.keys(body.content as object).sort(), ['application/json', 'application/x-www-form-urlencoded']);
      }
    });

    test('payments and payees answer with one schema, a oneOf of the resource and the MFA challenge', () => {
      const schemaOf = (path: string, status: string) => {
        const response = responseOf(doc, operation(doc, 'post', path)!, status);
        return (response.content as Record<string, JsonObject>)['application/json']!.schema as JsonObject;
      };
      const payments = '/accounts/{account_id}/payments';
      assert.deepEqual(schemaOf(payments, '200'), schemaOf(payments, '202'));
      const branches = (schema: JsonObject) => (deref(doc, schema).oneOf as JsonObject[]).map((branch) => deref(doc, branch).title);
      assert.deepEqual(branches(schemaOf(payments, '202')), ['Payment', 'MfaChallenge']);
      assert.deepEqual(branches(schemaOf('/accounts/{account_id}/payees', '200')), ['Payee', 'MfaChallenge']);
    });

    test('authenticated operations document 400, 401, 403, 429 and 502 with the error schema', () => {
      for (const { path, method, operation: op } of operationsOf(doc)) {
        if (path === '/institutions' || path === '/') continue;
        for (const status of ['400', '401', '403', '429', '502']) {
          const response = responseOf(doc, op, status);
          assert.ok(response?.content, `${method} ${path} lacks ${status}`);
        }
        assert.ok('Retry-After' in ((responseOf(doc, op, '429').headers ?? {}) as object), `${method} ${path} 429 Retry-After`);
      }
    });

    test('every account sub-resource answers 410 account.closed and 404', () => {
      for (const { path, method, operation: op } of operationsOf(doc)) {
        if (!path.includes('{account_id}')) continue;
        assert.ok(
          exampleCodes(doc, op, '410').some((code) => code.startsWith('account.closed')),
          `${method} ${path} 410`,
        );
        assert.ok(exampleCodes(doc, op, '404').length > 0, `${method} ${path} 404`);
      }
    });

    test('details document both verification codes and the disconnected enrollment', () => {
      const codes = exampleCodes(doc, operation(doc, 'get', '/accounts/{account_id}/details')!, '404');
      for (const code of ['account_number_verification_pending', 'account_number_verification_expired']) assert.ok(codes.includes(code), code);
      assert.ok(codes.some((code) => code.startsWith('enrollment.disconnected')));
    });

    test('bodies answer 422 with params', () => {
      for (const { path, method, operation: op } of operationsOf(doc)) {
        if (!op.requestBody) continue;
        const response = responseOf(doc, op, '422');
        const media = (response.content as Record<string, JsonObject>)['application/json']!;
        const values = Object.values((media.examples ?? {}) as Record<string, unknown>).map((e) => deref(doc, e).value as JsonObject);
        assert.ok(
          values.some((v) => (v.error as JsonObject).params),
          `${method} ${path} 422 example with params`,
        );
      }
    });

    test('security: HTTP Basic and mutual TLS', () => {
      const schemes = doc.components?.securitySchemes ?? {};
      assert.equal(schemes.basicAuth?.type, 'http');
      assert.equal(schemes.basicAuth?.scheme, 'basic');
      assert.equal(schemes.mutualTLS?.type, 'mutualTLS');
    });
  });
}

test('2019-07-01 documents the raw token in Authorization; 2020-10-12 does not', () => {
  assert.equal(loadBundle('2019-07-01').components?.securitySchemes?.rawToken?.type, 'apiKey');
  assert.equal(loadBundle('2020-10-12').components?.securitySchemes?.rawToken, undefined);
});

test('the sandbox control API document has its operations', () => {
  const doc = loadBundle('sandbox');
  const ids = operationsOf(doc)
    .map((o) => o.operationId)
    .sort();
  for (const id of [
    'createSandboxEnrollment',
    'disconnectSandboxEnrollment',
    'refreshSandboxEnrollment',
    'closeSandboxAccount',
    'getSandboxClock',
    'advanceSandboxClock',
    'getSandboxWebhook',
    'setSandboxWebhook',
    'rotateSandboxWebhookSecret',
    'fireSandboxEvent',
    'listSandboxWebhookDeliveries',
  ]) {
    assert.ok(ids.includes(id), `${id} is missing`);
  }
});
