// Every code sample of the docs, exactly as its page shows it (apps/docs/dist/samples), run against the sandbox
// server at AGGREGATION_BASE_URL, each on a fresh enrollment (some remove access or close accounts) given in its
// environment: curl with the token in the environment, one `sh` each; TypeScript, Python (with the aggregation_client
// package), Go (with aggregation.example/client) and Java (with openapi-generator's Java client) all the samples of a
// language in one process (see support/programs.ts). A sample fails its test when it fails (an exception, an exit, a
// non-zero status) or prints nothing. (TypeScript is also typechecked: this package's tsconfig includes the samples.)
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
import { findToolchain, missingTool } from '../src/toolchain.ts';
import type { Outcome } from './support/in-one-process.ts';
import {
  programsOf,
  pythonPackagePath,
  runGoPrograms,
  runJavaPrograms,
  runPythonPrograms,
  runShellPrograms,
  runTypescriptPrograms,
  type Source,
} from './support/programs.ts';
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

type Shown = { document: string; operationId: string; source: string };
const shown = (document: string, language: string, operationId: string, ext: string): Shown | undefined => {
  const file = join(docsDir, 'samples', document, language, `${operationId}.${ext}`);
  return existsSync(file) ? { document, operationId, source: readFileSync(file, 'utf8') } : undefined;
};
const nameOf = (sample: Shown) => `${sample.document}-${sample.operationId}`;

/** The state an operation's sample starts from, beyond the ids it reads (see sampleEnv). */
const STATE_NEEDED: Record<string, string> = {
  // A rollback needs an upgrade before it.
  rollBackSandboxApplicationVersion: 'UPGRADE',
  reconnectSandboxEnrollment: 'DISCONNECTED',
  submitConnectCredentials: 'SESSION:credentials',
  submitConnectMfa: 'SESSION:mfa',
  selectConnectAccounts: 'SESSION:select_accounts',
  approveConnectSession: 'SESSION:approve',
};

/** A fresh enrollment, with the ids the sample reads from its environment. */
async function envOf(sandbox: Sandbox, sample: Shown): Promise<Record<string, string>> {
  const needs = ['TRANSACTION_ID', 'PAYMENT_ID', 'DELIVERY_ID', 'CONNECT_TOKEN', 'APPLICATION_ID'].filter((variable) =>
    sample.source.includes(variable),
  );
  const state = STATE_NEEDED[sample.operationId];
  if (state) needs.push(state);
  return sampleEnv(sandbox.url, needs);
}

type Run = (programs: Source[], env: NodeJS.ProcessEnv) => Promise<Map<string, Outcome>>;
type Language = { id: string; ext: string; skip: string | false; run: Run };
const languages: Language[] = [
  { id: 'curl', ext: 'sh', skip: noCurl, run: (programs, env) => runShellPrograms('samples-curl', programs, { env }) },
  { id: 'typescript', ext: 'ts', skip: false, run: (programs, env) => runTypescriptPrograms('samples-typescript', programs, { env }) },
  {
    id: 'python',
    ext: 'py',
    skip: noVenv,
    run: (programs, env) => runPythonPrograms(venvPython, 'samples-python', programs, { env: { ...env, PYTHONPATH: pythonPackagePath('samples') } }),
  },
  { id: 'go', ext: 'go', skip: noGo, run: (programs, env) => runGoPrograms(toolchain.go!, 'samples-go', programs, { env }) },
  {
    id: 'java',
    ext: 'java',
    skip: noJava,
    // The pages of the two versions declare the same classes: a group each.
    run: async (programs, env) => {
      const classpath = await compileJavaClient(toolchain.maven!, toolchain.jdkVersion!);
      const groups = Object.fromEntries(
        documentNames.map((document) => [document, programs.filter((program) => program.name.startsWith(`${document}-`))]),
      );
      return runJavaPrograms(toolchain.java!, classpath, 'samples-java', groups, { env });
    },
  },
];

// Every test of a language waits for its language's one run, which can take minutes on a busy machine; a sample that
// hangs fails on its own (in-one-process.ts).
const waitForRunMs = 20 * 60_000;

describe('code samples against the sandbox server', { concurrent: true }, () => {
  let sandbox: Sandbox;
  const runs = new Map<string, Promise<Map<string, Outcome>>>();
  beforeAll(async () => {
    sandbox = await startSandbox();
    const env = venvEnv({ AGGREGATION_BASE_URL: sandbox.url, CURL_HOME: curlHome });
    for (const language of languages) {
      if (language.skip) continue;
      const samples = documentNames.flatMap((document) =>
        operationsOf(loadBundle(document)).flatMap(({ operationId }) => shown(document, language.id, operationId, language.ext) ?? []),
      );
      const running = programsOf(samples, async (sample) => ({ name: nameOf(sample), source: sample.source, env: await envOf(sandbox, sample) })).then(
        (programs) => language.run(programs, env),
      );
      // Each test of the language awaits it, and fails with its error.
      running.catch(() => {});
      runs.set(language.id, running);
    }
  });
  afterAll(() => sandbox?.close());

  for (const document of documentNames) {
    for (const { operationId } of operationsOf(loadBundle(document))) {
      for (const language of languages) {
        const sample = shown(document, language.id, operationId, language.ext);
        // The sandbox document has no Go or Java samples (its clients are generated from the versions); the docs'
        // own tests check that every page has the samples it must.
        if (!sample) continue;
        it.skipIf(language.skip)(
          `${document} ${operationId} (${language.id})`,
          async () => {
            const outcome = (await runs.get(language.id)!).get(nameOf(sample));
            assert.ok(outcome, 'the sample was not run');
            assert.ok(outcome.ok, `the sample failed: ${outcome.error}\n--- its output\n${outcome.output}`);
            assert.ok(outcome.output.trim().length > 0 || operationId.startsWith('delete'), 'the sample printed nothing');
          },
          waitForRunMs,
        );
      }
    }
  }
});
