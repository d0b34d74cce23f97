// A broken server of the mutation self-test: what it breaks, and the checks expected to catch it.
import type { SuiteId } from '../../src/report/types.ts';
import type { Break } from './proxy.ts';

/** `suites`: the suites of the command's run (with --quick) whose checks are expected to catch it. */
export type Mutant = { name: string; what: string; caughtBy: RegExp; suites: SuiteId[]; break: Break };
