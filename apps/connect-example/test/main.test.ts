// `npm start -w @aggregation/connect-example`: the example's bin listens where PORT says, serves the page with the
// policy an embedding page needs, and gives the page its session (the sandbox, the application, a nonce).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { exitWithParent, printedBy, stopsWithThisProcess } from '@aggregation/test-support';
import { describe, it } from 'vitest';

describe('the example as npm start runs it', () => {
  it('serves the page under its Content-Security-Policy and a session naming the sandbox, the application and a nonce', async () => {
    const child = stopsWithThisProcess(
      spawn(process.execPath, [...exitWithParent, join(import.meta.dirname, '..', 'src', 'main.ts')], {
        env: { ...process.env, PORT: '0', AGGREGATION_BASE_URL: 'http://127.0.0.1:3999/', AGGREGATION_APPLICATION_ID: 'app_example' },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    try {
      const [, url] = await printedBy(child, 'the example').waitFor(/^Example app on (\S+) \(sandbox: http:\/\/127\.0\.0\.1:3999\)$/m);
      const page = await fetch(url!);
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<script type="module" src="app\.js"><\/script>/);
      const policy = page.headers.get('content-security-policy') ?? '';
      for (const directive of [
        "script-src 'self' http://127.0.0.1:3999",
        'frame-src http://127.0.0.1:3999',
        "connect-src 'self' http://127.0.0.1:3999",
      ]) {
        assert.ok(policy.includes(directive), `${directive} in ${policy}`);
      }
      const session = await fetch(`${url}/api/session`);
      const cookie = session.headers.get('set-cookie') ?? '';
      assert.match(cookie, /^example_session=[0-9a-f-]{36}; Path=\/; HttpOnly; SameSite=Lax$/);
      const body = (await session.json()) as Record<string, unknown>;
      assert.deepEqual(
        { ...body, nonce: typeof body.nonce },
        { sandboxUrl: 'http://127.0.0.1:3999', applicationId: 'app_example', nonce: 'string', enrollment: null },
      );
      // The same cookie, the same session.
      const again = (await (await fetch(`${url}/api/session`, { headers: { cookie: cookie.split(';')[0]! } })).json()) as { nonce: string };
      assert.equal(again.nonce, body.nonce);
      const refused = await fetch(`${url}/api/accounts`, { headers: { cookie: cookie.split(';')[0]! } });
      assert.equal(refused.status, 409);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'not_enrolled');
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    }
  });
});
