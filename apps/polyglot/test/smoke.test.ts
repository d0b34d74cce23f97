// The generated clients, compiled and run against the sandbox server by their smoke programs.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { goSmokeDir } from '../src/go.ts';
import { artifactsDir, goClientDir, packageDir, pythonClientDir } from '../src/paths.ts';
import { venvEnv, venvPython } from '../src/python.ts';
import { run } from '../src/run.ts';
import { countSteps, runSmoke, smokeSteps } from '../src/smoke.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import { type Sandbox, startSandbox } from './support/sandbox.ts';

const toolchain = findToolchain();
const noPython = skipWhenMissing('the Python smoke program', missingTool('python', toolchain));
const noGo = skipWhenMissing('the Go smoke program', missingTool('go', toolchain));

describe('smoke programs of the generated clients', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());

  it.skipIf(noPython)('Python (openapi-python-client): the shared smoke scenario', async () => {
    assert.ok(existsSync(join(pythonClientDir, 'aggregation_client')), 'no Python client: run npm run generate:clients');
    const { steps } = await runSmoke(
      { file: venvPython, args: [join(packageDir, 'smoke', 'python', 'smoke.py')], env: venvEnv({ PYTHONPATH: pythonClientDir }) },
      sandbox.url,
    );
    assert.deepEqual(countSteps(steps), { passed: Object.keys(smokeSteps).length, failed: 0 }, JSON.stringify(steps));
  });

  it.skipIf(noGo)('Go (oapi-codegen): compiles, then the shared smoke scenario', async () => {
    assert.ok(existsSync(join(goClientDir, 'client.gen.go')), 'no Go client: run npm run generate:clients');
    const binary = join(artifactsDir, 'bin', 'go-smoke');
    await run(toolchain.go!, ['build', '-o', binary, '.'], { cwd: goSmokeDir });
    const { steps } = await runSmoke({ file: binary, args: [] }, sandbox.url);
    assert.deepEqual(countSteps(steps), { passed: Object.keys(smokeSteps).length, failed: 0 }, JSON.stringify(steps));
  });
});
