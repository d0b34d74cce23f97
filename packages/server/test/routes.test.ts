// The routes come from the bundled descriptions: every operation of each document is served at
// the method and path the bundle gives it, and only those (besides the rendered reference and, with the sandbox, the
// enrollment widget).
import assert from 'node:assert/strict';
import { loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { afterAll, describe, test } from 'vitest';
import { createApp } from '../src/app.ts';
import { honoPath } from '../src/http/routes.ts';

const apiRoutes = (app: ReturnType<typeof createApp>) =>
  app.routes.filter((route) => route.method !== 'ALL' && !route.path.startsWith('/docs') && !route.path.startsWith('/connect'));
const served = (app: ReturnType<typeof createApp>) => new Set(apiRoutes(app).map((route) => `${route.method} ${route.path}`));
const widgetRoutes = (app: ReturnType<typeof createApp>) => app.routes.filter((route) => route.path.startsWith('/connect')).length;
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
    assert.ok(widgetRoutes(withSandbox) > 0, 'the enrollment widget is served with the sandbox');
  });

  test('without the sandbox, only the API is routed: not the widget, which enrolls through the sandbox', () => {
    assert.deepEqual(served(withoutSandbox), described('2020-10-12'));
    assert.equal(widgetRoutes(withoutSandbox), 0);
  });
});
