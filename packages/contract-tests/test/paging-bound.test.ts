// Every loop driven by the server's answers is bounded: against a server that ignores `from_id` (it answers the
// first page again, whatever the cursor), the behaviour checks and the Arazzo paging workflow fail, naming the check,
// after a few pages rather than paging forever.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, test } from 'vitest';
import { mutants } from '../scripts/mutants/breaks.ts';
import { type Running, startBrokenServer } from '../scripts/mutants/proxy.ts';
import { runContractTests } from '../src/run.ts';
import { type Server, startLocalServer } from '../src/target.ts';

const ignoreFromId = mutants.find((m) => m.name === 'ignore-from-id')!;
let server: Server;
let broken: Running;
let reportDir: string;
/** The transaction list requests with a cursor that reached the broken server. */
let cursorRequests = 0;

beforeAll(async () => {
  server = await startLocalServer();
  broken = await startBrokenServer(server.baseUrl, {
    request(sent) {
      if (/\/transactions$/.test(sent.url.pathname) && sent.url.searchParams.has('from_id')) cursorRequests++;
      ignoreFromId.break.request!(sent);
    },
  });
  reportDir = await mkdtemp(join(tmpdir(), 'contract-paging-'));
});
afterAll(async () => {
  await broken?.close();
  await server?.close();
  await rm(reportDir, { recursive: true, force: true });
});

test('a server that ignores from_id fails the paging checks after a few pages', async () => {
  const { report, exitCode } = await runContractTests(
    {
      baseUrl: broken.url,
      suites: ['behaviour', 'arazzo'],
      quick: true,
      seeds: [1],
      maxExamples: 1,
      workers: 1,
      reportDir,
      minCoverage: null,
      python: 'python3',
      cacheDir: reportDir,
      webhookWaitSeconds: 60,
    },
    () => {},
  );
  assert.equal(exitCode, 1);
  const failed = report.testsuites.flatMap((s) => s.testcases.filter((t) => t.status === 'failed').map((t) => `${s.name}: ${t.name}`));
  for (const version of ['2020-10-12', '2019-07-01'])
    assert.ok(
      failed.includes(`behaviour ${version}: GET /accounts/{account_id}/transactions · paging: from_id continues strictly after that id`),
      failed.join('\n'),
    );
  assert.ok(
    failed.some((name) => /^arazzo 2020-10-12: GET \/accounts\/\{account_id\}\/transactions · pageTransactions\/cursor: success criteria/.test(name)),
    failed.join('\n'),
  );
  // Each version's behaviour checks page a list of a few dozen transactions in about five pages; the workflow stops
  // at its first repeated page. A loop would send hundreds.
  assert.ok(cursorRequests < 40, `${cursorRequests} requests with from_id`);
});
