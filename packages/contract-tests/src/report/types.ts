// The shape of `report.json`: the one definition, exported from the package (`import type { ContractReport } from
// '@aggregation/contract-tests'`), from which junit.xml and summary.md are also written.

/** The suites, in the order they are reported. */
export const SUITES = ['behaviour', 'proxy', 'schemathesis', 'arazzo'] as const;
export type SuiteId = (typeof SUITES)[number];

/** The testsuites of the consumer mode (`aggregation-contract-tests consumer` and `webhooks`), in report order. */
export const CONSUMER_SUITES = ['faults', 'requests', 'command', 'receiver'] as const;
export type ConsumerSuiteId = (typeof CONSUMER_SUITES)[number];

/** What every report has, whichever mode wrote it; junit.xml is written from this. */
export type ReportCore = {
  /** Bumped when a field changes meaning or goes away. */
  schemaVersion: 1;
  tool: { name: string; version: string };
  startedAt: string;
  durationSeconds: number;
  /** 0 passed, 1 the contract was broken (or coverage is below --min-coverage), 2 usage or setup. */
  exitCode: 0 | 1 | 2;
  totals: Totals;
  /** One per suite and document, as in junit.xml. */
  testsuites: Testsuite[];
  /** What a suite could not run, with the reason (never silent). */
  skipped: { suite: SuiteId | ConsumerSuiteId; reason: string }[];
  /** A tool that could not do its job (a crash, no report written): the run then exits 2 unless a check failed. */
  errors: { suite: SuiteId | ConsumerSuiteId; message: string }[];
  coverage: DocumentCoverage[];
  /** Files of the report directory, relative to it: the raw output of each tool run. */
  rawOutputs: string[];
};

/** The report of the server mode (`aggregation-contract-tests --base-url ...`). */
export type ContractReport = ReportCore & {
  /** The server checked, and whether this run started it (`@aggregation/server` on a fresh database). */
  target: { baseUrl: string; startedHere: boolean; sandbox: 'own-application' | 'token' };
  /** How long each suite took, in the order they finished; the suites run side by side, so these overlap. */
  suiteDurations: { suite: SuiteId; seconds: number }[];
  options: { suites: SuiteId[]; quick: boolean; seeds: number[]; maxExamples: number; minCoverage: number | null };
  skipped: { suite: SuiteId; reason: string }[];
  errors: { suite: SuiteId; message: string }[];
};

/** The fault rounds of the consumer mode, in the order they run. */
export const FAULT_ROUNDS = ['rate-limit', 'server-error', 'lost-answer', 'gone', 'disconnected', 'mfa'] as const;
export type FaultRound = (typeof FAULT_ROUNDS)[number];

/** One run of the integrator's command: the clean run, or a fault round. */
export type CommandRun = {
  round: 'clean' | FaultRound;
  /** The command's exit code; null when it was ended by a signal or never started. */
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  /** Requests the command sent through the proxy. */
  requests: number;
  /** Why the command did not run or finish (not found, timed out): one line. */
  error?: string;
};

/** A defect a fault round found, judged from the wire; double payments first. */
export type Defect = { round: FaultRound | 'receiver'; kind: string; severity: 'double-payment' | 'defect'; message: string };

/** For each operation the command used: the documented answers it was exercised against, of those documented. */
export type OperationUsage = { operation: string; operationId: string; requests: number; exercised: string[]; documented: string[] };

/** The report of the consumer mode (`consumer` and `webhooks` commands), the same core as the server mode's. */
export type ConsumerReport = ReportCore & {
  mode: 'consumer' | 'webhooks';
  /** The one line that says what the run found, printed first. */
  verdict: string;
  target: { baseUrl: string; api: 'sandbox' | 'mock' | 'upstream' | 'none'; version: string; receiver?: string };
  options: {
    command: string[];
    faults: FaultRound[];
    faultsMustPass: boolean;
    minCoverage: number | null;
    seed: number;
    timeoutSeconds: number;
    webhookUrl: string | null;
  };
  runs: CommandRun[];
  defects: Defect[];
  /** Operations used out of all, per document the command called. */
  usage: { document: string; used: number; total: number; percent: number; operations: OperationUsage[] }[];
};

export type Totals = { testcases: number; passed: number; failed: number; skipped: number };

export type Testsuite = {
  /** A suite, or `coverage` for the --min-coverage testcases. */
  suite: SuiteId | ConsumerSuiteId | 'coverage';
  /** A description document (`2020-10-12`, `2019-07-01`, `sandbox`). */
  document: string;
  /** `<suite> <document>`, the testsuite's name in junit.xml. */
  name: string;
  /** What the suite checked, in numbers, one line each. */
  notes: string[];
  testcases: Testcase[];
};

export type TestcaseStatus = 'passed' | 'failed' | 'skipped';

export type Testcase = {
  /** `<operation> · <check>`, or the check alone when it is not about one operation. */
  name: string;
  /** `GET /accounts/{account_id}` (the description's path), when the testcase is about one operation. */
  operation: string | null;
  /** The check: a Schemathesis check, a Respect check, `prism validation`, or a behaviour check such as `paging: newest first`. */
  check: string;
  status: TestcaseStatus;
  /** How many requests or cases the check judged. */
  cases: number;
  /** Why it was skipped. */
  reason?: string;
  /** At most a few, each enough to reproduce it. */
  failures: Failure[];
};

export type Failure = {
  message: string;
  request?: { method: string; url: string; headers?: Record<string, string>; body?: string };
  response?: { status: number; contentType?: string; excerpt: string };
  /** A shell line that sends the same request. */
  curl?: string;
  /** The Schemathesis seed that produced it (`--seed <n>` replays it). */
  seed?: number;
  /** Where the rule stands in the description, with its words, for checks that read it. */
  rule?: string;
  /** What kind of failure it is, when a testcase gathers several (junit.xml's failure `type`; else the check). */
  kind?: string;
};

export type DocumentCoverage = {
  document: string;
  operations: { called: number; total: number; notCalled: string[] };
  /** Documented responses (operation and status) observed in any suite's traffic. */
  responses: { observed: number; total: number; percent: number; notObserved: string[] };
};
