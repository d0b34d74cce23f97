// One consumer run: the API (sandbox, mock or --upstream) behind the recording proxy, the integrator's command run
// once clean and once per fault round (each on an enrollment of its own where the API makes them), every request
// judged against the description, every round judged from the wire, the receiver checked when --webhook-url names
// it, then the coverage and the reports. The verdict is one line, first.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentName } from '@aggregation/openapi/contract';
import { coverageOf } from '../coverage.ts';
import { type Exchange, type Interception, type Recorder, startRecorder } from '../recorder.ts';
import { Collector, totalsOf } from '../report/collect.ts';
import { curlOf, excerpt } from '../report/curl.ts';
import type { CommandRun, ConsumerReport, Defect, FaultRound, Testsuite } from '../report/types.ts';
import { writeReports } from '../report/write.ts';
import { reportDirOf, toolVersion } from '../run.ts';
import { SetupError } from '../target.ts';
import { type Api, openApi } from './api.ts';
import { runCommand } from './command.ts';
import { type FaultPlan, planOf, type RoundVerdict } from './faults.ts';
import { checkReceiver, type ReceiverOutcome, waitUntilListening } from './receiver.ts';
import { consumerSummary, printConsumerReport, usageOf, verdictOf } from './report.ts';
import { judgeRequest } from './requests.ts';

export type ConsumerOptions = {
  command: string[];
  version: DocumentName;
  upstream?: string;
  token?: string;
  reportDir: string;
  minCoverage: number | null;
  faults: FaultRound[];
  faultsMustPass: boolean;
  webhookUrl?: string;
  seed: number;
  timeoutMs: number;
};

/** What the run writes into the report directory (removed first, so that nothing of an earlier run stays). */
export const REPORT_FILES = ['junit.xml', 'summary.md', 'report.json'];

export type ConsumerResult = { report: ConsumerReport; exitCode: 0 | 1 | 2 };

export type RoundRecord = { run: CommandRun; exchanges: Exchange[]; plan?: FaultPlan; verdict?: RoundVerdict };

const failureOf = (exchange: Exchange, message: string, kind: string, rule?: string) => {
  const request = { method: exchange.method, url: exchange.url, headers: exchange.requestHeaders, body: exchange.requestBody };
  return {
    message,
    kind,
    ...(rule ? { rule } : {}),
    request,
    response: {
      status: exchange.status,
      ...(exchange.responseHeaders['content-type'] ? { contentType: exchange.responseHeaders['content-type'] } : {}),
      excerpt: excerpt(exchange.answerBody ?? ''),
    },
    curl: curlOf(request),
  };
};

/** Every request of every run against the description: a testcase per operation used (or path not documented). */
function judgeRequests(rounds: RoundRecord[]): Testsuite[] {
  const collector = new Collector('requests');
  for (const { run, exchanges } of rounds) {
    for (const exchange of exchanges) {
      const judged = judgeRequest(exchange);
      const operation = judged.operation ?? `${exchange.method} ${pathShape(exchange.path)} (not in the description)`;
      const key = { document: judged.document, operation, check: judged.operation ? 'requests keep the description' : 'undocumented request' };
      if (!judged.problems.length) collector.record(key);
      for (const problem of judged.problems)
        collector.record(
          key,
          failureOf(exchange, `${run.round} run: ${exchange.method} ${exchange.path}: ${problem.message}`, problem.rule, problem.rule),
        );
    }
  }
  // One testcase per operation, named by it alone.
  return collector
    .testsuites()
    .map((s) => ({ ...s, name: `requests ${s.document}`, testcases: s.testcases.map((t) => ({ ...t, name: t.operation ?? t.name })) }));
}

/** A path with the segments that look like ids (`acc_...`, numbers) written `{id}`: one testcase for every account's. */
const pathShape = (path: string) =>
  path
    .split('/')
    .map((segment) => (/^[a-z]+_[A-Za-z0-9]+$|^\d+$/.test(segment) ? '{id}' : segment))
    .join('/');

