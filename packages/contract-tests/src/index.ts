// What the package exports besides its command: the shape of report.json, for code that reads it.
export type {
  ContractReport,
  DocumentCoverage,
  Failure,
  SuiteId,
  Testcase,
  TestcaseStatus,
  Testsuite,
  Totals,
} from './report/types.ts';
export { SUITES } from './report/types.ts';
