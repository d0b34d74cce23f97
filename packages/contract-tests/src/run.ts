// One run of the contract tests: the server (given or started here), the recorder in front of it, the run's own
// sandbox application, the chosen suites side by side, then the errors check over the whole traffic, the coverage
// and the reports (junit.xml, summary.md, report.json) in the report directory.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { runArazzoSuite } from './arazzo.ts';
import { checkErrorBodies, checkHeaders, runBehaviourSuite } from './behaviour/index.ts';
import { coverageOf } from './coverage.ts';
import { runProxySuite } from './proxy.ts';
import { ensureEnv, findPython, type Python, packageDir } from './python.ts';
import { type Recorder, startRecorder } from './recorder.ts';
import { Collector, totalsOf } from './report/collect.ts';
import { coverageLine, suiteTimes, summaryMarkdown } from './report/summary.ts';
import { failureText } from './report/text.ts';
import { type ContractReport, SUITES, type SuiteId, type Testsuite } from './report/types.ts';
import { writeReports } from './report/write.ts';
import { runSchemathesisSuite } from './schemathesis.ts';
import type { RunOptions, SuiteContext, SuiteOutcome } from './suite.ts';
import { externalServer, openSandbox, type Sandbox, type Server, SetupError, startLocalServer } from './target.ts';

/** What this run writes into the report directory (removed first, so that nothing of an earlier run stays). */
const written = ['junit.xml', 'summary.md', 'report.json', 'schemathesis', 'arazzo', 'proxy'];

const suiteRunners: Record<SuiteId, (ctx: SuiteContext, behaviour: Collector) => Promise<SuiteOutcome>> = {
  behaviour: (ctx, behaviour) => runBehaviourSuite(ctx, behaviour),
  proxy: (ctx) => runProxySuite(ctx),
  schemathesis: (ctx) => runSchemathesisSuite(ctx),
  arazzo: (ctx) => runArazzoSuite(ctx),
};

/** The report directory, refused inside node_modules (it may be read-only, and reports do not belong there). */
export function reportDirOf(given: string, cwd = process.cwd()): string {
  const dir = resolve(cwd, given);
  if (dir.split(sep).includes('node_modules')) throw new SetupError(`--report-dir ${given} is inside node_modules; choose a directory of your project`);
  return dir;
}

/** The Python that runs Schemathesis, when that suite is chosen; a setup error when there is none. */
async function pythonOf(options: RunOptions): Promise<Python | undefined> {
  if (!options.suites.includes('schemathesis')) return undefined;
  const found = await findPython(options.python);
  if ('missing' in found) {
    const others = options.suites.filter((s) => s !== 'schemathesis');
    throw new SetupError(
      `Schemathesis needs Python 3.11 or newer with venv, and ${found.missing}. Install it (Debian and Ubuntu: apt-get install python3 python3-venv), ` +
        `name one with --python, or leave Schemathesis out${others.length ? ` with --only ${others.join(',')}` : ''}`,
    );
  }
  return found;
}

/** Schemathesis' environment (made on first use), once the server is known to answer. */
async function schemathesisPython(found: Python | undefined, options: RunOptions, log: (line: string) => void): Promise<string | undefined> {
  if (!found) return undefined;
  try {
    return (await ensureEnv(found, options.cacheDir, log)).python;
  } catch (error) {
    throw new SetupError(`Schemathesis could not be installed: ${(error as Error).message}`);
  }
}

export const toolVersion = async () => (JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string }).version;

export type RunResult = { report: ContractReport; exitCode: 0 | 1 | 2 };

/**
 * Runs the chosen suites. `given` is a server this process started itself (the repository's own test runs), whose
 * logged errors count; without it the server is --base-url, or @aggregation/server started here.
 */