function judgeRounds(rounds: RoundRecord[], options: Pick<ConsumerOptions, 'faultsMustPass'>): { testsuites: Testsuite[]; defects: Defect[] } {
  const collector = new Collector('faults');
  const defects: Defect[] = [];
  for (const { run, plan, verdict } of rounds) {
    if (!plan || !verdict) continue;
    const key = { document: 'faults', operation: null, check: plan.round };
    const found = [...verdict.defects].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'double-payment' ? -1 : 1));
    for (const defect of found) {
      defects.push({ round: plan.round, ...defect });
      const exchange = verdict.exchanges[0];
      collector.record(
        key,
        exchange
          ? failureOf(exchange, `${defect.kind}: ${defect.message}`, defect.kind)
          : { message: `${defect.kind}: ${defect.message}`, kind: defect.kind },
      );
    }
    const commandPassed = run.exitCode === 0 && !run.error;
    if (!commandPassed && options.faultsMustPass) {
      const message = `the command failed in the ${plan.round} round (${run.error ?? `exit ${run.exitCode ?? run.signal}`}) and --faults-must-pass is given`;
      defects.push({ round: plan.round, kind: 'command failed', severity: 'defect', message });
      collector.record(key, { message, kind: 'command failed' });
    }
    if (!found.length && (commandPassed || !options.faultsMustPass)) collector.record(key);
    collector.note(
      'faults',
      `${plan.round}: ${plan.setUp ? `${plan.setUp}; ` : ''}${verdict.notes.join('; ')}; the command ${commandPassed ? 'passed' : `failed (${run.error ?? `exit ${run.exitCode ?? run.signal}`})`} in ${run.seconds.toFixed(1)} s`,
    );
  }
  defects.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'double-payment' ? -1 : 1));
  return { testsuites: collector.testsuites().map((s) => ({ ...s, name: 'fault rounds' })), defects };
}

function judgeCommand(clean: RoundRecord | undefined): Testsuite[] {
  const collector = new Collector('command');
  const key = { document: 'command', operation: null, check: 'the command passed (clean run)' };
  if (!clean) collector.skip(key, 'the command did not run');
  else if (clean.run.exitCode === 0 && !clean.run.error) collector.record(key);
  else
    collector.record(key, {
      message: clean.run.error ?? `the command exited ${clean.run.exitCode ?? `on ${clean.run.signal}`}`,
      kind: 'command failed',
    });
  return collector.testsuites().map((s) => ({ ...s, name: 'command' }));
}

/** Runs the command once per round through the proxy, then judges. `log` says what happens (standard error). */
export async function runConsumer(options: ConsumerOptions, log: (line: string) => void, print: (line: string) => void): Promise<ConsumerResult> {
  const started = Date.now();
  const reportDir = reportDirOf(options.reportDir);
  await mkdir(reportDir, { recursive: true });
  await Promise.all(REPORT_FILES.map((name) => rm(join(reportDir, name), { force: true })));
  const rounds: RoundRecord[] = [];
  const errors: ConsumerReport['errors'] = [];
  let receiver: ReceiverOutcome | undefined;
  let api: Api | undefined;
  let recorder: Recorder | undefined;
  let plan: FaultPlan | undefined;
  try {
    api = await openApi({
      version: options.version,
      ...(options.upstream ? { upstream: options.upstream } : {}),
      ...(options.token ? { token: options.token } : {}),
    });
    recorder = await startRecorder(api.baseUrl, {
      intercept: (exchange): Interception | undefined => plan?.intercept(exchange),
      ...(api.upstreamHeaders ? { upstreamHeaders: api.upstreamHeaders } : {}),
    });
    if (options.webhookUrl) await api.sendEventsTo(options.webhookUrl);
    log(`consumer contract tests: ${api.kind} (${options.version}) behind the proxy ${recorder.url}; command: ${options.command.join(' ')}`);
    for (const round of ['clean' as const, ...options.faults]) {
      const session = await api.session({ mfa: round === 'mfa' });
      plan =
        round === 'clean'
          ? undefined
          : planOf(round, { version: options.version, seed: options.seed, disconnectedForReal: !!session.disconnect, mfaForReal: !!session.mfa });
      if (round === 'disconnected') await session.disconnect?.();
      const paymentsBefore = round === 'lost-answer' ? await session.payments() : undefined;
      const from = recorder.exchanges.length;
      log(`consumer contract tests: ${round === 'clean' ? 'clean run' : `fault round ${round}`}`);
      let listening: Promise<ReceiverOutcome | undefined> = Promise.resolve(undefined);
      let ended = false;
      if (round === 'clean' && options.webhookUrl) {
        const url = options.webhookUrl;
        listening = waitUntilListening(url, () => ended).then((up) =>
          up ? checkReceiver({ url, secret: api!.webhookSecret, rotatedOutSecret: api!.rotatedOutSecret, version: options.version }) : undefined,
        );
      }
      const result = await runCommand(
        options.command,
        { AGGREGATION_BASE_URL: recorder.url, AGGREGATION_TOKEN: session.token, AGGREGATION_WEBHOOK_SECRET: api.webhookSecret },
        options.timeoutMs,
      );
      ended = true;
      if (round === 'clean' && options.webhookUrl) {
        receiver = await listening;
        if (!receiver) errors.push({ suite: 'receiver', message: `the receiver at ${options.webhookUrl} never listened while the command ran` });
        else for (const message of receiver.errors) errors.push({ suite: 'receiver', message });
      }
      if (result.notStarted) throw new SetupError(result.error!);
      const exchanges = recorder.exchanges.slice(from);
      const run: CommandRun = {
        round,
        exitCode: result.exitCode,
        signal: result.signal,
        seconds: result.seconds,
        requests: exchanges.length,
        ...(result.error ? { error: result.error } : {}),
      };
      const record: RoundRecord = { run, exchanges };
      if (plan) {
        record.plan = plan;
        record.verdict = plan.judge(exchanges, {
          paymentsBefore,
          paymentsAfter: round === 'lost-answer' ? await session.payments() : undefined,
          exitCode: result.exitCode,
        });
      }
      rounds.push(record);
    }
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    errors.push({ suite: 'command', message: error.message });
  } finally {
    plan = undefined;
    await recorder?.close();
    await api?.close();
  }

  const report = await consumerReportOf({ rounds, errors, receiver, options, api, started });
  await writeReports(report, consumerSummary(report), reportDir);
  printConsumerReport(report, reportDir, print);
  return { report, exitCode: report.exitCode };
}

