// openapi-generator's typescript-fetch, python and java clients of the description: generated without an error
// that the description causes, built as each language builds them, and run against the sandbox server by a
// smoke program each (smoke/openapi-generator/<generator>).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { docsDir } from '@aggregation/docs';
import { currentVersion } from '@aggregation/openapi/contract';
import { generatorsBundlePath } from '@aggregation/openapi/generators';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  generators,
  openapiGeneratorVersion,
  outputDir,
  readConfigs,
  readGenerationLog,
  smokeDir,
  unexplainedProblems,
} from '../src/openapi-generator.ts';
import {
  buildTypescriptFetchSmoke,
  compileJavaClient,
  compileTypescriptFetch,
  importEveryModule,
  installPythonClient,
} from '../src/openapi-generator-builds.ts';
import { RunError, run } from '../src/run.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import { type Sandbox, startSandbox } from './support/sandbox.ts';

const toolchain = findToolchain();
const noJava = skipWhenMissing('the openapi-generator clients', missingTool('java', toolchain) ?? missingTool('maven', toolchain));
const noPython = skipWhenMissing("openapi-generator's python client", missingTool('python', toolchain));

// What every smoke program prints, one line per step.
const steps = {
  accounts: 'lists the accounts',
  transactions: 'pages the transactions with count and from_id, newest first, adding up to the full list',
  mfa: 'a payment with memo mfa answers the MFA challenge, read by the client',
  payment: 'a payment answers 202, the Payment read by the client',
  error: 'an unknown account answers 404, its body read as Error',
} as const;
type Step = keyof typeof steps;

/** Runs a smoke program once; its steps are then checked one test each. */
function smokeSteps(program: () => Promise<[string, string[], NodeJS.ProcessEnv?]>, sandbox: () => Sandbox) {
  let output: Promise<string> | undefined;
  const runOnce = () =>
    (output ??= program().then(([file, args, env]) =>
      run(file, args, { env: { ...process.env, ...env, AGGREGATION_BASE_URL: sandbox().url }, timeoutMs: 120_000 }).then(
        ({ stdout }) => stdout,
        // A failed step makes the program exit non-zero; its lines still tell which one.
        (error: unknown) => (error instanceof RunError ? error.stdout : Promise.reject(error)),
      ),
    ));
  for (const [step, title] of Object.entries(steps) as [Step, string][]) {
    it(`smoke: ${title}`, async () => {
      const line = (await runOnce()).split('\n').find((candidate) => candidate.startsWith(`step ${step}: `));
      assert.ok(line, `the program printed no line for ${step}`);
      assert.match(line, new RegExp(`^step ${step}: ok `));
    });
  }
}

describe.skipIf(noJava)(`openapi-generator ${openapiGeneratorVersion}`, () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    assert.ok(existsSync(outputDir('java')), 'no openapi-generator clients: run npm run generate:clients');
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());

  it("generates typescript-fetch, python and java from the generators' variant of the current version", () => {
    const configs = readConfigs();
    assert.deepEqual(configs.map((config) => config.generatorName).sort(), [...generators].sort());
    for (const config of configs) assert.equal(config.inputSpec, generatorsBundlePath(currentVersion), config.file);
  });

  it('generation printed no error or warning that the description causes', () => {
    const log = readGenerationLog();
    for (const generator of generators) assert.match(log, new RegExp(`^== ${generator} `, 'm'));
    assert.deepEqual(unexplainedProblems(log), []);
  });

  describe('typescript-fetch', () => {
    it('compiles with tsc (the generated tsconfig.json)', async () => {
      await compileTypescriptFetch();
    });
    smokeSteps(
      async () => [process.execPath, [await buildTypescriptFetchSmoke()]],
      () => sandbox,
    );
  });

  describe.skipIf(noPython)('python', () => {
    it('pip installs into a virtualenv, and every module imports', async () => {
      const python = await installPythonClient(toolchain.python!);
      const { stdout } = await run(python, ['-c', importEveryModule]);
      assert.match(stdout, /^\d+ modules$/m);
    });
    smokeSteps(
      async () => [await installPythonClient(toolchain.python!), [join(smokeDir('python'), 'smoke.py')]],
      () => sandbox,
    );
  });

  describe('java', () => {
    let classpath: Promise<string> | undefined;
    const compile = () => (classpath ??= compileJavaClient(toolchain.maven!));
    it('compiles with mvn compile', async () => {
      assert.ok((await compile()).includes('gson'));
    });
    // The source launcher compiles and runs the one-file program against the compiled client.
    smokeSteps(
      async () => [toolchain.java!, ['-cp', await compile(), join(smokeDir('java'), 'Smoke.java')]],
      () => sandbox,
    );
  });
});

describe('what the docs say', () => {
  it("the docs' Clients in other languages section gives each generator the options it is tested with", () => {
    const index = readFileSync(join(docsDir, 'index.html'), 'utf8');
    const section = index.slice(index.indexOf('<h2 id="clients">'));
    for (const config of readConfigs()) {
      const options = Object.entries(config.additionalProperties ?? {}).map(([key, value]) => `${key}=${String(value)}`);
      const command = `-g ${config.generatorName} -i ${basename(config.inputSpec)} -o ${config.generatorName} --additional-properties=${options.join(',')}`;
      assert.ok(section.includes(command), `${config.file}: the docs do not show ${command}`);
    }
  });
});

describe('what a generation printed', () => {
  it("an error the generator's limitations explain is left out; any other error or warning is reported", () => {
    const log = [
      '[pool-1-thread-2] ERROR o.o.codegen.DefaultCodegen - Unknown type `mutualTLS` found in the security definition `null`.',
      '[pool-1-thread-1] WARN  o.o.codegen.DefaultCodegen - Empty operationId found for path: post /',
      '[main] INFO  o.o.codegen.TemplateManager - writing file clients/openapi-generator/java/src/main/java/ApiException.java',
      'Exception in thread "main" java.lang.RuntimeException: Could not process model',
    ].join('\n');
    assert.deepEqual(unexplainedProblems(log), [
      '[pool-1-thread-1] WARN  o.o.codegen.DefaultCodegen - Empty operationId found for path: post /',
      'Exception in thread "main" java.lang.RuntimeException: Could not process model',
    ]);
  });
});
