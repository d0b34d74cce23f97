// What the mock gives: every operation answers with the description's own example, every documented error example
// can be chosen with `Prefer`, and requests that break the description are refused.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DocumentName,
  deref,
  type JsonObject,
  loadBundle,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  versions,
} from '@aggregation/openapi/contract';
import { childrenExitWithParent } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type Running, startMock } from '../src/index.ts';

// The mocks' Prism processes end with this test process, however it ends.
childrenExitWithParent();

const auth = { authorization: `Basic ${btoa('test_token_mock:')}` };

// One mock per document for the whole file, started at once: Prism's start (loading and resolving the description)
// is most of what a mock costs, and every test only sends requests to it.
const documents: DocumentName[] = [...versions, 'sandbox'];
const mocks = new Map<DocumentName, Running>();
beforeAll(async () => {
  await Promise.all(documents.map(async (document) => mocks.set(document, await startMock({ version: document }))));
});
afterAll(async () => {
  await Promise.all([...mocks.values()].map((mock) => mock.stop()));
});
/** The running mock of `document`. */
const mockOf = (document: DocumentName): Running => mocks.get(document)!;

type Example = { name: string; value: unknown };

function examplesOf(doc: OpenApiDocument, response: unknown): Example[] {
  const media = (deref(doc, response).content as Record<string, JsonObject> | undefined)?.['application/json'];
  if (!media) return [];
  const named = Object.entries((media.examples ?? {}) as Record<string, unknown>).map(([name, e]) => ({ name, value: deref(doc, e).value }));
  return 'example' in media ? [{ name: 'example', value: media.example }, ...named] : named;
}

/** The concrete URL of an operation, with each path parameter filled from its documented example. */
function concretePath({ path, parameters }: Operation): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = parameters.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(String(param?.example ?? param?.schema?.example ?? 'acc_example'));
  });
}

function requestBodyExample(doc: OpenApiDocument, operation: JsonObject): unknown {
  if (!operation.requestBody) return undefined;
  return examplesOf(doc, operation.requestBody)[0]?.value;
}

for (const version of versions) {
  describe(`Prism mock of ${version}`, () => {
    const doc = loadBundle(version);

    const call = (method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) =>
      fetch(`${mockOf(version).url}${path}`, {
        method: method.toUpperCase(),
        headers: { ...auth, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });

    for (const walked of operationsOf(doc)) {
      const { method, path, operation, operationId } = walked;
      test(`${operationId} answers with a documented example`, async () => {
        const response = await call(method, concretePath(walked), { body: requestBodyExample(doc, operation) });
        const documented = (operation.responses ?? {}) as Record<string, unknown>;
        assert.ok(String(response.status) in documented, `status ${response.status} is documented`);
        assert.match(String(response.status), /^2/);
        if (response.status === 204) return;
        const body = await response.json();
        const candidates = examplesOf(doc, documented[String(response.status)]).map((e) => e.value);
        assert.ok(
          candidates.some((candidate) => JSON.stringify(candidate) === JSON.stringify(body)),
          'the body is one of the examples',
        );
      });

      test(`${operationId}: every documented error example is reachable with Prefer`, async () => {
        const responses = (operation.responses ?? {}) as Record<string, unknown>;
        let reached = 0;
        for (const [status, response] of Object.entries(responses)) {
          if (!/^[45]/.test(status)) continue;
          for (const example of examplesOf(doc, response)) {
            const answer = await call(method, concretePath(walked), {
              body: requestBodyExample(doc, operation),
              headers: { prefer: `code=${status}, example=${example.name}` },
            });
            assert.equal(answer.status, Number(status), `${status} ${example.name}`);
            assert.deepEqual(await answer.json(), example.value);
            reached++;
          }
        }
        // The public operations (the entrypoint, the institutions) have no account or token to fail on.
        if (path !== '/institutions' && path !== '/') assert.ok(reached >= 5, `only ${reached} error examples reached`);
      });
    }

    test('a request without credentials is refused with 401', async () => {
      const response = await fetch(`${mockOf(version).url}/accounts`);
      assert.equal(response.status, 401);
      await response.body?.cancel();
    });

    test('a payment without its required amount is refused with 422', async () => {
      const payments = operationsOf(doc).find((o) => o.operationId === 'createPayment')!;
      const response = await call('post', concretePath(payments), {
        body: { memo: 'Rent', payee: { scheme: 'zelle', address: 'jane@example.com' } },
      });
      assert.equal(response.status, 422);
      await response.body?.cancel();
    });

    test('a count outside 1..10000 is refused with 422', async () => {
      const list = operationsOf(doc).find((o) => o.operationId === 'listTransactions')!;
      const response = await call('get', `${concretePath(list)}?count=0`);
      assert.equal(response.status, 422);
      await response.body?.cancel();
    });
  });
}

describe('Prism and the sandbox document', () => {
  test('creating a sandbox enrollment answers with its example', async () => {
    const response = await fetch(`${mockOf('sandbox').url}/sandbox/enrollments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'username', password: 'password' }),
    });
    assert.equal(response.status, 201);
    const body = (await response.json()) as { access_token: string };
    assert.match(body.access_token, /^test_token_/);
  });
});

// Prism picks its JSON Schema dialect from `$schema` only and does not know OpenAPI 3.1's `webhooks`. These tests
// pin what it does with this description, so that the README's list of gaps stays true.
describe('where Prism falls short of the description', () => {
  test('webhooks are not served: no route answers for an event type, so event payloads are not checked', async () => {
    const doc = loadBundle('2020-10-12');
    const types = Object.keys(doc.webhooks ?? {});
    assert.equal(types.length, 4);
    for (const type of types) {
      const response = await fetch(`${mockOf('2020-10-12').url}/${type}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{}',
      });
      assert.equal(response.status, 404, type);
      assert.match(((await response.json()) as { type: string }).type, /NO_PATH_MATCHED/);
    }
  });

  test('an empty query value passes, though the schema (a date) refuses an empty string', async () => {
    const response = await fetch(`${mockOf('2020-10-12').url}/accounts/acc_7Tq2Xw9Lk4Zp1Mv8/transactions?start_date=`, { headers: auth });
    assert.equal(response.status, 200);
    await response.body?.cancel();
  });

  test('3.1 keywords this description relies on are checked: const, formats', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${mockOf('sandbox').url}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const unknownEvent = await post('/sandbox/events', { type: 'no.such.event' });
    assert.equal(unknownEvent.status, 422, 'const of each oneOf branch');
    await unknownEvent.body?.cancel();
    const badDate = await post('/sandbox/webhook/secrets', { expire_current_at: 'tomorrow' });
    assert.equal(badDate.status, 422, 'format date-time');
    await badDate.body?.cancel();
  });
});

describe('a description file of your own', () => {
  test('startMock({ document }) mocks that file: its examples are the answers', async () => {
    const doc = structuredClone(loadBundle('2020-10-12')) as OpenApiDocument & { paths: Record<string, Record<string, JsonObject>> };
    const media = ((doc.paths['/institutions']!.get!.responses as Record<string, JsonObject>)['200']!.content as Record<string, JsonObject>)[
      'application/json'
    ]!;
    const ours = [{ id: 'own_bank', name: 'Own Bank', products: ['balance'] }];
    media.examples = { Own: { value: ours } };
    const dir = mkdtempSync(join(tmpdir(), 'mock-document-'));
    const file = join(dir, 'description.json');
    writeFileSync(file, JSON.stringify(doc));
    const mock = await startMock({ document: file });
    try {
      const response = await fetch(`${mock.url}/institutions`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), ours);
    } finally {
      await mock.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
