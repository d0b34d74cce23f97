// The shape of `report.json`: the one definition, exported from the package (`import type { ContractReport } from
// '@aggregation/contract-tests'`), from which junit.xml and summary.md are also written.

/** The suites, in the order they are reported. */
export const SUITES = ['behaviour', 'proxy', 'schemathesis', 'arazzo'] as const;
export type SuiteId = (typeof SUITES)[number];

export type ContractReport = {
  /** Bumped when a field changes meaning or goes away. */
  schemaVersion: 1;
  tool: { name: string; version: string };
  /** The server checked, and whether this run started it (`@aggregation/server` on a fresh database). */
  target: { baseUrl: string; startedHere: boolean; sandbox: 'own-application' | 'token' };
  startedAt: string;
  durationSeconds: number;
  /** How long each suite took, in the order they finished; the suites run side by side, so these overlap. */
  suiteDurations: { suite: SuiteId; seconds: number }[];
  options: { suites: SuiteId[]; quick: boolean; seeds: number[]; maxExamples: number; minCoverage: number | null };
  /** 0 passed, 1 the server broke the contract (or coverage is below --min-coverage), 2 usage or setup. */
  exitCode: 0 | 1 | 2;
  totals: Totals;
  /** One per suite and document, as in junit.xml. */
  testsuites: Testsuite[];
  /** What a suite could not run, with the reason (never silent). */
  skipped: { suite: SuiteId; reason: string }[];
  /** A tool that could not do its job (a crash, no report written): the run then exits 2 unless a check failed. */
  errors: { suite: SuiteId; message: string }[];
  coverage: DocumentCoverage[];
  /** Files of the report directory, relative to it: the raw output of each tool run. */
  rawOutputs: string[];
};

export type Totals = { testcases: number; passed: number; failed: number; skipped: number };

export type Testsuite = {
  /** A suite, or `coverage` for the --min-coverage testcases. */
  suite: SuiteId | 'coverage';
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
};

export type DocumentCoverage = {
  document: string;
  operations: { called: number; total: number; notCalled: string[] };
  /** Documented responses (operation and status) observed in any suite's traffic. */
  responses: { observed: number; total: number; percent: number; notObserved: string[] };
};
