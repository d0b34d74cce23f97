// The Python package's hand-written layer, on the generated client it is laid over: its tests (webhook verification
// on the vectors shared with the TypeScript and Go clients, the token, the typed errors, payments against the sandbox
// server), and the README's examples, which must be the example files exactly.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { venvEnv, venvPython } from '../src/python.ts';
import { assemblePythonPackage, pythonLayerDir, webhookVectorsPath } from '../src/python-package.ts';
import { run } from '../src/run.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import { type Sandbox, startSandbox } from './support/sandbox.ts';

const noPython = skipWhenMissing('the Python package tests', missingTool('python', findToolchain()));

describe('the Python package aggregation-client', () => {
  let sandbox: Sandbox | undefined;
  beforeAll(async () => {
    if (!noPython) sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());

  it.skipIf(noPython)('passes its tests, on the shared webhook vectors and against the sandbox server', async () => {
    const source = assemblePythonPackage();
    const { stderr } = await run(venvPython, ['-m', 'unittest', 'discover', '-v', '-s', join(pythonLayerDir, 'tests')], {
      env: venvEnv({ PYTHONPATH: source, AGGREGATION_WEBHOOK_VECTORS: webhookVectorsPath, AGGREGATION_BASE_URL: sandbox!.url }),
    });
    // Every test ran: none of them skips.
    assert.match(stderr, /^test_a_payment_is_accepted_with_202 /m);
    assert.match(stderr, /\nOK\n?$/);
  });

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
