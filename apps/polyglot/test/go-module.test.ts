// The Go module as released: the generated client with the hand-written layer (token, typed errors, retries, webhook
// verification on the vectors shared with the TypeScript and Python clients), assembled, then `go vet` and
// `go test` on it, and its tests against the sandbox server (started here: the users that answer 429 and 504, a
// payment retried with its key).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@aggregation/server';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, it } from 'vitest';
import { buildGoModule } from '../src/go-module.ts';
import { artifactsDir } from '../src/paths.ts';
import { run } from '../src/run.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';

const toolchain = findToolchain();
const noGo = skipWhenMissing('the Go module test', missingTool('go', toolchain));

let server: RunningServer | undefined;
beforeAll(async () => {
  if (!noGo) server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false }, logError: () => {} });
});
afterAll(() => server?.close());

it.skipIf(noGo)('the Go module passes go vet and its tests, on the shared webhook vectors and against the sandbox server', async () => {
  const module = await buildGoModule(toolchain.go!, join(artifactsDir, 'go-module'));
  for (const file of [
    'go.mod',
    'go.sum',
    'README.md',
    'LICENSE',
    'idempotency.gen.go',
    'testdata/webhook-signatures.json',
    'testdata/enrollment-signatures.json',
  ]) {
    assert.ok(existsSync(join(module, file)), `${file} is missing from the module`);
  }
  const { stdout } = await run(toolchain.go!, ['test', '-v', '-count=1', '-run', '^TestSandbox', './...'], {
    cwd: module,
    env: { ...process.env, AGGREGATION_BASE_URL: server!.url },
  });
  const passed = stdout.split('\n').filter((line) => /^--- PASS: TestSandbox/.test(line));
  assert.equal(passed.length, 5, stdout);
  assert.doesNotMatch(stdout, /--- (SKIP|FAIL)/);
});
