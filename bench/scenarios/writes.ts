// 3. Writes: payments with idempotency keys, each durable before its 202, against a bare loop
// of durable single-row inserts into the same database file with the same pragmas.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { type Child, spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import { countRows } from '../lib/history-db.ts';
import { expectStatus } from '../lib/http.ts';
import { failures, interleave, type LoadResult, load, loadCells } from '../lib/load.ts';
import type { Section } from '../lib/report.ts';
import { spawnServers } from '../lib/server-target.ts';
import { fmtInt, fmtPercent, medianOf } from '../lib/stats.ts';
import { countSyncs, straceAvailable } from '../lib/syscalls.ts';
import type { InsertLoopResult } from '../targets/insert-loop.ts';
import type { ServerInfo } from '../targets/server.ts';

const PAYMENT = JSON.stringify({
  amount: '0.01',
  memo: 'bench',
  payee: { scheme: 'zelle', address: 'bench@example.com', name: 'Bench Payee', type: 'person' },
});

export async function writes(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const databasePath = join(ctx.workdir, 'writes.sqlite');
  const { server, before } = await spawnServers(ctx, 'writes', { databasePath, enroll: ['username'] }, join(ctx.workdir, 'writes-before.sqlite'));
  const loop = await spawnChild<{ pid: number }>(new URL('../targets/insert-loop.ts', import.meta.url), { databasePath });
  const notes: string[] = [];
  try {
    const enrolled = server.info.enrolled[0]!;
    const account = enrolled.accounts.find((a) => a.links.payments) ?? enrolled.accounts[0]!;
    const url = `${server.info.url}/accounts/${account.id}/payments`;
    const headers = { authorization: enrolled.authorization, 'content-type': 'application/json' };
    await expectStatus(url, { method: 'POST', headers: { ...headers, 'idempotency-key': randomUUID() }, body: PAYMENT }, 202);
    let accepted = 1;

    // Every request gets its own key: each one is a new payment, not a replay.
    const prefix = randomUUID();
    let sequence = 0;
    const pay = (seconds: number, other?: Child<ServerInfo>) => async (): Promise<LoadResult> => {
      const them = other?.info.enrolled[0];
      const result = await load({
        url: them ? `${other!.info.url}/accounts/${them.accounts.find((a) => a.links.payments)!.id}/payments` : url,
        method: 'POST',
        headers: them ? { ...headers, authorization: them.authorization } : headers,
        body: PAYMENT,
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': `${prefix}-${sequence++}` } }),
        connections: options.connections,
        seconds,
        pid: other?.pid ?? server.pid,
      });
      if (!other) accepted += result.statusCodes['202'] ?? 0;
      return result;
    };
    const insertLoop = (seconds: number) => async (): Promise<LoadResult> => {
      const r = await loop.call<InsertLoopResult>('run', { seconds });
      return {
        rps: r.inserts / r.seconds,
        p50: r.p50,
        p99: r.p99,
        responses: r.inserts,
        non2xx: 0,
        errors: 0,
        statusCodes: {},
        rssPeak: Number.NaN,
        seconds: r.seconds,
        cpuPerResponse: Number.NaN,
      };
    };

    ctx.log('writes: warm-up');
    await pay(options.warmupSeconds)();
    if (before) await pay(options.warmupSeconds, before)();
    await insertLoop(options.warmupSeconds)();
    ctx.log(`writes: ${options.rounds} round(s) of ${options.seconds} s`);
    const results = await interleave<LoadResult>(options.rounds, {
      ...(before ? { 'server before fixes': pay(options.seconds, before) } : {}),
      'server: POST /payments (Idempotency-Key)': pay(options.seconds),
      'baseline: bare INSERT loop': insertLoop(options.seconds),
    });

    // Every 202 must be a stored payment. A timed run ends with up to one request per connection
    // in flight: stored but never counted as answered.
    const stored = countRows(databasePath, 'payments');
    const cut = options.connections * (options.rounds + 1);
    if (stored < accepted || stored > accepted + cut)
      notes.push(`Stored payments (${fmtInt(stored)}) do not match the 202 responses (${fmtInt(accepted)}).`);
    else
      notes.push(
        `Every 202 is a stored payment: ${fmtInt(accepted)} answered 202, ${fmtInt(stored)} stored (the difference, at most one per connection per timed run, is requests in flight when a run's time was up).`,
      );

    // Syncs per payment: strace counts fsync/fdatasync while a fixed number of payments run, one at a time (each
    // synced alone) and from every connection at once (concurrent payments share commits).
    if (straceAvailable()) {
      for (const connections of [1, options.connections]) {
        const amount = 200 * connections;
        const acceptedBefore = accepted;
        const syncs = await countSyncs(server.pid, async () => {
          const r = await load({
            url,
            method: 'POST',
            headers,
            body: PAYMENT,
            setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': `${prefix}-${sequence++}` } }),
            connections,
            amount,
          });
          accepted += r.statusCodes['202'] ?? 0;
        });
        const payments = accepted - acceptedBefore;
        if (syncs !== undefined)
          notes.push(
            `Durability: ${fmtInt(syncs)} fsync/fdatasync calls by the server for ${fmtInt(payments)} payments (strace, ${connections} connection${connections === 1 ? '' : 's'}): about ${(syncs / Math.max(1, payments)).toFixed(2)} per payment.`,
          );
        else notes.push('Durability check skipped: strace could not attach.');
      }
    }

    const ours = medianOf(results['server: POST /payments (Idempotency-Key)']!, (r) => r.rps);
    const base = medianOf(results['baseline: bare INSERT loop']!, (r) => r.rps);
    for (const [name, rounds] of Object.entries(results)) {
      const failed = failures(name, rounds);
      if (failed) notes.push(failed);
    }
    notes.push(
      `Server: ${options.connections} connections, each request a new payment of 0.01 with a fresh Idempotency-Key. ` +
        'Baseline: one connection in a loop, one row per committed transaction. Both on the same file; each fsyncs its WAL per commit (synchronous=FULL). ' +
        `${options.rounds} round(s) of ${options.seconds} s, interleaved; medians.`,
    );
    return {
      title: 'Writes',
      about:
        'Payments with idempotency keys, durable before the 202 (SQLite WAL, synchronous=FULL), against a bare loop of durable single-row inserts into the same database file with the same pragmas.',
      tables: [
        {
          headers: ['writer', 'writes/s', 'p50 ms', 'p99 ms', 'RSS peak MB', 'vs baseline'],
          rows: Object.entries(results).map(([name, rounds]) => [name, ...loadCells(rounds), fmtPercent(medianOf(rounds, (r) => r.rps) / base)]),
        },
      ],
      targets: [{ name: 'payments/s vs bare durable inserts (reported, no goal set)', value: fmtPercent(ours / base), goal: 'report', met: null }],
      notes,
    };
  } finally {
    await loop.stop();
    await before?.stop();
    await server.stop();
  }
}