export type ReportInput = {
  rounds: RoundRecord[];
  errors: ConsumerReport['errors'];
  receiver: ReceiverOutcome | undefined;
  options: Omit<ConsumerOptions, 'reportDir'>;
  api: Pick<Api, 'baseUrl' | 'kind'> | undefined;
  started: number;
  mode?: ConsumerReport['mode'];
};

/** The report of what the rounds recorded: requests, rounds, the command (when there is one), receiver, coverage. */
export async function consumerReportOf({ rounds, errors, receiver, options, api, started, mode = 'consumer' }: ReportInput): Promise<ConsumerReport> {
  const exchanges = rounds.flatMap((r) => r.exchanges);
  const faults = judgeRounds(rounds, options);
  const testsuites: Testsuite[] = [
    ...(faults.defects.some((d) => d.severity === 'double-payment') ? faults.testsuites : []),
    ...judgeRequests(rounds),
    ...(options.command.length ? judgeCommand(rounds.find((r) => r.run.round === 'clean')) : []),
    ...(faults.defects.some((d) => d.severity === 'double-payment') ? [] : faults.testsuites),
    ...(receiver?.testsuites ?? []),
  ];
  const usage = mode === 'webhooks' ? [] : usageOf(exchanges, options.version);
  if (options.minCoverage !== null) {
    const gate = new Collector('coverage');
    const main = usage.find((u) => u.document === options.version);
    const percent = main?.percent ?? 0;
    gate.record(
      { document: options.version, check: `coverage: at least ${options.minCoverage} % of the operations used` },
      percent >= options.minCoverage
        ? undefined
        : {
            message: `${main?.used ?? 0} of ${main?.total ?? '?'} operations used (${percent.toFixed(1)} %), under --min-coverage ${options.minCoverage}`,
            kind: 'coverage',
          },
    );
    testsuites.push(...gate.testsuites().map((s) => ({ ...s, name: `coverage ${s.document}` })));
  }
  const all = testsuites.flatMap((s) => s.testcases);
  const failed = all.filter((t) => t.status === 'failed').length;
  const exitCode: 0 | 1 | 2 = failed ? 1 : errors.length ? 2 : 0;
  const report: ConsumerReport = {
    schemaVersion: 1,
    mode,
    verdict: '',
    tool: { name: '@aggregation/contract-tests', version: await toolVersion() },
    target: {
      baseUrl: api?.baseUrl ?? '',
      api: api?.kind ?? 'none',
      version: options.version,
      ...(options.webhookUrl ? { receiver: options.webhookUrl } : {}),
    },
    startedAt: new Date(started).toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    options: {
      command: options.command,
      faults: options.faults,
      faultsMustPass: options.faultsMustPass,
      minCoverage: options.minCoverage,
      seed: options.seed,
      timeoutSeconds: options.timeoutMs / 1000,
      webhookUrl: options.webhookUrl ?? null,
    },
    exitCode,
    totals: totalsOf(all),
    testsuites,
    skipped: [],
    errors,
    coverage: coverageOf(exchanges).filter((c) => c.operations.called > 0),
    rawOutputs: [],
    runs: rounds.map((r) => r.run),
    defects: faults.defects,
    usage,
  };
  report.verdict = verdictOf(report);
  return report;
}
