// Every code block of the docs' guides (apps/docs/guides) that is a program, run as the page shows it against the
// sandbox server: shell with curl (one `sh` each), and TypeScript, Python and Go each language's blocks in one
// process (see support/programs.ts). Each runs on a fresh enrollment with AGGREGATION_BASE_URL, AGGREGATION_TOKEN and
// ACCOUNT_ID in its environment, as the guides say; curl fails on an HTTP error (--fail-with-body), so a block that
// shows an error on purpose is marked `fails` and must.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocksOf, loadGuides, type RunnableLanguage } from '@aggregation/docs/guides';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { artifactsDir } from '../src/paths.ts';
import { venvEnv, venvPython } from '../src/python.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import type { Outcome } from './support/in-one-process.ts';
import {
  programsOf,
  pythonPackagePath,
  runGoPrograms,
  runPythonPrograms,
  runShellPrograms,
  runTypescriptPrograms,
  type Source,
} from './support/programs.ts';
import { type Sandbox, sampleEnv, startSandbox } from './support/sandbox.ts';

const toolchain = findToolchain();
const skips: Record<RunnableLanguage, string | false> = {
  sh: skipWhenMissing("the guides' shell blocks", missingTool('curl', toolchain)),
  ts: false,
  python: skipWhenMissing("the guides' Python blocks", !existsSync(venvPython) && `no virtualenv at ${venvPython}: run npm run generate:clients`),
  go: skipWhenMissing("the guides' Go blocks", missingTool('go', toolchain)),
};
const runners: Record<RunnableLanguage, (programs: Source[], env: NodeJS.ProcessEnv) => Promise<Map<string, Outcome>>> = {
  sh: (programs, env) => runShellPrograms('guides-sh', programs, { env }),
  ts: (programs, env) => runTypescriptPrograms('guides-ts', programs, { env }),
  python: (programs, env) => runPythonPrograms(venvPython, 'guides-python', programs, { env: { ...env, PYTHONPATH: pythonPackagePath('guides') } }),
  go: (programs, env) => runGoPrograms(toolchain.go!, 'guides-go', programs, { env }),
};

// curl exits non-zero on an HTTP error (printing the body) only when asked to: ask through a .curlrc.
const curlHome = join(artifactsDir, 'guides-curl-home');
mkdirSync(curlHome, { recursive: true });
writeFileSync(join(curlHome, '.curlrc'), '--fail-with-body\n--show-error\n');

const blocks = loadGuides()
  .flatMap(codeBlocksOf)
  .filter((block) => block.runnable);
const nameOf = (block: (typeof blocks)[number]) => `${block.guide}-line-${block.line}`;

// Every test of a language waits for its language's one run; a block that hangs fails on its own (in-one-process.ts).
const waitForRunMs = 20 * 60_000;

describe("the guides' code against the sandbox server", { concurrent: true }, () => {
  let sandbox: Sandbox;
  const runs = new Map<RunnableLanguage, Promise<Map<string, Outcome>>>();
  beforeAll(async () => {
    sandbox = await startSandbox();
    const env = venvEnv({ AGGREGATION_BASE_URL: sandbox.url, CURL_HOME: curlHome });
    for (const language of Object.keys(runners) as RunnableLanguage[]) {
      if (skips[language]) continue;
      const running = programsOf(
        blocks.filter((block) => block.language === language),
        async (block) => ({ name: nameOf(block), source: block.source, env: await sampleEnv(sandbox.url) }),
      ).then((programs) => runners[language](programs, env));
      // Each test of the language awaits it, and fails with its error.
      running.catch(() => {});
      runs.set(language, running);
    }
  });
  afterAll(() => sandbox?.close());

  it('the guides have programs in every language', () => {
    assert.deepEqual([...new Set(blocks.map((block) => block.language))].sort(), ['go', 'python', 'sh', 'ts']);
  });

  for (const block of blocks) {
    const language = block.language as RunnableLanguage;
    it.skipIf(skips[language])(
      `${block.guide}.md:${block.line} (${language})`,
      async () => {
        const outcome = (await runs.get(language)!).get(nameOf(block));
        assert.ok(outcome, 'the block was not run');
        if (block.fails) {
          assert.ok(!outcome.ok && /"error"/.test(outcome.output), `the block should fail with an error body:\n${outcome.output}`);
          return;
        }
        assert.ok(outcome.ok, `the block failed: ${outcome.error}\n--- its output\n${outcome.output}`);
        assert.ok(outcome.output.trim().length > 0, 'the block printed nothing');
      },
      waitForRunMs,
    );
  }
});
