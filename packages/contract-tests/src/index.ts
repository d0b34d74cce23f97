// What the package exports besides its command: the shape of report.json, for code that reads it.
export type {
  CommandRun,
  ConsumerReport,
  ContractReport,
  Defect,
  DocumentCoverage,
  Failure,
  FaultRound,
  OperationUsage,
  ReportCore,
  SuiteId,
  Testcase,
  TestcaseStatus,
  Testsuite,
  Totals,
} from './report/types.ts';
export { CONSUMER_SUITES, FAULT_ROUNDS, SUITES } from './report/types.ts';
