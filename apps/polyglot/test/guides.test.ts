// Every code block of the docs' guides (apps/docs/guides) that is a program, run as the page shows it against the
// sandbox server: shell with curl, TypeScript with Node, Python in the tools' virtualenv, Go with `go run`. Each runs
// on a fresh enrollment with AGGREGATION_BASE_URL, AGGREGATION_TOKEN and ACCOUNT_ID in its environment, as the guides say; curl
// fails on an HTTP error (--fail-with-body), so a block that shows an error on purpose is marked `fails` and must.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocksOf, loadGuides, type RunnableLanguage } from '@aggregation/docs/guides';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { artifactsDir } from '../src/paths.ts';
import { venvEnv, venvPython } from '../src/python.ts';
import { RunError, run } from '../src/run.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import { buildGoPrograms, pythonPackagePath } from './support/programs.ts';
import { type Sandbox, sampleEnv, startSandbox } from './support/sandbox.ts';

const toolchain = findToolchain();
const skips: Record<RunnableLanguage, string | false> = {
  sh: skipWhenMissing("the guides' shell blocks", missingTool('curl', toolchain)),
  ts: false,
  python: skipWhenMissing("the guides' Python blocks", !existsSync(venvPython) && `no virtualenv at ${venvPython}: run npm run generate:clients`),
  go: skipWhenMissing("the guides' Go blocks", missingTool('go', toolchain)),
};
const extensions: Record<RunnableLanguage, string> = { sh: 'sh', ts: 'ts', python: 'py', go: 'go' };
const commands: Record<RunnableLanguage, (file: string) => [string, string[]]> = {
  sh: (file) => ['sh', ['-e', file]],
  ts: (file) => [process.execPath, [file]],
  python: (file) => [venvPython, [file]],
  // Built before they run, all in one module with the Go client (see below).
  go: (file) => [file, []],
};

// curl exits non-zero on an HTTP error (printing the body) only when asked to: ask through a .curlrc.
const curlHome = join(artifactsDir, 'guides-curl-home');
mkdirSync(curlHome, { recursive: true });
writeFileSync(join(curlHome, '.curlrc'), '--fail-with-body\n--show-error\n');

const blocks = loadGuides()
  .flatMap(codeBlocksOf)
  .filter((block) => block.runnable);

describe("the guides' code against the sandbox server", { concurrent: true }, () => {
  let sandbox: Sandbox;
  let goBinaries: Record<string, string> = {};
  let pythonPath = '';
  beforeAll(async () => {
    sandbox = await startSandbox();
    if (!skips.python) pythonPath = pythonPackagePath('guides');
    // The Go blocks use aggregation.example/client: one module build for all of them.
    const goBlocks = blocks.filter((block) => block.language === 'go');
    if (!skips.go && goBlocks.length > 0) {
      goBinaries = await buildGoPrograms(
        toolchain.go!,
        'guides',
        Object.fromEntries(goBlocks.map((block) => [`${block.guide}-line-${block.line}`, block.source])),
      );
    }
  });
  afterAll(() => sandbox?.close());

  it('the guides have programs in every language', () => {
    assert.deepEqual([...new Set(blocks.map((block) => block.language))].sort(), ['go', 'python', 'sh', 'ts']);
  });

  for (const block of blocks) {
    const language = block.language as RunnableLanguage;
    it.skipIf(skips[language])(`${block.guide}.md:${block.line} (${language})`, async () => {
      // Inside the repository, so that TypeScript finds @aggregation/client as a reader's project would.
      const file = join(artifactsDir, 'guides', block.guide, `line-${block.line}.${extensions[language]}`);
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, block.source);
      const env = venvEnv({ ...(await sampleEnv(sandbox.url)), AGGREGATION_BASE_URL: sandbox.url, CURL_HOME: curlHome, PYTHONPATH: pythonPath });
      const program = language === 'go' ? goBinaries[`${block.guide}-line-${block.line}`]! : file;
      const running = run(...commands[language](program), { env, timeoutMs: 120_000 });
      if (block.fails) {
        await assert.rejects(running, (error: unknown) => error instanceof RunError && /"error"/.test(error.stdout));
        return;
      }
      const { stdout } = await running;
      assert.ok(stdout.trim().length > 0, 'the block printed nothing');
    });
  }
});
