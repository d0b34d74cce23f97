// The reports: junit.xml as CI reads it (a testsuite per suite and document, a testcase per operation and check, the
// failure's reproduction), summary.md's tables, and text no XML parser refuses.
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { test } from 'vitest';
import { Collector } from '../src/report/collect.ts';
import { curlOf } from '../src/report/curl.ts';
import { junitXml } from '../src/report/junit.ts';
import { summaryMarkdown } from '../src/report/summary.ts';
import type { ContractReport } from '../src/report/types.ts';

function reportOf(collector: Collector): ContractReport {
  const testsuites = collector.testsuites();
  const all = testsuites.flatMap((s) => s.testcases);
  return {
    schemaVersion: 1,
    tool: { name: '@aggregation/contract-tests', version: '0.1.0' },
    target: { baseUrl: 'http://127.0.0.1:1', startedHere: false, sandbox: 'own-application' },
    startedAt: '2026-01-01T00:00:00.000Z',
    durationSeconds: 12,
    suiteDurations: [{ suite: 'behaviour', seconds: 11.4 }],
    options: { suites: ['behaviour'], quick: false, seeds: [7], maxExamples: 10, minCoverage: null },
    exitCode: 1,
    totals: { testcases: all.length, passed: 1, failed: 1, skipped: 1 },
    testsuites,
    skipped: [{ suite: 'proxy', reason: 'not with --quick' }],
    errors: [],
    coverage: [
      { document: '2020-10-12', operations: { called: 2, total: 15 }, responses: { observed: 41, total: 52, percent: 78.846, notObserved: [] } },
    ].map((c) => ({ ...c, operations: { ...c.operations, notCalled: [] } })),
    rawOutputs: [],
  };
}

const collector = new Collector('behaviour');
collector.record({ document: '2020-10-12', operation: 'GET /accounts', check: 'links: self returns the resource that carried it' });
const request = { method: 'GET', url: 'http://127.0.0.1:1/accounts?count=1', headers: { 'service-version': '2020-10-12' } };
collector.record(
  { document: '2020-10-12', operation: 'GET /accounts/{account_id}/transactions', check: 'paging: count honoured' },
  { message: 'count=1 answered 200 with 3 transactions\u0000', request, response: { status: 200, excerpt: '[1,2,3]' }, curl: curlOf(request), seed: 7 },
);
collector.skip({ document: 'sandbox', check: 'paging: newest first' }, 'no transactions');
const report = reportOf(collector);

test('junit.xml: a testsuite per suite and document, a testcase per operation and check, the failure with its reproduction', () => {
  const xml = junitXml(report);
  const parsed = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => ['testsuite', 'testcase', 'failure'].includes(name),
  }).parse(xml) as {
    testsuites: {
      tests: string;
      failures: string;
      testsuite: { name: string; tests: string; testcase: { name: string; failure?: { message: string; '#text': string }[]; skipped?: unknown }[] }[];
    };
  };
  assert.equal(parsed.testsuites.tests, '3');
  assert.equal(parsed.testsuites.failures, '1');
  assert.deepEqual(
    parsed.testsuites.testsuite.map((s) => [s.name, s.testcase.map((t) => t.name)]),
    [
      [
        'behaviour 2020-10-12',
        ['GET /accounts · links: self returns the resource that carried it', 'GET /accounts/{account_id}/transactions · paging: count honoured'],
      ],
      ['behaviour sandbox', ['paging: newest first']],
    ],
  );
  const failure = parsed.testsuites.testsuite[0]!.testcase[1]!.failure![0]!;
  assert.equal(failure.message, 'count=1 answered 200 with 3 transactions\\u0000');
  assert.match(failure['#text'], /Request: GET http:\/\/127\.0\.0\.1:1\/accounts\?count=1/);
  assert.match(failure['#text'], /Answer: 200\nAnswer body: \[1,2,3\]/);
  assert.match(failure['#text'], /Reproduce: curl -i -X GET -H 'service-version: 2020-10-12' 'http:\/\/127\.0\.0\.1:1\/accounts\?count=1'/);
  assert.match(failure['#text'], /Seed: 7/);
  assert.ok(parsed.testsuites.testsuite[1]!.testcase[0]!.skipped !== undefined);
});

test('summary.md: the coverage and a table per suite, then each failure', () => {
  const summary = summaryMarkdown(report);
  assert.match(summary, /^# Contract tests failed/);
  assert.match(summary, /\| 2020-10-12 \| 2 of 15 \| 41 of 52 \(78\.8 %\) \|/);
  assert.match(summary, /Time per suite, side by side: behaviour 11 s\./);
  assert.match(summary, /## behaviour\n\n\| document \| testcases \| passed \| failed \| skipped \| what was checked \|/);
  assert.match(summary, /\| 2020-10-12 \| 2 \| 1 \| 1 \| 0 \|/);
  assert.match(summary, /### behaviour 2020-10-12: GET \/accounts\/\{account_id\}\/transactions · paging: count honoured/);
  assert.match(summary, /- proxy: not with --quick/);
});

test('curl lines quote what the shell would read', () => {
  assert.equal(
    curlOf({ method: 'post', url: "http://h/x?a=1&b='", headers: { 'Content-Type': 'application/json', 'Content-Length': '9' }, body: `{"a":"it's"}` }),
    `curl -i -X POST -H 'Content-Type: application/json' --data-raw '{"a":"it'\\''s"}' 'http://h/x?a=1&b='\\'''`,
  );
});
