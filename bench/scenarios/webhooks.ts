// 4. Webhooks: events fired through the sandbox API, stored in the outbox, delivered, signed and
// verified by a local receiver, end to end per second; against the bare limit of delivery (the
// same receiver, HTTP client, signature and concurrency, no outbox). And verifyWebhook calls/s
// against the same checks written directly with node:crypto.
import { join } from 'node:path';
import { sampleRss } from '@aggregation/test-support';
import type { Child } from '../lib/child.ts';
import { spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import { expectStatus, sendMany } from '../lib/http.ts';
import type { Section } from '../lib/report.ts';
import { spawnServers } from '../lib/server-target.ts';
import { fmtInt, fmtMb, fmtPercent, median } from '../lib/stats.ts';
import type { ReceiverStats } from '../targets/receiver.ts';
import type { ServerInfo } from '../targets/server.ts';

/** The server's default delivery concurrency (AppOptions.webhooks.concurrency). */
const DELIVERY_CONCURRENCY = 4;

export async function webhooks(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const events = options.quick ? 300 : 3000;
  const receiver = await spawnChild<{ url: string; pid: number }>(new URL('../targets/receiver.ts', import.meta.url), {});
  const { server, before } = await spawnServers(
    ctx,
    'webhooks',
    { databasePath: join(ctx.workdir, 'webhooks.sqlite'), enroll: ['username'], webhookConcurrency: DELIVERY_CONCURRENCY },
    join(ctx.workdir, 'webhooks-before.sqlite'),
  );
  const sender = await spawnChild<{ pid: number }>(new URL('../targets/bare-sender.ts', import.meta.url), {});
  const verifier = await spawnChild<{ pid: number; bytes: number }>(new URL('../targets/verify-loop.ts', import.meta.url), {});
  const notes: string[] = [];
  try {
    /** Points the server's webhooks at the receiver; returns the headers of its enrolled user and its secrets. */
    const register = async (target: Child<ServerInfo>) => {
      const headers = { authorization: target.info.enrolled[0]!.authorization, 'content-type': 'application/json' };
      await expectStatus(`${target.info.url}/sandbox/webhook`, { method: 'PUT', headers, body: JSON.stringify({ url: receiver.info.url }) }, 200);
      const settings = JSON.parse(Buffer.from((await expectStatus(`${target.info.url}/sandbox/webhook`, { headers }, 200)).body).toString()) as {
        secrets: { secret: string }[];
      };
      return { headers, secrets: settings.secrets.map((s) => s.secret) };
    };
    const current = await register(server);
    const older = before && (await register(before));
    const secrets = current.secrets;
    // Either server's signature verifies.
    await receiver.call('secrets', [...secrets, ...(older?.secrets ?? [])]);

    const waitFor = async (count: number, timeoutMs: number): Promise<ReceiverStats> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const stats = await receiver.call<ReceiverStats>('stats');
        if ((stats.verified['webhook.test'] ?? 0) >= count || Date.now() > deadline) return stats;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };

    interface Delivery {
      perSecond: number;
      firedPerSecond?: number;
      rssPeak: number;
      delivered: number;
      failed: number;
    }
    const viaServer = async (count: number, target = server, headers = current.headers): Promise<Delivery> => {
      await receiver.call('reset');
      const rss = sampleRss(target.pid);
      const started = Date.now();
      const fired = await sendMany(
        `${target.info.url}/sandbox/events`,
        { method: 'POST', headers, body: JSON.stringify({ type: 'webhook.test' }) },
        count,
        options.connections,
      );
      const stats = await waitFor(count, 120_000);
      const delivered = stats.verified['webhook.test'] ?? 0;
      return {
        perSecond: delivered / ((stats.lastAt - started) / 1000),
        firedPerSecond: fired.ok / fired.seconds,
        rssPeak: rss.stop().peak,
        delivered,
        failed: stats.failed,
      };
    };
    const bare = async (count: number): Promise<Delivery> => {
      await receiver.call('reset');
      const rss = sampleRss(sender.pid);
      const result = await sender.call<{ ok: number; seconds: number }>('send', {
        url: receiver.info.url,
        secret: secrets[0],
        count,
        concurrency: DELIVERY_CONCURRENCY,
      });
      const stats = await receiver.call<ReceiverStats>('stats');
      return { perSecond: result.ok / result.seconds, rssPeak: rss.stop().peak, delivered: stats.verified['webhook.test'] ?? 0, failed: stats.failed };
    };

    ctx.log('webhooks: warm-up');
    await viaServer(Math.min(200, events));
    if (before) await viaServer(Math.min(200, events), before, older!.headers);
    await bare(Math.min(200, events));
    ctx.log(`webhooks: ${options.rounds} round(s) of ${fmtInt(events)} events`);
    const runs: Record<string, Delivery[]> = { server: [], bare: [], ...(before ? { 'server before fixes': [] } : {}) };
    for (let round = 0; round < options.rounds; round++) {
      if (before) runs['server before fixes']!.push(await viaServer(events, before, older!.headers));
      runs.server!.push(await viaServer(events));
      runs.bare!.push(await bare(events));
    }
    for (const [name, rounds] of Object.entries(runs)) {
      for (const r of rounds) {
        if (r.delivered !== events || r.failed > 0)
          notes.push(`${name}: ${fmtInt(r.delivered)} of ${fmtInt(events)} events verified, ${r.failed} failed verification.`);
      }
    }
    const serverRate = median(runs.server!.map((r) => r.perSecond));
    const bareRate = median(runs.bare!.map((r) => r.perSecond));
    const fireRate = median(runs.server!.map((r) => r.firedPerSecond!));
    const beforeRate = before ? median(runs['server before fixes']!.map((r) => r.perSecond)) : undefined;

    ctx.log('webhooks: verifyWebhook calls per second');
    const verifySeconds = options.quick ? 1 : 3;
    const verify: Record<'client' | 'bare', number[]> = { client: [], bare: [] };
    for (let round = 0; round < options.rounds; round++) {
      for (const which of ['client', 'bare'] as const) {
        const r = await verifier.call<{ calls: number; seconds: number }>('run', { seconds: verifySeconds, which });
        verify[which].push(r.calls / r.seconds);
      }
    }
    const verifyRate = median(verify.client);
    const verifyBare = median(verify.bare);

    notes.push(
      `${fmtInt(events)} \`webhook.test\` events per round fired with ${options.connections} connections (\`POST /sandbox/events\`, ${fmtInt(fireRate)} accepted/s); ` +
        `rate = events verified by the receiver / time from the first fire to the last verification. Delivery concurrency ${DELIVERY_CONCURRENCY} (the server's default) on both rows. ` +
        `verifyWebhook: a ${fmtInt(verifier.info.bytes)}-byte transactions.processed body, one secret, ${options.rounds} round(s) of ${verifySeconds} s, sequential calls.`,
    );
    return {
      title: 'Webhooks',
      about:
        'Events delivered and verified per second, end to end: fired through the sandbox API, stored durably in the outbox, signed and POSTed by the delivery worker, verified by a local receiver with `verifyWebhook`. The limit POSTs pre-rendered signed bodies to the same receiver with the same client and concurrency. Then `verifyWebhook` alone.',
      tables: [
        {
          caption: 'Delivery to a local receiver',
          headers: ['path', 'events/s', 'fired/s', 'RSS peak MB of the sending process', 'vs limit'],
          rows: [
            ...(beforeRate === undefined
              ? []
              : [
                  [
                    'server before fixes',
                    fmtInt(beforeRate),
                    fmtInt(median(runs['server before fixes']!.map((r) => r.firedPerSecond!))),
                    fmtMb(median(runs['server before fixes']!.map((r) => r.rssPeak))),
                    fmtPercent(beforeRate / bareRate),
                  ],
                ]),
            [
              'server: outbox → worker → receiver',
              fmtInt(serverRate),
              fmtInt(fireRate),
              fmtMb(median(runs.server!.map((r) => r.rssPeak))),
              fmtPercent(serverRate / bareRate),
            ],
            ['limit: bare signed POSTs → receiver', fmtInt(bareRate), '', fmtMb(median(runs.bare!.map((r) => r.rssPeak))), '100.0 %'],
          ],
        },
        {
          caption: 'Signature verification',
          headers: ['verifier', 'calls/s', 'µs per call', 'vs node:crypto'],
          rows: [
            ['verifyWebhook (@aggregation/client, Web Crypto)', fmtInt(verifyRate), (1e6 / verifyRate).toFixed(1), fmtPercent(verifyRate / verifyBare)],
            ['node:crypto HMAC + timingSafeEqual + JSON.parse', fmtInt(verifyBare), (1e6 / verifyBare).toFixed(1), '100.0 %'],
          ],
        },
      ],
      targets: [
        {
          name: 'webhook events delivered and verified per second (reported, no goal set)',
          value: `${fmtInt(serverRate)}/s (${fmtPercent(serverRate / bareRate)} of the limit)`,
          goal: 'report',
          met: null,
        },
        {
          name: 'verifyWebhook calls per second (reported, no goal set)',
          value: `${fmtInt(verifyRate)}/s (${fmtPercent(verifyRate / verifyBare)} of node:crypto)`,
          goal: 'report',
          met: null,
        },
      ],
      notes,
    };
  } finally {
    await verifier.stop();
    await sender.stop();
    await server.stop();
    await before?.stop();
    await receiver.stop();
  }
}
