// A table of load targets compared with the limit (and a peer) both ways: the requests per second each answered,
// and the requests per second one core gives it (its 2xx responses per CPU-second of its own process). Shared by
// the scenarios that judge a target per core against the bare node:http limit replaying its bytes.
import { type LoadResult, loadCells } from './load.ts';
import type { Table } from './report.ts';
import { fmtInt, fmtPercent, fmtRatio, medianOf } from './stats.ts';

/**
 * How the tables name the limit (a bare node:net server writing the server's prepared response bytes, targets/bare-net.ts),
 * bare node:http replaying the same bytes (reported), and the peer (Prism as shipped).
 */
export const LIMIT = 'limit (bare node:net)';
export const BARE_HTTP = 'bare node:http';
export const PEER = 'peer (Prism mock)';

/** The limit's child process and bare node:http's, each replaying what it is given (`record`). */
export const LIMIT_SCRIPT = new URL('../targets/bare-net.ts', import.meta.url);
export const BARE_HTTP_SCRIPT = new URL('../targets/bare-http.ts', import.meta.url);

export const rpsOf = (rounds: LoadResult[]): number => medianOf(rounds, (r) => r.rps);
export const perCoreOf = (rounds: LoadResult[]): number => 1e6 / medianOf(rounds, (r) => r.cpuPerResponse);

export interface ExtraColumn {
  header: string;
  cell(name: string, rounds: LoadResult[]): string;
}

export function comparisonTable(
  caption: string,
  results: Record<string, LoadResult[]>,
  against: { limit: string; peer?: string },
  extra: ExtraColumn[] = [],
): Table {
  const versus = (name: string, of: string, format: (ratio: number) => string) =>
    `${format(perCoreOf(results[name]!) / perCoreOf(results[of]!))} / ${format(rpsOf(results[name]!) / rpsOf(results[of]!))}`;
  return {
    caption,
    headers: [
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      'RSS peak MB',
      'CPU µs per response',
      'req/s per core',
      'vs limit: per core / req/s',
      ...(against.peer ? ['vs Prism: per core / req/s'] : []),
      ...extra.map((column) => column.header),
    ],
    rows: Object.entries(results).map(([name, rounds]) => [
      name,
      ...loadCells(rounds),
      medianOf(rounds, (r) => r.cpuPerResponse).toFixed(1),
      fmtInt(perCoreOf(rounds)),
      versus(name, against.limit, fmtPercent),
      ...(against.peer ? [versus(name, against.peer, fmtRatio)] : []),
      ...extra.map((column) => column.cell(name, rounds)),
    ]),
  };
}
