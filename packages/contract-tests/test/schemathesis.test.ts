// How a Schemathesis run becomes testcases (from its NDJSON event stream), and that its environment is pinned.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { skipWhenMissing } from '@aggregation/test-support';
import { test } from 'vitest';
import { defaultCacheDir, ensureEnv, findPython, packageDir } from '../src/python.ts';
import { Collector } from '../src/report/collect.ts';
import { collectEvents, defaultSeeds, hypothesisStorage, parseSeeds, type Run } from '../src/schemathesis.ts';

const run: Run = { name: '2020-10-12', document: '2020-10-12', token: 't', accountId: 'acc_1', seed: 7, phases: 'examples' };
const events = join(import.meta.dirname, 'fixtures', 'schemathesis-events.ndjson');

test("each case's checks become one testcase per operation and check; a failure keeps its request, answer, curl line and seed", async () => {
  const collector = new Collector('schemathesis');
  const totals = await collectEvents(events, run, collector, true);
  assert.deepEqual(totals, { cases: 3, failures: 1 });
  const [suite] = collector.testsuites();
  assert.equal(suite!.name, 'schemathesis 2020-10-12');
  const byName = new Map(suite!.testcases.map((t) => [t.name, t]));
  assert.deepEqual([...byName.keys()].sort(), [
    'GET /accounts · not_a_server_error',
    'GET /accounts · response_schema_conformance',
    'POST /accounts/{account_id}/payees · not_a_server_error',
  ]);
  const failed = byName.get('GET /accounts · response_schema_conformance')!;
  assert.equal(failed.status, 'failed');
  assert.equal(failed.cases, 2);
  const [failure] = failed.failures;
  assert.match(failure!.message, /^ST108 Response violates schema: "name" is a required property/);
  assert.equal(failure!.seed, 7);
  assert.equal(failure!.response?.excerpt, '[{"id":"acc_1"}]');
  // The token was given with --token (sanitized): the curl line reads it from the environment.
  assert.equal(failure!.curl, `curl -i -X GET -u "$AGGREGATION_TOKEN:" -H 'Service-Version: 2020-10-12' 'http://127.0.0.1:1/accounts'`);
  assert.equal(byName.get('GET /accounts · not_a_server_error')!.status, 'passed');
});

test('requirements.txt pins every package to one version', () => {
  const lines = readFileSync(join(packageDir, 'requirements.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  assert.ok(lines.some((line) => line.startsWith('schemathesis==')));
  for (const line of lines) assert.match(line, /^[A-Za-z0-9_.-]+==[0-9][\w.]*$/, line);
});

test('seeds are read from a comma-separated list, `random` drawing a fresh one', () => {
  assert.deepEqual(
    parseSeeds('20201012, 7,random', () => 42),
    [20201012, 7, 42],
  );
  assert.throws(() => parseSeeds('7,abc'), /--seed takes numbers or "random"/);
  assert.deepEqual(parseSeeds(defaultSeeds), [20201012]);
});

const found = await findPython('python3');
const noPython = skipWhenMissing("Hypothesis's storage directory", 'missing' in found && found.missing);

test.skipIf(noPython)(
  'the pinned Hypothesis keeps its files (its Unicode tables) in the cache directory given, not in the working directory',
  async () => {
    if ('missing' in found) return;
    const { python } = await ensureEnv(found, defaultCacheDir(), () => undefined);
    const scratch = await mkdtemp(join(tmpdir(), 'hypothesis-storage-'));
    try {
      const cacheDir = join(scratch, 'cache');
      const { stdout } = await promisify(execFile)(python, ['-c', 'from hypothesis.internal.charmap import charmap_file; print(charmap_file())'], {
        cwd: scratch,
        env: { ...process.env, ...hypothesisStorage(cacheDir) },
      });
      assert.ok(stdout.trim().startsWith(`${join(cacheDir, 'hypothesis', 'unicode_data')}/`), stdout);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  },
);
