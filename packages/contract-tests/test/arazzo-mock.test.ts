// The Arazzo workflows themselves hold against the description: each runs against the Prism mock of 2020-10-12 and of
// the sandbox document, whose answers are the documented examples (a workflow's `x-mock-inputs` pick the error answers
// with `Prefer`; paging stops after the first page, which the examples keep short).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Running, startMock } from '@aggregation/mock';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { childrenExitWithParent } from '@aggregation/test-support';
import { afterAll, beforeAll, test } from 'vitest';
import { loadFiles, mockInputs, runWorkflows } from '../src/arazzo.ts';

// The mocks' Prism processes (and Respect's) end with this test process, however it ends.
childrenExitWithParent();

const mocks: Running[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'arazzo-mock-'));
  mocks.push(await startMock({ version: CURRENT_VERSION }), await startMock({ version: 'sandbox' }));
});

afterAll(async () => {
  await Promise.all(mocks.map((mock) => mock.stop()));
  await rm(dir, { recursive: true, force: true });
});

test('every workflow passes against the mock', async () => {
  const files = await loadFiles();
  const { collector, outcome, tally } = await runWorkflows(
    files,
    { api: mocks[0]!.url, sandbox: mocks[1]!.url },
    (file) => ({ ...mockInputs(file), applicationKey: 'test_app_key_mock' }),
    dir,
    'mock',
  );
  assert.deepEqual(outcome.errors, []);
  const failed = collector
    .testsuites()
    .flatMap((s) => s.testcases.filter((t) => t.status === 'failed').map((t) => `${t.name}: ${t.failures[0]?.message}`));
  assert.deepEqual(failed, []);
  assert.equal(tally.passed, tally.workflows);
  assert.equal(tally.workflows, files.length);
});
