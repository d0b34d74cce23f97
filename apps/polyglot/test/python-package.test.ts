// The Python package's hand-written layer, on the generated client it is laid over: its unit tests (webhook
// verification on the vectors shared with the TypeScript and Go clients, the token, the typed errors, the retries),
// its tests against the sandbox server (started here: the users that answer 429 and 504, a payment retried with its
// key, payments through create_payment, timeouts), and the README's examples, which must be the example files exactly.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@aggregation/server';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { artifactsDir } from '../src/paths.ts';
import { venvEnv, venvPython } from '../src/python.ts';
import { assemblePythonPackage, pythonLayerDir, webhookVectorsPath, writeEnrollmentVectors } from '../src/python-package.ts';
import { run } from '../src/run.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';

const noPython = skipWhenMissing('the Python package tests', missingTool('python', findToolchain()));

describe('the Python package aggregation-client', () => {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    if (!noPython) server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false }, logError: () => {} });
  });
  afterAll(() => server?.close());

  it.skipIf(noPython)(
    'passes its unit tests, on the shared webhook and enrollment signature vectors, and its tests against the sandbox server',
    async () => {
      const source = assemblePythonPackage();
      const enrollmentVectors = writeEnrollmentVectors(join(artifactsDir, 'vectors', 'enrollment-signatures.json'));
      const { stderr } = await run(venvPython, ['-m', 'unittest', 'discover', '-v', '-s', join(pythonLayerDir, 'tests')], {
        env: venvEnv({
          PYTHONPATH: source,
          AGGREGATION_WEBHOOK_VECTORS: webhookVectorsPath,
          AGGREGATION_ENROLLMENT_VECTORS: enrollmentVectors,
          AGGREGATION_BASE_URL: server!.url,
        }),
      });
      assert.match(stderr, /\nOK\n?$/);
      const againstTheSandbox = stderr
        .split('\n')
        .filter((line) => /test_(sandbox\.AgainstTheSandbox|payments\.Payments|enrollment_signatures\.AgainstTheSandbox)/.test(line));
      assert.ok(againstTheSandbox.length >= 8 && againstTheSandbox.every((line) => line.endsWith('... ok')), stderr);
      assert.match(stderr, /test_every_case_by_the_key_alone_and_by_the_key_with_its_id .*\.\.\. ok/);
    },
  );

  it("the README's code blocks are the example files", () => {
    const readme = readFileSync(join(pythonLayerDir, 'README.md'), 'utf8');
    const examples = readdirSync(join(pythonLayerDir, 'examples')).filter((file) => file.endsWith('.py'));
    assert.ok(examples.length > 0);
    for (const file of examples) {
      const code = readFileSync(join(pythonLayerDir, 'examples', file), 'utf8').trimEnd();
      assert.ok(readme.includes(`\`\`\`python\n${code}\n\`\`\``), `README.md does not show examples/${file} as it is`);
    }
  });
});
