// Command line of `npm run bench`: --quick (one short round per measurement, for CI),
// --only=reads,writes (a subset), --profile (servers under test write .cpuprofile files),
// --out=<file> (default bench/results.md; bench/results-quick.md with --quick), --server-before=<dir or git revision> (the server
// package before a change: reads, history and writes then measure it beside the current one).
import { fileURLToPath } from 'node:url';

export const SCENARIOS = ['reads', 'history', 'writes', 'webhooks', 'client', 'toolchain'] as const;
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
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new Error(`unknown argument ${arg}; known: --quick --only=<a,b> --profile --out=<file> --server-before=<dir|rev>`);
    flags.set(match[1]!, match[2] ?? '');
  }
  for (const name of flags.keys()) {
    if (!['quick', 'only', 'profile', 'out', 'server-before'].includes(name)) throw new Error(`unknown option --${name}`);
  }
  const quick = flags.has('quick');
  const only = flags.get('only')
    ? flags
        .get('only')!
        .split(',')
        .map((name) => {
          if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name}; known: ${SCENARIOS.join(', ')}`);
          return name as ScenarioName;
        })
    : [...SCENARIOS];
  return {
    quick,
    serverBeforeSpec: flags.get('server-before') || undefined,
    serverBefore: undefined,
    only,
    profile: flags.has('profile'),
    // A quick run is a smoke test of the benchmarks, not a measurement: it never replaces the recorded results.
    out: flags.get('out') || fileURLToPath(new URL(quick ? '../results-quick.md' : '../results.md', import.meta.url)),
    rounds: quick ? 1 : 3,
    seconds: quick ? 2 : 10,
    warmupSeconds: quick ? 1 : 3,
    connections: 10,
  };
}