export async function runContractTests(options: RunOptions, log: (line: string) => void, given?: Server): Promise<RunResult> {
  const started = Date.now();
  const reportDir = reportDirOf(options.reportDir);
  await mkdir(reportDir, { recursive: true });
  await Promise.all(written.map((name) => rm(join(reportDir, name), { recursive: true, force: true })));
  const foundPython = await pythonOf(options);

  const server = given ?? (options.baseUrl ? await externalServer(options.baseUrl) : await startLocalServer());
  let recorder: Recorder | undefined;
  let sandbox: Sandbox | undefined;
  const outcomes = new Map<SuiteId, SuiteOutcome>();
  const suiteDurations: ContractReport['suiteDurations'] = [];
  const behaviour = new Collector('behaviour');
  const server2 = new Collector('behaviour');
  try {
    const python = await schemathesisPython(foundPython, options, log);
    recorder = await startRecorder(server.baseUrl);
    sandbox = await openSandbox(recorder.url, options.token);
    log(
      `Contract tests against ${server.baseUrl}${server.startedHere ? ' (started here, fresh database)' : ''}: ` +
        `${sandbox.mode === 'own-application' ? 'in an application of their own' : 'with the given token, in its application'}; ` +
        `${options.suites.join(', ')}${options.quick ? ' (--quick)' : ''}; seeds ${options.seeds.join(', ')}; reports in ${reportDir}`,
    );
    const ctx: SuiteContext = {
      baseUrl: recorder.url,
      server,
      sandbox,
      options,
      reportDir,
      ...(python ? { python } : {}),
      exchanges: recorder.exchanges,
      linkOrigins: () => [server.baseUrl],
      log,
    };
    await Promise.all(
      options.suites.map(async (suite) => {
        const begun = Date.now();
        const outcome = await suiteRunners[suite](ctx, behaviour).catch(
          (error: Error): SuiteOutcome => ({ testsuites: [], skipped: [], errors: [`stopped: ${error.stack ?? error.message}`], rawOutputs: [] }),
        );
        outcomes.set(suite, outcome);
        const seconds = Math.round((Date.now() - begun) / 100) / 10;
        suiteDurations.push({ suite, seconds });
        log(`  ${suite}: done in ${seconds.toFixed(0)} s`);
      }),
    );
    if (options.suites.includes('behaviour')) {
      const secretToken = sandbox.mode === 'token' ? options.token : undefined;
      const bodies = checkErrorBodies(recorder.exchanges, behaviour, secretToken);
      const answers = checkHeaders(recorder.exchanges, behaviour, secretToken);
      for (const testsuite of behaviour.testsuites())
        testsuite.notes.push(
          `${testsuite.testcases.length} checks; ${bodies} error bodies and the headers of ${answers} answers of the whole run judged`,
        );
      outcomes.get('behaviour')!.testsuites = behaviour.testsuites();
    }
  } finally {
    await sandbox?.close().catch(() => {});
    await recorder?.close();
    await server.close();
  }
  if (server.startedHere) {
    server2.record(
      { document: CURRENT_VERSION, check: 'server: no unexpected error logged' },
      server.serverErrors.length
        ? { message: `the server logged ${server.serverErrors.length} unexpected errors:\n${server.serverErrors.slice(0, 5).join('\n')}` }
        : undefined,
    );
  }

  const coverage = coverageOf(recorder?.exchanges ?? []);
  const testsuites: Testsuite[] = SUITES.flatMap((suite) => outcomes.get(suite)?.testsuites ?? []);
  testsuites.push(...server2.testsuites().map((s) => ({ ...s, name: 'behaviour server' })));
  if (options.minCoverage !== null) {
    const gate = new Collector('behaviour');
    for (const c of coverage.filter((c) => c.operations.called > 0)) {
      gate.record(
        { document: c.document, check: `coverage: at least ${options.minCoverage} % of the documented responses observed` },
        c.responses.percent >= options.minCoverage ? undefined : { message: `${coverageLine(c)}; not observed: ${c.responses.notObserved.join(', ')}` },
      );
    }
    testsuites.push(...gate.testsuites().map((s) => ({ ...s, suite: 'coverage' as const, name: `coverage ${s.document}` })));
  }
  const all = testsuites.flatMap((s) => s.testcases);
  const errors = [...outcomes].flatMap(([suite, o]) => o.errors.map((message) => ({ suite, message })));
  const failed = all.filter((t) => t.status === 'failed').length;
  const exitCode: 0 | 1 | 2 = failed ? 1 : errors.length ? 2 : 0;
  const report: ContractReport = {
    schemaVersion: 1,
    tool: { name: '@aggregation/contract-tests', version: await toolVersion() },
    target: { baseUrl: server.baseUrl, startedHere: server.startedHere, sandbox: sandbox?.mode ?? 'token' },
    startedAt: new Date(started).toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    suiteDurations,
    options: { suites: options.suites, quick: options.quick, seeds: options.seeds, maxExamples: options.maxExamples, minCoverage: options.minCoverage },
    exitCode,
    totals: totalsOf(all),
    testsuites,
    skipped: [...outcomes].flatMap(([suite, o]) => o.skipped.map((reason) => ({ suite, reason }))),
    errors,
    coverage,
    rawOutputs: [...outcomes.values()].flatMap((o) => o.rawOutputs).sort(),
  };
  await writeReports(report, summaryMarkdown(report), reportDir);
  printReport(report, reportDir, log);
  return { report, exitCode };
}

function printReport(report: ContractReport, reportDir: string, log: (line: string) => void): void {
  for (const testsuite of report.testsuites) {
    const failed = testsuite.testcases.filter((t) => t.status === 'failed');
    const skipped = testsuite.testcases.filter((t) => t.status === 'skipped').length;
    log(
      `\n[${failed.length ? 'FAIL' : 'ok'}] ${testsuite.name}: ${testsuite.testcases.length - failed.length - skipped} of ${testsuite.testcases.length} testcases passed${skipped ? `, ${skipped} skipped` : ''}`,
    );
    for (const note of testsuite.notes) log(`  ${note}`);
    for (const testcase of failed) {
      log(`  failed: ${testcase.name}`);
      for (const failure of testcase.failures.slice(0, 1)) log(`    ${failureText(failure).replaceAll('\n', '\n    ')}`);
    }
  }
  for (const { suite, reason } of report.skipped) log(`skipped (${suite}): ${reason}`);
  for (const { suite, message } of report.errors) log(`could not run (${suite}): ${message.replaceAll('\n', '\n  ')}`);
  log('\ncoverage:');
  for (const c of report.coverage) log(`  ${coverageLine(c)}`);
  const t = report.totals;
  log(
    `\n${report.durationSeconds.toFixed(0)} s (${suiteTimes(report)}); junit.xml, summary.md, report.json and the tools' own outputs in ${reportDir}`,
  );
  if (report.errors.length) log(`${report.errors.length} tool runs could not finish (above)`);
  log(`contract-tests: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
}
