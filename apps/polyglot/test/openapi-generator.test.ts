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
import { run } from '../src/run.ts';
import { runSmoke, type SmokeStep, smokeSteps as scenario } from '../src/smoke.ts';
import { findToolchain, missingTool, shortRunJvmOptions } from '../src/toolchain.ts';
import { type Sandbox, startSandbox } from './support/sandbox.ts';

const toolchain = findToolchain();
const noJava = skipWhenMissing('the openapi-generator clients', missingTool('java', toolchain) ?? missingTool('maven', toolchain));
const noPython = skipWhenMissing("openapi-generator's python client", missingTool('python', toolchain));

/** Runs a smoke program once on a fresh enrollment; its steps (src/smoke.ts) are then checked one test each. */
function smokeSteps(program: () => Promise<[string, string[]]>, sandbox: () => Sandbox) {
  let outcome: ReturnType<typeof runSmoke> | undefined;
  const runOnce = () => (outcome ??= program().then(([file, args]) => runSmoke({ file, args }, sandbox().url)));
  for (const [step, title] of Object.entries(scenario) as [SmokeStep, string][]) {
    it(`smoke: ${title}`, async () => {
      const found = (await runOnce()).steps[step];
      assert.ok(found, `the program printed no line for ${step}`);
      assert.ok(found.ok, `${step}: ${found.detail}`);
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
    const compile = () => (classpath ??= compileJavaClient(toolchain.maven!, toolchain.jdkVersion!));
    it('compiles with mvn compile', async () => {
      assert.ok((await compile()).includes('gson'));
    });
    // The source launcher compiles and runs the one-file program against the compiled client.
    smokeSteps(
      async () => [toolchain.java!, [...shortRunJvmOptions, '-cp', await compile(), join(smokeDir('java'), 'Smoke.java')]],
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
      '[main] WARN  o.o.codegen.DefaultCodegen - OpenAPI 3.1 support is still in beta. To report an issue related to 3.1 spec, please kindly open an issue in the Github repo.',
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
