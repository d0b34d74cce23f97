// 11. Consumer contract tests: what `aggregation-contract-tests consumer` costs an integrator's CI. The run overhead
// is a clean consumer run of the reference integration (the built command as users run it: the sandbox started on a
// fresh database, its application and enrollment, the proxy, the reports) against the same command alone against a
// running sandbox, median of the rounds; the proxy's latency is a load of `GET /accounts` on one connection through the
// recording proxy against the same load straight at the server, the two in one process as in a run, p99 of each,
// interleaved.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import { enroll } from '../lib/enroll.ts';
import { interleave, type LoadResult, load } from '../lib/load.ts';
import type { Section } from '../lib/report.ts';
import { fmtMs, median } from '../lib/stats.ts';

const packageDir = fileURLToPath(new URL('../../packages/contract-tests/', import.meta.url));
const cli = join(packageDir, 'dist', 'cli.js');
const app = join(packageDir, 'reference', 'app.js');
/** The goals of the issue: a clean run at most 5 s over the command alone; at most 2 ms more at p99 through the proxy. */
const OVERHEAD_GOAL_S = 5;
const P99_GOAL_MS = 2;

const run = promisify(execFile);

async function seconds(file: string, args: string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  await run(file, args, { env: { ...process.env, GITHUB_STEP_SUMMARY: '', ...env }, maxBuffer: 16 * 1024 * 1024 });
  return (performance.now() - t0) / 1000;
}

export async function consumer(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const rounds = Math.max(3, options.rounds);
  // The sandbox and its recording proxy in one process, as a consumer run has them.
  const api = await spawnChild<{ server: string; proxy: string; authorization: string; pid: number }>(
    new URL('../targets/consumer-proxy.ts', import.meta.url),
    {},
    {
      execArgv: ctx.execArgv('consumer'),
    },
  );
  const reports = await mkdtemp(join(ctx.workdir, 'consumer-reports-'));
  const notes: string[] = [];
  try {
    ctx.log(`consumer: ${rounds} rounds of the reference integration, alone and under the consumer contract tests`);
    const times = await interleave(rounds, {
      alone: async () => {
        const { token } = await enroll(api.info.server, 'username');
        return seconds(process.execPath, [app], { AGGREGATION_BASE_URL: api.info.server, AGGREGATION_TOKEN: token });
      },
      checked: () => seconds(process.execPath, [cli, 'consumer', '--report-dir', reports, '--', process.execPath, app], {}),
    });
    const alone = median(times.alone!);
    const checked = median(times.checked!);
    const overhead = checked - alone;

    ctx.log('consumer: GET /accounts straight at the server and through the recording proxy');
    const headers = { authorization: api.info.authorization };
    // One connection: a command sends its requests one after another, and what the proxy adds to each is the question
    // (a saturating load would measure the queue in front of whichever process is slower, not the proxy's cost).
    const spec = { headers, connections: 1, seconds: options.quick ? 1 : options.seconds };
    await load({ ...spec, url: `${api.info.server}/accounts`, seconds: options.quick ? 1 : options.warmupSeconds });
    await load({ ...spec, url: `${api.info.proxy}/accounts`, seconds: options.quick ? 1 : options.warmupSeconds });
    await api.call('recorded');
    const loads = await interleave<LoadResult>(options.rounds, {
      direct: () => load({ ...spec, url: `${api.info.server}/accounts`, pid: api.pid }),
      proxied: async () => {
        const result = await load({ ...spec, url: `${api.info.proxy}/accounts`, pid: api.pid });
        const recorded = await api.call<number>('recorded');
        if (recorded < result.responses) notes.push(`the proxy recorded ${recorded} exchanges of ${result.responses} responses`);
        return result;
      },
    });
    const p99 = (results: LoadResult[]) => median(results.map((r) => r.p99));
    const added = p99(loads.proxied!) - p99(loads.direct!);
    for (const [name, results] of Object.entries(loads))
      for (const r of results) if (r.non2xx || r.errors) notes.push(`${name}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    return {
      title: 'Consumer contract tests',
      about:
        "A clean `aggregation-contract-tests consumer -- node reference/app.js` (the built command, starting the sandbox on a fresh database with an application and an enrollment of its own, the proxy, and writing the reports) against the same `node reference/app.js` alone against a running sandbox; and `GET /accounts` straight at the server and through the consumer mode's recording proxy (in the server's process, as a consumer run has them), on one connection as a command sends its requests, interleaved rounds.",
      tables: [
        {
          headers: ['run', 'median', 'rounds'],
          rows: [
            ['the command alone', `${alone.toFixed(2)} s`, times.alone!.map((s) => s.toFixed(2)).join(', ')],
            ['under consumer (clean run)', `${checked.toFixed(2)} s`, times.checked!.map((s) => s.toFixed(2)).join(', ')],
          ],
        },
        {
          headers: ['GET /accounts', 'requests/s', 'p50 (ms)', 'p99 (ms)'],
          rows: Object.entries(loads).map(([name, results]) => [
            name === 'direct' ? 'straight at the server' : 'through the recording proxy',
            Math.round(median(results.map((r) => r.rps))).toLocaleString('en-US'),
            fmtMs(median(results.map((r) => r.p50))),
            fmtMs(p99(results)),
          ]),
        },
      ],
      targets: [
        { name: 'consumer run overhead', value: `${overhead.toFixed(2)} s`, goal: `≤ ${OVERHEAD_GOAL_S} s`, met: overhead <= OVERHEAD_GOAL_S },
        { name: 'consumer proxy p99 added', value: `${fmtMs(added)} ms`, goal: `≤ ${P99_GOAL_MS} ms`, met: added <= P99_GOAL_MS },
      ],
      notes: [...new Set(notes)],
    };
  } finally {
    await rm(reports, { recursive: true, force: true });
    await api.stop();
  }
}
