// `aggregation-contract-tests webhooks --url <receiver> --secret <whsec_...>`: the receiver checks alone, against a
// receiver that is already running, with the reports of the consumer mode.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentName } from '@aggregation/openapi/contract';
import type { ConsumerReport } from '../report/types.ts';
import { writeReports } from '../report/write.ts';
import { reportDirOf, toolVersion } from '../run.ts';
import { newSecret } from './api.ts';
import { checkReceiver } from './receiver.ts';
import { consumerSummary, printConsumerReport, verdictOf } from './report.ts';
import { REPORT_FILES } from './run.ts';

export type WebhooksOptions = { url: string; secret: string; rotatedOutSecret?: string; version: DocumentName; reportDir: string };

export async function runWebhooks(options: WebhooksOptions, print: (line: string) => void): Promise<{ report: ConsumerReport; exitCode: 0 | 1 | 2 }> {
  const started = Date.now();
  const reportDir = reportDirOf(options.reportDir);
  await mkdir(reportDir, { recursive: true });
  await Promise.all(REPORT_FILES.map((name) => rm(join(reportDir, name), { force: true })));
  const outcome = await checkReceiver({ url: options.url, secret: options.secret, rotatedOutSecret: options.rotatedOutSecret ?? newSecret(), version: options.version });
  const listens = !outcome.errors.length;
  // A receiver that does not listen is a setup problem, not a receiver that fails its checks.
  const testsuites = listens ? outcome.testsuites : [];
  const all = testsuites.flatMap((s) => s.testcases);
  const failed = all.filter((t) => t.status === 'failed').length;
  const report: ConsumerReport = {
    schemaVersion: 1,
    mode: 'webhooks',
    verdict: '',
    tool: { name: '@aggregation/contract-tests', version: await toolVersion() },
    target: { baseUrl: options.url, api: 'none', version: options.version, receiver: options.url },
    startedAt: new Date(started).toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    options: { command: [], faults: [], faultsMustPass: false, minCoverage: null, seed: 0, timeoutSeconds: 0, webhookUrl: options.url },
    exitCode: listens ? (failed ? 1 : 0) : 2,
    totals: { testcases: all.length, passed: all.length - failed, failed, skipped: 0 },
    testsuites,
    skipped: [],
    errors: outcome.errors.map((message) => ({ suite: 'receiver' as const, message })),
    coverage: [],
    rawOutputs: [],
    runs: [],
    defects: [],
    usage: [],
  };
  report.verdict = verdictOf(report);
  await writeReports(report, consumerSummary(report), reportDir);
  printConsumerReport(report, reportDir, print);
  return { report, exitCode: report.exitCode };
}
