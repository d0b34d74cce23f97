// 11. Soak: the many-integrators mix (5 % payments) with events fired among it and delivered to a local receiver, at a
// steady rate for 20 minutes (2 in quick mode), against one server on SQLite and one on PostgreSQL side by side. After
// each minute of load, each server reports its memory after a full collection (test-support's measure) and its RSS;
// the kept memory's growth from the second minute to the last and the p99 latency of the last minute against the
// second's are judged. At the end every payment and event the servers acknowledged is looked for (none lost), with the
// fault suite's checks.
import { join } from 'node:path';
import { readRss } from '@aggregation/test-support';
import type { Request } from 'autocannon';
import pMap from 'p-map';
import { Acknowledged, eventsLost, paymentsLost } from '../../packages/fault-tests/src/acknowledged.ts';
import { type Child, spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import { type Enrolled, enrollMany } from '../lib/enroll.ts';
import { expectStatus } from '../lib/http.ts';
import { type LoadResult, load } from '../lib/load.ts';
import { drawMix, mixRequest } from '../lib/mix.ts';
import { benchPostgres } from '../lib/postgres.ts';
import type { Section, Table, Target } from '../lib/report.ts';
import { spawnServer } from '../lib/server-target.ts';
import { fmtInt, fmtMb, fmtMs, fmtRatio } from '../lib/stats.ts';
import type { ServerArgs, ServerInfo } from '../targets/server.ts';
import { mixSize } from './integrators.ts';

const MB = 1024 * 1024;
const MAX_GROWTH = 10 * MB;
const MAX_P99_RATIO = 1.2;
/** Requests per second offered to each server: a steady load well within what either serves, the same every minute. */
const RATE = 200;
/** Share of the requests that fire an event (`webhook.test`), delivered to the receiver. */
const EVENT_SHARE = 0.01;
const CONNECTIONS = 10;
/** How long the deliveries of the last events may take once the load has stopped. */
const DELIVERY_WAIT_MS = 120_000;

interface Minute {
  minute: number;
  load: LoadResult;
  kept: NodeJS.MemoryUsage;
  rss: number;
}

interface StoreSoak {
  store: string;
  minutes: Minute[];
  payments: { acknowledged: number; lost: string[]; listedTwice: string[] };
  events: { acknowledged: number; lost: string[] };
}

type Location = Pick<ServerArgs, 'databasePath' | 'databaseUrl'>;

export async function soak(ctx: Context): Promise<Section> {
  const minutes = ctx.options.quick ? 2 : 20;
  const baseline = ctx.options.quick ? 1 : 2;
  const notes: string[] = [];
  const found = await benchPostgres();
  // Side by side: two soaks of 20 minutes would double the full bench's longest scenario; the two servers share the
  // machine alike from the first minute to the last, so each one's last minute is compared with its own second.
  const stores: [string, () => Promise<Location>][] = [['SQLite', async () => ({ databasePath: join(ctx.workdir, 'soak.sqlite') })]];
  if ('postgres' in found) stores.push(['PostgreSQL', async () => ({ databaseUrl: await found.postgres.database() })]);
  else notes.push(`PostgreSQL was skipped: ${found.skip}`);
  try {
    const soaks = await Promise.all(stores.map(async ([store, location]) => soakStore(ctx, store, await location(), minutes)));
    const targets: Target[] = [];
    const tables: Table[] = [];
    for (const s of soaks) {
      const first = s.minutes[baseline - 1]!;
      const last = s.minutes.at(-1)!;
      const kept = (m: Minute) => m.kept.heapUsed + m.kept.external;
      const growth = kept(last) - kept(first);
      const p99Ratio = last.load.p99 / first.load.p99;
      const lost = s.payments.lost.length + s.payments.listedTwice.length + s.events.lost.length;
      tables.push({
        caption: `${s.store}: each minute's load, then the server's memory after a full collection`,
        headers: ['minute', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'RSS MB', 'heap used MB', 'external MB', 'kept MB'],
        rows: s.minutes.map((m) => [
          String(m.minute),
          fmtInt(m.load.rps),
          fmtMs(m.load.p50),
          fmtMs(m.load.p99),
          fmtInt(m.load.non2xx + m.load.errors),
          fmtMb(m.rss),
          fmtMb(m.kept.heapUsed),
          fmtMb(m.kept.external),
          fmtMb(kept(m)),
        ]),
      });
      targets.push(
        {
          name: `soak: kept memory growth from minute ${baseline} to minute ${minutes} (${s.store})`,
          value: `${fmtMb(growth)} MB (RSS ${fmtMb(last.rss - first.rss)} MB)`,
          goal: `≤ ${MAX_GROWTH / MB} MB`,
          met: growth <= MAX_GROWTH,
        },
        {
          name: `soak: p99 latency, minute ${minutes} / minute ${baseline} (${s.store})`,
          value: `${fmtRatio(p99Ratio)} (${fmtMs(last.load.p99)} / ${fmtMs(first.load.p99)} ms)`,
          goal: `≤ ${MAX_P99_RATIO}`,
          met: p99Ratio <= MAX_P99_RATIO,
        },
        {
          name: `soak: acknowledged payments and events lost (${s.store})`,
          value: `${fmtInt(lost)} (of ${fmtInt(s.payments.acknowledged)} payments and ${fmtInt(s.events.acknowledged)} events)`,
          goal: 'none',
          met: lost === 0,
        },
      );
      if (lost > 0) {
        notes.push(
          `${s.store}: payments lost ${s.payments.lost.slice(0, 5).join(', ') || 'none'}; listed twice ${s.payments.listedTwice.slice(0, 5).join(', ') || 'none'}; ` +
            `events not delivered ${s.events.lost.slice(0, 5).join(', ') || 'none'}.`,
        );
      }
      const failed = s.minutes.reduce((sum, m) => sum + m.load.non2xx + m.load.errors, 0);
      if (failed > 0)
        notes.push(`${s.store}: ${fmtInt(failed)} responses were not 2xx or failed (counted per minute above); only 2xx count in the latencies.`);
    }
    const { enrollments, pool } = mixSize(ctx.options.quick);
    notes.push(
      `Each server: ${fmtInt(enrollments)} enrollments of \`username\`, a pool of ${fmtInt(pool)} requests of the many-integrators mix (5 % payments, each with a fresh \`Idempotency-Key\`), ` +
        `${EVENT_SHARE * 100} % of the requests \`POST /sandbox/events\` (\`webhook.test\`) delivered to a local receiver that verifies each signature; ` +
        `${RATE} requests a second over ${CONNECTIONS} connections (autocannon's overall rate), read cache as shipped, webhook delivery on.`,
      `Memory after each minute: \`process.memoryUsage()\` after two full collections (\`--expose-gc\`; the second finalizes the sweep of the buffers the first freed), read while no load runs; kept = heap used + external. ` +
        `The growth is measured from minute ${baseline}: by then every request of the pool has been answered, so the read cache holds what the pool's reads can fill of it (at most its budget, 48 MiB by default) and later minutes add no new URLs.`,
      `The two servers run side by side (${stores.length === 2 ? 'both loads at once' : 'SQLite alone here'}): the soak takes ${minutes} minutes, not twice that, and each server's last minute is compared with its own minute ${baseline} under the same company.`,
    );
    return {
      title: 'Soak',
      about: `The many-integrators mix with payments and webhook deliveries, at a steady ${RATE} requests a second for ${minutes} minutes, on SQLite and PostgreSQL at once: what each server keeps, minute by minute, and whether its latency holds; at the end, every acknowledged payment and event is looked for.`,
      tables,
      targets,
      notes,
    };
  } finally {
    if ('postgres' in found) await found.postgres.stop();
  }
}

async function soakStore(ctx: Context, store: string, location: Location, minutes: number): Promise<StoreSoak> {
  const { enrollments, pool } = mixSize(ctx.options.quick);
  const receiver = await spawnChild<{ url: string; pid: number }>(new URL('../targets/receiver.ts', import.meta.url), {});
  let server: Child<ServerInfo> | undefined;
  try {
    server = await spawnServer(ctx, `soak-${store.toLowerCase()}`, { ...location, webhooks: true }, ['--expose-gc']);
    const url = server.info.url;
    ctx.log(`soak (${store}): enrolling ${fmtInt(enrollments)} integrators`);
    const enrolled = await enrollMany(url, 'username', enrollments);
    // Every enrollment is the default application's: one webhook URL for all of them.
    const headers = { authorization: enrolled[0]!.authorization, 'content-type': 'application/json' };
    const settings = await expectStatus(`${url}/sandbox/webhook`, { method: 'PUT', headers, body: JSON.stringify({ url: receiver.info.url }) }, 200);
    const secrets = (JSON.parse(Buffer.from(settings.body).toString()) as { secrets: { secret: string }[] }).secrets.map((s) => s.secret);
    await receiver.call('secrets', secrets);
    const entries = await drawMix(url, enrolled, pool);
    const told = new Acknowledged();
    const { setupRequest, onResponse } = soakRequests(enrolled, mixRequest(entries), told);

    const samples: Minute[] = [];
    for (let minute = 1; minute <= minutes; minute++) {
      const result = await load({ url, setupRequest, onResponse, connections: CONNECTIONS, rate: RATE, seconds: 60, pid: server.pid });
      // Read between the minutes: the collections pause the server while no request waits.
      const kept = await server.call<NodeJS.MemoryUsage>('keptMemory');
      samples.push({ minute, load: result, kept, rss: readRss(server.pid) });
      ctx.log(
        `soak (${store}): minute ${minute}: ${fmtInt(result.rps)} req/s, p99 ${fmtMs(result.p99)} ms, kept ${fmtMb(kept.heapUsed + kept.external)} MB, RSS ${fmtMb(readRss(server.pid))} MB`,
      );
    }

    // None lost: each account's acknowledged payments in its list, each acknowledged event at the receiver.
    const authorizationOf = new Map(enrolled.flatMap((e) => e.accounts.map((a) => [a.id, e.authorization] as const)));
    const payments = { acknowledged: told.paymentCount, lost: [] as string[], listedTwice: [] as string[] };
    await pMap(
      [...told.payments],
      async ([accountId, ids]) => {
        const listed = await expectStatus(
          `${url}/accounts/${accountId}/payments`,
          { headers: { authorization: authorizationOf.get(accountId)! } },
          200,
        );
        const stored = (JSON.parse(Buffer.from(listed.body).toString()) as { id: string }[]).map((p) => p.id);
        const checked = paymentsLost(ids, stored);
        payments.lost.push(...checked.lost);
        payments.listedTwice.push(...checked.listedTwice);
      },
      { concurrency: CONNECTIONS },
    );
    const deadline = Date.now() + DELIVERY_WAIT_MS;
    let undelivered = eventsLost(told.events, new Set(await receiver.call<string[]>('ids')));
    while (undelivered.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      undelivered = eventsLost(told.events, new Set(await receiver.call<string[]>('ids')));
    }
    return { store, minutes: samples, payments, events: { acknowledged: told.events.size, lost: undelivered } };
  } finally {
    await server?.stop();
    await receiver.stop();
  }
}

/**
 * The soak's requests: the mix, with EVENT_SHARE of them an event fired by a random enrollment; and what each 202 of
 * a payment or an event acknowledged, recorded from its body (a connection's requests go one at a time, so the
 * context that setupRequest marked is the answer's).
 */
function soakRequests(
  enrolled: Enrolled[],
  mix: Request['setupRequest'],
  told: Acknowledged,
): { setupRequest: NonNullable<Request['setupRequest']>; onResponse: NonNullable<Request['onResponse']> } {
  const paymentPath = /^\/accounts\/([^/]+)\/payments$/;
  return {
    setupRequest(request, context) {
      if (Math.random() < EVENT_SHARE) {
        const e = enrolled[Math.floor(Math.random() * enrolled.length)]!;
        context.kind = 'event';
        return {
          ...request,
          method: 'POST',
          path: '/sandbox/events',
          headers: { authorization: e.authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ type: 'webhook.test' }),
        };
      }
      const next = mix!(request, context);
      const paid = next.method === 'POST' ? paymentPath.exec(next.path ?? '') : null;
      context.kind = paid ? 'payment' : 'read';
      context.account = paid?.[1];
      return next;
    },
    onResponse(status, body, context) {
      if (status !== 202) return;
      const id = (JSON.parse(body) as { id: string }).id;
      if (context.kind === 'payment') told.payment(context.account as string, id);
      else if (context.kind === 'event') told.event(id);
    },
  };
}
