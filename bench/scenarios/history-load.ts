// 9. A large history created while others read: `history.1000000` enrolled through the sandbox API while reads
// of many integrators run; the reads' latency beside the same reads alone, and the rows per second written.
import { join } from 'node:path';
import type { Context } from '../lib/context.ts';
import { enroll, enrollMany } from '../lib/enroll.ts';
import { countTransactions } from '../lib/history-db.ts';
import { failures, interleave, type LoadResult, load, loadCells } from '../lib/load.ts';
import { randomRead } from '../lib/mix.ts';
import type { Section } from '../lib/report.ts';
import { spawnServer } from '../lib/server-target.ts';
import { fmtInt, fmtMs, fmtSeconds } from '../lib/stats.ts';

const READERS = 50;
const MAX_P99_MS = 100;

export async function historyLoad(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const rows = options.quick ? 10_000 : 1_000_000;
  const databasePath = join(ctx.workdir, 'history-load.sqlite');
  const server = await spawnServer(ctx, 'history-load-server', { databasePath });
  try {
    const readers = await enrollMany(server.info.url, 'username', READERS);
    const reads = (extra: { seconds: number; until?: Promise<unknown> }) => () =>
      load({ url: server.info.url, setupRequest: randomRead(readers), connections: options.connections, pid: server.pid, ...extra });
    ctx.log('history-load: warm-up');
    await reads({ seconds: options.warmupSeconds })();
    ctx.log(`history-load: reads alone, ${options.rounds} round(s) of ${options.seconds} s`);
    const alone = (await interleave<LoadResult>(options.rounds, { alone: reads({ seconds: options.seconds }) })).alone!;
    ctx.log(`history-load: creating history.${rows} while the reads run`);
    const creating = enroll(server.info.url, `history.${rows}`);
    // The load runs until the creation answers (capped at ten minutes).
    const during = await reads({ seconds: 600, until: creating })();
    const created = await creating;
    const written = countTransactions(databasePath, created.accounts[0]!.id);
    const notes = [failures('reads alone', alone), failures('reads during the creation', [during])].filter((note): note is string => !!note);
    notes.push(
      `Reads: ${options.connections} connections over ${READERS} enrollments of \`username\` (their accounts, an account, its balances, a page of 50 to 200 transactions), read cache as shipped. ` +
        `The creation is one \`POST /sandbox/enrollments\` with \`history.${rows}\`, which the server writes in batches, each its own commit, scoped to the new enrollment: the readers' kept responses stay valid across them.`,
    );
    return {
      title: 'A large history created while others read',
      about: `\`history.${rows}\` created through the sandbox API while integrators read: the reads' latency beside the same reads alone, and how fast the history is written meanwhile.`,
      tables: [
        {
          headers: ['reads', 'req/s', 'p50 ms', 'p99 ms', 'RSS peak MB', 'seconds'],
          rows: [
            ['alone', ...loadCells(alone), String(options.seconds)],
            [`while history.${rows} is created`, ...loadCells([during]), during.seconds.toFixed(1)],
          ],
        },
        {
          headers: ['history', 'transactions written', 'seconds', 'rows/s'],
          rows: [[`history.${rows}`, fmtInt(written), fmtSeconds(created.seconds * 1000), fmtInt(written / created.seconds)]],
        },
      ],
      targets: [
        {
          name: `reads' p99 while history.${rows} is created`,
          value: `${fmtMs(during.p99)} ms`,
          goal: `< ${MAX_P99_MS} ms`,
          met: during.p99 < MAX_P99_MS,
        },
        { name: `history.${rows} written while reads run, rows/s`, value: fmtInt(written / created.seconds), goal: 'report', met: null },
      ],
      notes,
    };
  } finally {
    await server.stop();
  }
}
