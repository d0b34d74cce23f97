// The routes come from the bundled descriptions: every operation of each document is served at
// the method and path the bundle gives it, and only those (besides the rendered reference).
import assert from 'node:assert/strict';
import { loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { afterAll, describe, test } from 'vitest';
import { createApp } from '../src/app.ts';
import { honoPath } from '../src/http/routes.ts';

const served = (app: ReturnType<typeof createApp>) =>
  new Set(app.routes.filter((route) => route.method !== 'ALL' && !route.path.startsWith('/docs')).map((route) => `${route.method} ${route.path}`));
const described = (...names: ('2020-10-12' | 'sandbox')[]) =>
  new Set(names.flatMap((name) => operationsOf(loadBundle(name)).map((op) => `${op.method.toUpperCase()} ${honoPath(op.path)}`)));

describe('routes from the description', () => {
  const withSandbox = createApp({ webhooks: { autostart: false } });
  const withoutSandbox = createApp({ sandbox: false, webhooks: { autostart: false } });
  afterAll(async () => {
    await withSandbox.close();
    await withoutSandbox.close();
  });

  test('a path template becomes a Hono path', () => {
    assert.equal(honoPath('/accounts/{account_id}/transactions/{transaction_id}'), '/accounts/:account_id/transactions/:transaction_id');
    assert.equal(honoPath('/institutions'), '/institutions');
  });

  test('every operation of the API and the sandbox control API is routed, and nothing else', () => {
    assert.deepEqual(served(withSandbox), described('2020-10-12', 'sandbox'));
  });

  test('without the sandbox, only the API is routed', () => {
    assert.deepEqual(served(withoutSandbox), described('2020-10-12'));
  });
});
