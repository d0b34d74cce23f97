// `@aggregation/contract-tests/consumer`: the consumer checks from inside a test runner (vitest, jest, node:test).
// `startConsumerCheck()` starts the API (the sandbox, or the mock, or `upstream`) behind the recording proxy; the
// tests point their client at `baseUrl` with `token`; `report()` judges every request so far (and the fault, and the
// receiver when `webhookUrl` is given), `assertClean()` throws with the report's failures, `stop()` ends it all.
import { mkdir } from 'node:fs/promises';
import type { DocumentName } from '@aggregation/openapi/contract';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { type Interception, startRecorder } from '../recorder.ts';
import { failureText } from '../report/text.ts';
import type { ConsumerReport, FaultRound } from '../report/types.ts';
import { writeReports } from '../report/write.ts';
import { reportDirOf } from '../run.ts';
import { openApi } from './api.ts';
import { type FaultPlan, planOf } from './faults.ts';
import { checkReceiver, type ReceiverOutcome } from './receiver.ts';
import { consumerSummary } from './report.ts';
import { consumerReportOf, type RoundRecord } from './run.ts';

export type { ConsumerReport, Defect, FaultRound, OperationUsage } from '../report/types.ts';
export { FAULT_ROUNDS } from '../report/types.ts';

export type ConsumerCheckOptions = {
  /** The API version the requests are checked against (default the current one). */
  version?: DocumentName;
  /** A running server instead of the sandbox (or the mock); with `token` when it has no sandbox control API. */
  upstream?: string;
  token?: string;
  /** One fault round for the whole check: the proxy answers that documented failure, and `report()` judges it. */
  fault?: FaultRound;
  /** Your receiver, served by your tests: it gets the sandbox's events, and `report()` sends it the receiver checks. */
  webhookUrl?: string;
  /** Where `report()` writes junit.xml, summary.md and report.json (none unless given). */
  reportDir?: string;
  /** Fail when fewer of the version's operations were used (percent). */
  minCoverage?: number;
  /** The seed of the fault's choices. */
  seed?: number;
};

export type ConsumerCheck = {
  /** The proxy: point your client here. */
  baseUrl: string;
  token: string;
  /** The secret the API signs its events with: give it to your receiver. */
  webhookSecret: string;
  /** Judges what was sent so far; writes the reports when `reportDir` was given. */
  report(): Promise<ConsumerReport>;
  /** Throws an error holding the verdict and every failure unless the report is clean. */
  assertClean(): Promise<void>;
  stop(): Promise<void>;
};

/** What `assertClean()` throws: the report is on it. */
export class ConsumerContractError extends Error {
  readonly report: ConsumerReport;
  constructor(report: ConsumerReport) {
    const failures = report.testsuites.flatMap((s) => s.testcases.filter((t) => t.status === 'failed').flatMap((t) => t.failures.map(failureText)));
    super([report.verdict, ...failures, ...report.errors.map((e) => e.message)].join('\n\n'));
    this.name = 'ConsumerContractError';
    this.report = report;
  }
}

export async function startConsumerCheck(options: ConsumerCheckOptions = {}): Promise<ConsumerCheck> {
  const started = Date.now();
  const version = options.version ?? CURRENT_VERSION;
  const api = await openApi({
    version,
    ...(options.upstream ? { upstream: options.upstream } : {}),
    ...(options.token ? { token: options.token } : {}),
  });
  try {
    const session = await api.session({ mfa: options.fault === 'mfa' });
    const seed = options.seed ?? 20201012;
    const plan: FaultPlan | undefined = options.fault
      ? planOf(options.fault, { version, seed, disconnectedForReal: !!session.disconnect, mfaForReal: !!session.mfa })
      : undefined;
    if (options.fault === 'disconnected') await session.disconnect?.();
    const paymentsBefore = options.fault === 'lost-answer' ? await session.payments() : undefined;
    const recorder = await startRecorder(api.baseUrl, {
      intercept: (exchange): Interception | undefined => plan?.intercept(exchange),
      ...(api.upstreamHeaders ? { upstreamHeaders: api.upstreamHeaders } : {}),
    });
    if (options.webhookUrl) await api.sendEventsTo(options.webhookUrl);
    let receiver: ReceiverOutcome | undefined;
    const reportNow = async (): Promise<ConsumerReport> => {
      if (options.webhookUrl && !receiver)
        receiver = await checkReceiver({ url: options.webhookUrl, secret: api.webhookSecret, rotatedOutSecret: api.rotatedOutSecret, version });
      const exchanges = [...recorder.exchanges];
      const record: RoundRecord = {
        run: { round: options.fault ?? 'clean', exitCode: 0, signal: null, seconds: (Date.now() - started) / 1000, requests: exchanges.length },
        exchanges,
      };
      if (plan) {
        record.plan = plan;
        record.verdict = plan.judge(exchanges, {
          paymentsBefore,
          paymentsAfter: options.fault === 'lost-answer' ? await session.payments() : undefined,
          exitCode: 0,
        });
      }
      const report = await consumerReportOf({
        rounds: [record],
        errors: (receiver?.errors ?? []).map((message) => ({ suite: 'receiver' as const, message })),
        receiver: receiver?.errors.length ? undefined : receiver,
        options: {
          command: [],
          version,
          minCoverage: options.minCoverage ?? null,
          faults: options.fault ? [options.fault] : [],
          faultsMustPass: false,
          ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
          seed,
          timeoutMs: 0,
        },
        api,
        started,
      });
      if (options.reportDir) {
        const dir = reportDirOf(options.reportDir);
        await mkdir(dir, { recursive: true });
        await writeReports(report, consumerSummary(report), dir);
      }
      return report;
    };
    return {
      baseUrl: recorder.url,
      token: session.token,
      webhookSecret: api.webhookSecret,
      report: reportNow,
      async assertClean() {
        const report = await reportNow();
        if (report.exitCode !== 0) throw new ConsumerContractError(report);
      },
      async stop() {
        await recorder.close();
        await api.close();
      },
    };
  } catch (error) {
    await api.close();
    throw error;
  }
}
