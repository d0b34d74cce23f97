// What every suite is given and hands back.
import type { Exchange } from './recorder.ts';
import type { SuiteId, Testsuite } from './report/types.ts';
import type { Sandbox, Server } from './target.ts';

export type RunOptions = {
  baseUrl?: string;
  token?: string;
  suites: SuiteId[];
  quick: boolean;
  seeds: number[];
  maxExamples: number;
  workers: number;
  reportDir: string;
  minCoverage: number | null;
  python: string;
  cacheDir: string;
  /** Seconds to wait for the fired webhook events to arrive. */
  webhookWaitSeconds: number;
};

export type SuiteContext = {
  /** The recorder in front of the server: every suite's requests go here. */
  baseUrl: string;
  /** The server itself (links in its answers name it). */
  server: Server;
  sandbox: Sandbox;
  options: RunOptions;
  reportDir: string;
  /** The Schemathesis environment's python, when that suite runs. */
  python?: string;
  /** Every exchange so far, of every suite. */
  exchanges: Exchange[];
  /** Origins that reach the server under test (the recorder's, the server's own). */
  linkOrigins(): string[];
  log(line: string): void;
};

export type SuiteOutcome = {
  testsuites: Testsuite[];
  /** Parts not run, with the reason. */
  skipped: string[];
  /** A tool that could not do its job. */
  errors: string[];
  /** Files written into the report directory, relative to it. */
  rawOutputs: string[];
};

export const emptyOutcome = (): SuiteOutcome => ({ testsuites: [], skipped: [], errors: [], rawOutputs: [] });
