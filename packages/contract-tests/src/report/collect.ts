// Gathers a suite's testcases as its checks run: one testcase per document, operation and check, whatever the number
// of requests or cases behind it. A testcase fails when any of its cases failed; it keeps the first few failures.
import type { Failure, Testcase, Testsuite, Totals } from './types.ts';

/** Failures kept per testcase: enough to reproduce, few enough to read. */
const KEPT_FAILURES = 3;

export type CheckKey = { document: string; operation?: string | null; check: string };

export class Collector {
  private readonly suites = new Map<string, Testsuite>();

  readonly suite: Testsuite['suite'];

  constructor(suite: Testsuite['suite']) {
    this.suite = suite;
  }

  private testsuite(document: string): Testsuite {
    let found = this.suites.get(document);
    if (!found) {
      found = { suite: this.suite, document, name: `${this.suite} ${document}`, notes: [], testcases: [] };
      this.suites.set(document, found);
    }
    return found;
  }

  private testcase(key: CheckKey): Testcase {
    const suite = this.testsuite(key.document);
    const operation = key.operation ?? null;
    let found = suite.testcases.find((t) => t.operation === operation && t.check === key.check);
    if (!found) {
      const name = operation ? `${operation} · ${key.check}` : key.check;
      found = { name, operation, check: key.check, status: 'skipped', cases: 0, failures: [] };
      suite.testcases.push(found);
    }
    return found;
  }

  /** One case of a check: passed, or failed with what reproduces it. */
  record(key: CheckKey, failure?: Failure, cases = 1): void {
    const testcase = this.testcase(key);
    testcase.cases += cases;
    if (failure) {
      testcase.status = 'failed';
      delete testcase.reason;
      if (testcase.failures.length < KEPT_FAILURES) testcase.failures.push(failure);
    } else if (testcase.status === 'skipped') {
      testcase.status = 'passed';
      delete testcase.reason;
    }
  }

  /** A check that could not run here, with the reason; a later case of it still counts. */
  skip(key: CheckKey, reason: string): void {
    const testcase = this.testcase(key);
    if (testcase.status === 'skipped') testcase.reason = reason;
  }

  note(document: string, line: string): void {
    this.testsuite(document).notes.push(line);
  }

  failed(): boolean {
    return [...this.suites.values()].some((s) => s.testcases.some((t) => t.status === 'failed'));
  }

  testsuites(): Testsuite[] {
    return [...this.suites.values()];
  }
}

/** The report's totals of its testcases. */
export function totalsOf(testcases: Testcase[]): Totals {
  const count = (status: Testcase['status']) => testcases.filter((t) => t.status === status).length;
  return { testcases: testcases.length, passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
}
