// HTTP load with autocannon: a fixed number of connections for a fixed time, counting
// responses per second and latency percentiles, while the target's RSS is sampled.
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { readCpuSeconds, sampleRss } from '@aggregation/test-support';
import autocannon, { type Request } from 'autocannon';
import { fmtInt, fmtMb, fmtMs, medianOf } from './stats.ts';

export interface LoadSpec {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Per-request mutation (e.g. a fresh Idempotency-Key). */
  setupRequest?: Request['setupRequest'];
  /** Each response's status and body, with the connection's context that setupRequest saw. */
  onResponse?: Request['onResponse'];
  connections: number;
  /** Requests per second over all connections (autocannon's overallRate); as many as answered without it. */
  rate?: number;
  seconds?: number;
  /** A fixed number of requests instead of a duration. */
  amount?: number;
  /** Stops the load when this settles (instead of after `seconds`, which then only caps it). */
  until?: Promise<unknown>;
  /** Process whose RSS is sampled during the load. */
  pid?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  responses: number;
  non2xx: number;
  errors: number;
  statusCodes: Record<string, number>;
  rssPeak: number;
  seconds: number;
  /**
   * CPU time the target process spent per 2xx response, in microseconds (NaN without a pid): its cost, whatever
   * the load generator beside it could drive.
   */
  cpuPerResponse: number;
  /** Response times of the 2xx responses in microseconds (absent where the load was not an HTTP one). */
  latency?: RecordableHistogram;
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const sampler = spec.pid ? sampleRss(spec.pid) : undefined;
  const cpuBefore = spec.pid ? readCpuSeconds(spec.pid) : Number.NaN;
  const started = performance.now();
  const instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    ...(spec.rate ? { overallRate: spec.rate } : {}),
    ...(spec.amount ? { amount: spec.amount } : { duration: spec.seconds ?? 5 }),
    timeout: 30,
    requests: [
      {
        method: spec.method ?? 'GET',
        ...(spec.headers ? { headers: spec.headers } : {}),
        ...(spec.body !== undefined ? { body: spec.body } : {}),
        ...(spec.setupRequest ? { setupRequest: spec.setupRequest } : {}),
        ...(spec.onResponse ? { onResponse: spec.onResponse } : {}),
      },
    ],
  });
  // autocannon's own histogram keeps whole milliseconds; sub-millisecond loopback latencies
  // need microseconds, so 2xx response times are recorded here too.
  const latency = createHistogram();
  instance.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latency.record(Math.max(1, Math.round(ms * 1000)));
  });
  const stop = () => instance.stop();
  // Stopped whether it succeeds or fails (the caller awaits it and sees the failure).
  spec.until?.then(stop, stop);
  const result = await instance;
  const seconds = (performance.now() - started) / 1000;
  const rss = sampler?.stop();
  const cpuSeconds = spec.pid ? readCpuSeconds(spec.pid) - cpuBefore : Number.NaN;
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(stat.count);
  const responses = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  return {
    // Only successful responses count as throughput.
    rps: result['2xx'] / (spec.amount ? seconds : result.duration),
    p50: latency.count ? latency.percentile(50) / 1000 : Number.NaN,
    p99: latency.count ? latency.percentile(99) / 1000 : Number.NaN,
    responses,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes,
    rssPeak: rss?.peak ?? Number.NaN,
    seconds: spec.amount ? seconds : result.duration,
    cpuPerResponse: (cpuSeconds / result['2xx']) * 1e6,
    latency,
  };
}

/**
 * One load split over several targets at once (e.g. two server processes on one database): each spec runs its
 * share of the connections in parallel; the result counts all of them, its latencies are those of every response,
 * and its CPU per response is the targets' CPU together over all their 2xx responses.
 */
export async function loadAll(specs: LoadSpec[]): Promise<LoadResult> {
  const parts = await Promise.all(specs.map(load));
  const ok = (r: LoadResult) => r.rps * r.seconds;
  const latency = createHistogram();
  for (const part of parts) if (part.latency) latency.add(part.latency);
  const statusCodes: Record<string, number> = {};
  for (const part of parts) for (const [code, count] of Object.entries(part.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const sum = (pick: (r: LoadResult) => number) => parts.reduce((total, r) => total + pick(r), 0);
  return {
    rps: sum((r) => r.rps),
    p50: latency.count ? latency.percentile(50) / 1000 : Number.NaN,
    p99: latency.count ? latency.percentile(99) / 1000 : Number.NaN,
    responses: sum((r) => r.responses),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    statusCodes,
    // The processes' peaks together: what the targets hold at most, on the safe side.
    rssPeak: sum((r) => r.rssPeak),
    seconds: Math.max(...parts.map((r) => r.seconds)),
    cpuPerResponse: sum((r) => r.cpuPerResponse * ok(r)) / sum(ok),
    latency,
  };
}

/** Runs each named measurement once per round, interleaved, so drift in the machine's load hits all alike. */
export async function interleave<T>(rounds: number, runs: Record<string, () => Promise<T>>): Promise<Record<string, T[]>> {
  const out: Record<string, T[]> = Object.fromEntries(Object.keys(runs).map((name) => [name, [] as T[]]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(runs)) out[name]!.push(await run());
  }
  return out;
}

/** Describes failed responses of a set of load results, for the notes under a table. */
export function failures(name: string, results: LoadResult[]): string | undefined {
  const non2xx = results.reduce((sum, r) => sum + r.non2xx, 0);
  const errors = results.reduce((sum, r) => sum + r.errors, 0);
  if (non2xx === 0 && errors === 0) return undefined;
  const codes: Record<string, number> = {};
  for (const r of results) for (const [code, count] of Object.entries(r.statusCodes)) codes[code] = (codes[code] ?? 0) + count;
  return `${name}: ${non2xx} non-2xx responses and ${errors} connection errors (status counts ${JSON.stringify(codes)}); only 2xx count as throughput.`;
}

/** The medians of a target's rounds as table cells: req/s, p50 ms, p99 ms, RSS peak MB. */
export function loadCells(rounds: LoadResult[]): string[] {
  return [
    fmtInt(medianOf(rounds, (r) => r.rps)),
    fmtMs(medianOf(rounds, (r) => r.p50)),
    fmtMs(medianOf(rounds, (r) => r.p99)),
    fmtMb(medianOf(rounds, (r) => r.rssPeak)),
  ];
}
