// `aggregation-contract-tests webhooks --url <receiver> --secret <whsec_...>`: the receiver checks alone, against a
// receiver that is already running, with the reports of the consumer mode.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentName } from '@aggregation/openapi/contract';
import type { ConsumerReport } from '../report/types.ts';
import { writeReports } from '../report/write.ts';
import { reportDirOf } from '../run.ts';
import { newSecret } from './api.ts';
import { checkReceiver } from './receiver.ts';
import { consumerSummary, printConsumerReport } from './report.ts';
import { consumerReportOf, REPORT_FILES } from './run.ts';

export type WebhooksOptions = { url: string; secret: string; rotatedOutSecret?: string; version: DocumentName; reportDir: string };

export async function runWebhooks(options: WebhooksOptions, print: (line: string) => void): Promise<{ report: ConsumerReport; exitCode: 0 | 1 | 2 }> {
  const started = Date.now();
  const reportDir = reportDirOf(options.reportDir);
  await mkdir(reportDir, { recursive: true });
  await Promise.all(REPORT_FILES.map((name) => rm(join(reportDir, name), { force: true })));
  const outcome = await checkReceiver({
    url: options.url,
    secret: options.secret,
    rotatedOutSecret: options.rotatedOutSecret ?? newSecret(),
    version: options.version,
  });
  const report = await consumerReportOf({
    mode: 'webhooks',
    rounds: [],
    // A receiver that does not listen is a setup problem (exit 2), not a receiver that fails its checks.
    errors: outcome.errors.map((message) => ({ suite: 'receiver' as const, message })),
    receiver: outcome.errors.length ? undefined : outcome,
    options: {
      command: [],
      version: options.version,
      minCoverage: null,
      faults: [],
      faultsMustPass: false,
      webhookUrl: options.url,
      seed: 0,
      timeoutMs: 0,
    },
    api: undefined,
    started,
  });
  await writeReports(report, consumerSummary(report), reportDir);
  printConsumerReport(report, reportDir, print);
  return { report, exitCode: report.exitCode };
}
