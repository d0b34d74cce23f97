// Every code sample of the docs, exactly as its page shows it (apps/docs/dist/samples), run against the sandbox
// server at AGGREGATION_BASE_URL: curl with the token in the environment, TypeScript with Node, Python in the tools'
// virtualenv with the aggregation_client package, Go built in one module against aggregation.example/client, Java
// compiled by one javac per document against openapi-generator's Java client. Each runs on a fresh enrollment, since
// some remove access or close accounts. (TypeScript is also typechecked: this package's tsconfig includes the samples.)
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsDir } from '@aggregation/docs';
import { documentNames, loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { compileJavaClient } from '../src/openapi-generator-builds.ts';
import { artifactsDir } from '../src/paths.ts';
import { venvEnv, venvPython } from '../src/python.ts';
import { run } from '../src/run.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import { buildGoPrograms, compileJavaPrograms, javaClassOf, pythonPackagePath } from './support/programs.ts';
import { type Sandbox, sampleEnv, startSandbox } from './support/sandbox.ts';

const toolchain = findToolchain();
const noCurl = skipWhenMissing('the curl samples', missingTool('curl', toolchain));
const noVenv = skipWhenMissing('the python samples', !existsSync(venvPython) && `no virtualenv at ${venvPython}: run npm run generate:clients`);
const noGo = skipWhenMissing('the Go samples', missingTool('go', toolchain));
const noJava = skipWhenMissing('the Java samples', missingTool('java', toolchain) ?? missingTool('maven', toolchain));

// curl exits non-zero on an HTTP error (and prints the body) only when asked to: ask through a .curlrc.
const curlHome = join(artifactsDir, 'curl-home');
mkdirSync(curlHome, { recursive: true });
writeFileSync(join(curlHome, '.curlrc'), '--fail-with-body\n--silent\n--show-error\n');

type Shown = { document: string; operationId: string; file: string; source: string };
const shown = (document: string, language: string, operationId: string, ext: string): Shown | undefined => {
  const file = join(docsDir, 'samples', document, language, `${operationId}.${ext}`);
  return existsSync(file) ? { document, operationId, file, source: readFileSync(file, 'utf8') } : undefined;
};
const all = (language: string, ext: string) =>
  documentNames.flatMap((document) =>
    operationsOf(loadBundle(document)).flatMap(({ operationId }) => shown(document, language, operationId, ext) ?? []),
  );

// Built once, before the first sample of their language runs.
let goBinaries: Promise<Record<string, string>> | undefined;
const goBinary = (sample: Shown) => {
  goBinaries ??= buildGoPrograms(
    toolchain.go!,
    'samples',
    Object.fromEntries(all('go', 'go').map((each) => [`${each.document}-${each.operationId}`, each.source])),
  );
  return goBinaries.then((binaries) => binaries[`${sample.document}-${sample.operationId}`]!);
};
const javaClasspaths = new Map<string, Promise<string>>();
const javaClasspath = (document: string) => {
  if (!javaClasspaths.has(document)) {
    const sources = all('java', 'java').filter((sample) => sample.document === document);
    javaClasspaths.set(
      document,
      compileJavaClient(toolchain.maven!).then((classpath) =>
        compileJavaPrograms(
          toolchain.java!,
          classpath,
          `samples-java/${document}`,
          sources.map((each) => each.source),
        ),
      ),
    );
  }
  return javaClasspaths.get(document)!;
};
let pythonPath: string | undefined;

type Language = { id: string; ext: string; skip: string | false; command(sample: Shown): Promise<[string, string[]]> };
const languages: Language[] = [
  { id: 'curl', ext: 'sh', skip: noCurl, command: async (sample) => ['sh', ['-e', sample.file]] },
  { id: 'typescript', ext: 'ts', skip: false, command: async (sample) => [process.execPath, [sample.file]] },
  { id: 'python', ext: 'py', skip: noVenv, command: async (sample) => [venvPython, [sample.file]] },
  { id: 'go', ext: 'go', skip: noGo, command: async (sample) => [await goBinary(sample), []] },
  {
    id: 'java',
    ext: 'java',
    skip: noJava,
    command: async (sample) => [toolchain.java!, ['-cp', await javaClasspath(sample.document), javaClassOf(sample.source)]],
  },
];

describe('code samples against the sandbox server', { concurrent: true }, () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
    if (!noVenv) pythonPath = pythonPackagePath('samples');
  });
  afterAll(() => sandbox?.close());

  for (const name of documentNames) {
    for (const { operationId } of operationsOf(loadBundle(name))) {
      for (const language of languages) {
        const sample = shown(name, language.id, operationId, language.ext);
        // The sandbox document has no Go or Java samples (its clients are generated from the versions); the docs'
        // own tests check that every page has the samples it must.
        if (!sample) continue;
        it.skipIf(language.skip)(`${name} ${operationId} (${language.id})`, async () => {
          const needs = ['TRANSACTION_ID', 'PAYMENT_ID', 'DELIVERY_ID'].filter((variable) => sample.source.includes(variable));
          // A rollback needs an upgrade before it.
          if (operationId === 'rollBackSandboxApplicationVersion') needs.push('UPGRADE');
          const env = venvEnv({
            ...(await sampleEnv(sandbox.url, needs)),
            AGGREGATION_BASE_URL: sandbox.url,
            CURL_HOME: curlHome,
            ...(pythonPath ? { PYTHONPATH: pythonPath } : {}),
          });
          const [file, args] = await language.command(sample);
          const { stdout } = await run(file, args, { env, timeoutMs: 120_000 });
          assert.ok(stdout.trim().length > 0 || operationId.startsWith('delete'), 'the sample printed nothing');
        });
      }
    }
  }
});
