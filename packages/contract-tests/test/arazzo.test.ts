// The Arazzo workflows name real operations of the bundles, and the runner reads Respect's report correctly.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { distDir, type OpenApiDocument, operationsOf } from '@aggregation/openapi/contract';
import { describe, test } from 'vitest';
import { parse } from 'yaml';
import { collectReport, loadFiles, mockInputs, type RespectReport, topLevel, withInstalledBundles } from '../src/arazzo.ts';
import { Collector } from '../src/report/collect.ts';

const files = await loadFiles();

test('there is a workflow file for each journey', () => {
  assert.deepEqual(
    files.map((f) => f.name),
    ['account-data', 'closed-account', 'microdeposit', 'payments'],
  );
});

for (const file of files) {
  describe(file.name, () => {
    const doc = parse(readFileSync(file.path, 'utf8')) as { sourceDescriptions: { name: string; url: string }[] };
    const sources = new Map(doc.sourceDescriptions.map((s) => [s.name, resolve(dirname(file.path), s.url)]));

    test('its source descriptions are the bundles', () => {
      for (const path of sources.values()) assert.ok(existsSync(path), `${path} exists (npm run build -w @aggregation/openapi)`);
    });

    test('every step names an operation of its source description', () => {
      for (const workflow of file.workflows) {
        for (const step of workflow.steps ?? []) {
          if (!step.operationId) continue;
          const [, source, operationId] = /^\$sourceDescriptions\.([^.]+)\.(.+)$/.exec(step.operationId) ?? [];
          const bundle = JSON.parse(readFileSync(sources.get(source!)!, 'utf8')) as OpenApiDocument;
          assert.ok(
            operationsOf(bundle).some((o) => o.operationId === operationId),
            `${step.operationId} exists`,
          );
        }
      }
    });

    test('the copy that runs names the installed bundles, whatever the directory', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'arazzo-copy-'));
      try {
        const copy = parse(readFileSync(await withInstalledBundles(file, dir), 'utf8')) as typeof doc;
        for (const source of copy.sourceDescriptions) {
          assert.equal(dirname(source.url), distDir);
          assert.ok(existsSync(source.url), source.url);
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });

    test("its sandbox users are enrolled with the run's application key", () => {
      const text = readFileSync(file.path, 'utf8');
      const enrollments = text.match(/createSandboxEnrollment/g)?.length ?? 0;
      assert.ok(enrollments > 0);
      assert.equal(text.match(/username: \$inputs\.applicationKey/g)?.length, enrollments);
    });

    test('exactly one journey runs on its own', () => {
      assert.equal(topLevel(file).length, 1);
    });

    test('the mock inputs are Prefer values for inputs the workflow declares', () => {
      const declared = new Set(file.workflows.flatMap((w) => Object.keys((w as { inputs?: { properties?: object } }).inputs?.properties ?? {})));
      for (const [name, value] of Object.entries(mockInputs(file))) {
        assert.ok(declared.has(name), `${name} is an input`);
        assert.match(value, /^(code=\d{3}|example=\w+)(, (code=\d{3}|example=\w+))*$/);
      }
    });
  });
}

test('the helper workflow that pages is not run on its own', () => {
  const accountData = files.find((f) => f.name === 'account-data')!;
  assert.deepEqual(topLevel(accountData), ['readAccountData']);
});

test("Respect's report: nested workflows are walked, each step's checks become testcases, a failure keeps its request", () => {
  const report: RespectReport = {
    status: 'error',
    files: {
      'a.arazzo.yaml': {
        totalRequests: 3,
        executedWorkflows: [
          {
            type: 'workflow',
            workflowId: 'main',
            status: 'error',
            executedSteps: [
              { type: 'step', stepId: 'one', checks: [{ name: 'schema check', passed: true, message: '' }] },
              {
                type: 'workflow',
                workflowId: 'child',
                executedSteps: [
                  {
                    type: 'step',
                    stepId: 'two',
                    request: { method: 'get', url: 'http://127.0.0.1:1/accounts' },
                    response: { statusCode: 500 },
                    checks: [{ name: 'status code check', passed: false, message: 'expected 200' }],
                  },
                ],
              },
            ],
          },
        ],
      },
    },
  };
  const collector = new Collector('arazzo');
  const result = collectReport(report, collector);
  assert.deepEqual([result.workflows, result.passed, result.steps, result.checks, result.failed, result.requests], [1, 0, 2, 2, 1, 3]);
  const testcases = collector.testsuites().flatMap((s) => s.testcases.map((t) => ({ suite: s.name, name: t.name, status: t.status })));
  assert.deepEqual(testcases, [
    { suite: 'arazzo 2020-10-12', name: 'GET / · main/one: schema check', status: 'passed' },
    { suite: 'arazzo 2020-10-12', name: 'GET /accounts · child/two: status code check', status: 'failed' },
  ]);
  const failure = collector.testsuites()[0]!.testcases[1]!.failures[0]!;
  assert.equal(failure.message, 'expected 200');
  assert.equal(failure.curl, "curl -i -X GET 'http://127.0.0.1:1/accounts'");
  assert.equal(failure.response?.status, 500);
});

test('a step sent without an absolute URL is still reported, under its path or under /', () => {
  const step = (stepId: string, url: string) => ({
    type: 'step' as const,
    stepId,
    request: { method: 'get', url },
    checks: [{ name: 'status code check', passed: false, message: 'fetch failed' }],
  });
  const report: RespectReport = {
    status: 'error',
    files: {
      'x.arazzo.yaml': {
        totalRequests: 0,
        executedWorkflows: [{ type: 'workflow', workflowId: 'w', executedSteps: [step('relative', '/accounts'), step('none', '')] }],
      },
    },
  };
  const collector = new Collector('arazzo');
  assert.equal(collectReport(report, collector).failed, 2);
  const names = collector.testsuites().flatMap((s) => s.testcases.map((t) => t.name));
  assert.deepEqual(names, ['GET /accounts · w/relative: status code check', 'GET / · w/none: status code check']);
});
