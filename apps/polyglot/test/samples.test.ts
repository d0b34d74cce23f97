// Every code sample of the docs, exactly as its page shows it (apps/docs/dist/samples), run against the sandbox
// server at BASE_URL: curl with the token in the environment, TypeScript with Node, Python in the tools'
// virtualenv. Each runs on a fresh enrollment, since some remove access or close accounts. (TypeScript is also typechecked:
// this package's tsconfig includes the samples.)
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docsDir } from '@aggregation/docs';
import { documentNames, loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { artifactsDir } from '../src/paths.ts';
import { venvEnv, venvPython } from '../src/python.ts';
import { run } from '../src/run.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import { type Sandbox, sampleEnv, startSandbox } from './support/sandbox.ts';

const noCurl = skipWhenMissing('the curl samples', missingTool('curl', findToolchain()));
const noVenv = skipWhenMissing('the python samples', !existsSync(venvPython) && `no virtualenv at ${venvPython}: run npm run generate:clients`);

// curl exits non-zero on an HTTP error (and prints the body) only when asked to: ask through a .curlrc.
const curlHome = join(artifactsDir, 'curl-home');
mkdirSync(curlHome, { recursive: true });
writeFileSync(join(curlHome, '.curlrc'), '--fail-with-body\n--silent\n--show-error\n');

type Language = { id: string; ext: string; skip: string | false; command(file: string): [string, string[]] };
const languages: Language[] = [
  { id: 'curl', ext: 'sh', skip: noCurl, command: (file) => ['sh', ['-e', file]] },
  { id: 'typescript', ext: 'ts', skip: false, command: (file) => [process.execPath, [file]] },
  { id: 'python', ext: 'py', skip: noVenv, command: (file) => [venvPython, [file]] },
];

describe('code samples against the sandbox server', { concurrent: true }, () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(() => sandbox?.close());

  for (const name of documentNames) {
    for (const { operationId } of operationsOf(loadBundle(name))) {
      for (const language of languages) {
        it.skipIf(language.skip)(`${name} ${operationId} (${language.id})`, async () => {
          const shown = join(docsDir, 'samples', name, language.id, `${operationId}.${language.ext}`);
          const source = readFileSync(shown, 'utf8');
          const needs = ['TRANSACTION_ID', 'PAYMENT_ID', 'DELIVERY_ID'].filter((variable) => source.includes(variable));
          // A rollback needs an upgrade before it.
          if (operationId === 'rollBackSandboxApplicationVersion') needs.push('UPGRADE');
          const env = venvEnv({ ...(await sampleEnv(sandbox.url, needs)), BASE_URL: sandbox.url, CURL_HOME: curlHome });
          const [file, args] = language.command(shown);
          const { stdout } = await run(file, args, { env, timeoutMs: 60_000 });
          assert.ok(stdout.trim().length > 0 || operationId.startsWith('delete'), 'the sample printed nothing');
        });
      }
    }
  }
});
