// Command line of `npm run bench`: --quick (one short round per measurement, for CI),
// --only=reads,writes (a subset), --profile (servers under test write .cpuprofile files),
// --out=<file> (default bench/results.md; bench/results-quick.md with --quick), --server-before=<dir or git revision> (the server
// package before a change: reads, history and writes then measure it beside the current one).
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const SCENARIOS = [
  'reads',
  'history',
  'writes',
  'webhooks',
  'client',
  'integrators',
  'postgres',
  'memory',
  'history-load',
  'toolchain',
  'consumer',
  'mcp',
  'soak',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

export interface BenchOptions {
  quick: boolean;
  only: ScenarioName[];
  profile: boolean;
  out: string;
  /** A folder or git revision of the server package before a change (see lib/server-before.ts). */
  serverBeforeSpec: string | undefined;
  /** Its entry module, once prepared. */
  serverBefore: string | undefined;
  /** Rounds per measurement; the median is reported. */
  rounds: number;
  /** Seconds of load per round, and of warm-up before the first round. */
  seconds: number;
  warmupSeconds: number;
  /** Concurrent connections of the load generator. */
  connections: number;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      profile: { type: 'boolean', default: false },
      out: { type: 'string' },
      'server-before': { type: 'string' },
    },
  });
  const only = values.only
    ? values.only.split(',').map((name) => {
        if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.join(', ')}`);
        return name as ScenarioName;
      })
    : [...SCENARIOS];
  const quick = values.quick;
  return {
    quick,
    serverBeforeSpec: values['server-before'] || undefined,
    serverBefore: undefined,
    only,
    profile: values.profile,
    // A quick run is a smoke test of the benchmarks, not a measurement: it never replaces the recorded results.
    out: values.out || fileURLToPath(new URL(quick ? '../results-quick.md' : '../results.md', import.meta.url)),
    rounds: quick ? 1 : 3,
    seconds: quick ? 2 : 10,
    warmupSeconds: quick ? 1 : 3,
    connections: 10,
  };
}

/**
 * The read cache's budget the servers under test get: SANDBOX_READ_CACHE_MB when set (the server's own setting),
 * otherwise undefined (the server's default). Children inherit the bench's environment.
 */
export function readCacheMb(): number | undefined {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the bench, which turbo does not run
  const mb = Number(process.env.SANDBOX_READ_CACHE_MB);
  return mb > 0 ? mb : undefined;
}

/**
 * Seconds per round and of warm-up for the scenarios that load many targets one after another (integrators,
 * postgres): in quick mode one second each and no warm-up, so that CI's smoke run stays short.
 */
export function manyTargetTimes(options: BenchOptions): { seconds: number; warmupSeconds: number } {
  return options.quick ? { seconds: 1, warmupSeconds: 0 } : { seconds: options.seconds, warmupSeconds: options.warmupSeconds };
}
