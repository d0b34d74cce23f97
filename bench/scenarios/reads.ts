// 1. Reads: the server (authentication, validation, storage on) against the limit (a bare node:net server writing
// the server's own response bytes, prepared in memory), bare node:http replaying them, and the peer (the Prism mock
// of the same operation).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type JsonObject, loadBundle, type OpenApiDocument } from '@aggregation/openapi/contract';
import { spawnChild } from '../lib/child.ts';
import { BARE_HTTP, BARE_HTTP_SCRIPT, comparisonTable, LIMIT, LIMIT_SCRIPT, PEER, perCoreOf, rpsOf } from '../lib/compare.ts';
import type { Context } from '../lib/context.ts';
import { checkingAccount } from '../lib/enroll.ts';
import { expectStatus } from '../lib/http.ts';
import { failures, interleave, type LoadResult, load } from '../lib/load.ts';
import { type Peer, startPeer } from '../lib/peer.ts';
import type { Section, Table, Target } from '../lib/report.ts';
import { spawnServer, spawnServers } from '../lib/server-target.ts';
import { fmtInt, fmtPercent, fmtRatio } from '../lib/stats.ts';
import type { Enrolled } from '../targets/server.ts';

const LIMIT_SHARE = 0.5;
const SAME_BYTES_PEER = "peer (Prism mock answering the server's body)";
const PEER_MULTIPLE = 10;
const UNCACHED = 'server, read cache off';
/** What a page of 100 transactions rendered by the handlers (not replayed) must reach of the limit, per core. */
const FRESH_PAGE_SHARE = 0.2;

export async function reads(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const { server, before } = await spawnServers(
    ctx,
    'reads',
    { databasePath: join(ctx.workdir, 'reads.sqlite'), enroll: ['username'] },
    join(ctx.workdir, 'reads-before.sqlite'),
  );
  // The same server with every read rendered by the handlers: what a request costs when it misses.
  const uncached = await spawnServer(ctx, 'reads-server-uncached', {
    databasePath: join(ctx.workdir, 'reads-uncached.sqlite'),
    enroll: ['username'],
    readCache: false,
  });
  const bare = await spawnChild<{ url: string; pid: number }>(LIMIT_SCRIPT, {});
  const bareHttp = await spawnChild<{ url: string; pid: number }>(BARE_HTTP_SCRIPT, {});
  const floor = await spawnChild<{ url: string; pid: number }>(new URL('../targets/hono-floor.ts', import.meta.url), {});
  const prism = await startPeer({ version: '2020-10-12' });
  let sameBytesPrism: Peer | undefined;
  try {
    const enrolled = server.info.enrolled[0]!;
    const headers = { authorization: enrolled.authorization };
    // renderedShare: what the server rendering every read (read cache off) must reach of the limit, per core.
    const operations = [
      {
        name: 'GET /accounts',
        template: '/accounts',
        path: '/accounts',
        of: (_e: Enrolled) => '/accounts',
        renderedShare: 0.5,
        freshTarget: undefined,
      },
      {
        name: 'GET /accounts/:id/transactions?count=100',
        renderedShare: 0.3,
        freshTarget: 'transactions page rendered fresh / limit',
        template: '/accounts/{account_id}/transactions',
        path: `/accounts/${checkingAccount(enrolled.accounts).id}/transactions?count=100`,
        of: (e: Enrolled) => `/accounts/${checkingAccount(e.accounts).id}/transactions?count=100`,
      },
    ];

    // The limit answers with exactly the bytes the server sent.
    const recorded = Object.fromEntries(
      await Promise.all(operations.map(async (op) => [op.path, await expectStatus(server.info.url + op.path, { headers }, 200)] as const)),
    );
    await bare.call('record', recorded);
    await bareHttp.call('record', recorded);
    await floor.call('record', recorded);
    // Prism answers the description's examples, smaller than the server's page: a second Prism answers the
    // server's own bodies, so that the two are compared on the same work on the wire too.
    const document = join(ctx.workdir, 'reads-same-bodies.json');
    writeFileSync(document, JSON.stringify(withRecordedExamples(operations.map((op) => ({ template: op.template, body: recorded[op.path]!.body })))));
    sameBytesPrism = await startPeer({ document });
    const prismBytes: Record<string, Record<string, number>> = { [PEER]: {}, [SAME_BYTES_PEER]: {} };
    for (const op of operations) {
      for (const target of [bare, bareHttp, floor]) {
        const replayed = await expectStatus(target.info.url + op.path, {}, 200);
        if (!Buffer.from(replayed.body).equals(Buffer.from(recorded[op.path]!.body)))
          throw new Error(`${op.path}: a replaying target sent other bytes`);
      }
      prismBytes[PEER]![op.path] = (await expectStatus(prism.mock.url + op.path, { headers }, 200)).body.length;
      prismBytes[SAME_BYTES_PEER]![op.path] = (await expectStatus(sameBytesPrism.mock.url + op.path, { headers }, 200)).body.length;
    }

    type LoadTarget = { url: string; pid: number | undefined; enrolled?: Enrolled };
    const targets: Record<string, LoadTarget> = {
      [LIMIT]: { url: bare.info.url, pid: bare.pid },
      [BARE_HTTP]: { url: bareHttp.info.url, pid: bareHttp.pid },
      'framework floor (bare Hono)': { url: floor.info.url, pid: floor.pid },
      ...(before ? { 'server before fixes': { url: before.info.url, pid: before.pid, enrolled: before.info.enrolled[0]! } } : {}),
      server: { url: server.info.url, pid: server.pid },
      [UNCACHED]: { url: uncached.info.url, pid: uncached.pid, enrolled: uncached.info.enrolled[0]! },
      [PEER]: { url: prism.mock.url, pid: prism.pid },
      [SAME_BYTES_PEER]: { url: sameBytesPrism.mock.url, pid: sameBytesPrism.pid },
    };
    const tables: Table[] = [];
    const goals: Target[] = [];
    const notes: string[] = [];
    for (const op of operations) {
      // A second server has its own enrollment: its own token and account ids.
      const run = (target: LoadTarget, seconds: number) => () =>
        load({
          url: target.url + (target.enrolled ? op.of(target.enrolled) : op.path),
          headers: target.enrolled ? { authorization: target.enrolled.authorization } : headers,
          connections: options.connections,
          seconds,
          ...(target.pid ? { pid: target.pid } : {}),
        });
      ctx.log(`reads: ${op.name}: warm-up`);
      for (const target of Object.values(targets)) await run(target, options.warmupSeconds)();
      ctx.log(`reads: ${op.name}: ${options.rounds} round(s) of ${options.seconds} s per target`);
      const results = await interleave<LoadResult>(
        options.rounds,
        Object.fromEntries(Object.entries(targets).map(([name, target]) => [name, run(target, options.seconds)])),
      );
      // Two measures of each target: the requests per second it answered here, and the requests per second one core
      // gives it (responses per CPU-second of its process, all threads). The load generator shares the two cores:
      // where it saturates first, the targets' answered rates measure the generator, not them.
      const rps = (name: string) => rpsOf(results[name]!);
      const perCore = (name: string) => perCoreOf(results[name]!);
      tables.push(
        comparisonTable(op.name, results, { limit: LIMIT, peer: PEER }, [
          {
            header: 'body bytes',
            cell: (name) =>
              name.startsWith('peer')
                ? fmtInt(prismBytes[name]![op.path]!)
                : name === 'server before fixes' || name === UNCACHED
                  ? ''
                  : fmtInt(recorded[op.path]!.body.length),
          },
        ]),
      );
      const ofLimit = perCore('server') / perCore(LIMIT);
      const renderedOfLimit = perCore(UNCACHED) / perCore(LIMIT);
      const ofPeer = perCore('server') / perCore(PEER);
      const ofSameBytesPeer = perCore('server') / perCore(SAME_BYTES_PEER);
      goals.push(
        {
          name: `${op.name}: server / limit, req/s per core (answered req/s)`,
          value: `${fmtPercent(ofLimit)} (${fmtPercent(rps('server') / rps(LIMIT))})`,
          goal: `≥ ${LIMIT_SHARE * 100} %`,
          met: ofLimit >= LIMIT_SHARE,
        },
        {
          name: `${op.name}: server with the read cache off / limit, req/s per core (answered req/s)`,
          value: `${fmtPercent(renderedOfLimit)} (${fmtPercent(rps(UNCACHED) / rps(LIMIT))})`,
          goal: `≥ ${op.renderedShare * 100} %`,
          met: renderedOfLimit >= op.renderedShare,
        },
        {
          name: `${op.name}: server / Prism, req/s per core (answered req/s)`,
          value: `${fmtRatio(ofPeer)} (${fmtRatio(rps('server') / rps(PEER))})`,
          goal: `≥ ${PEER_MULTIPLE}×`,
          met: ofPeer >= PEER_MULTIPLE,
        },
        {
          name: `${op.name}: server / Prism answering the server's body, req/s per core (answered req/s)`,
          value: `${fmtRatio(ofSameBytesPeer)} (${fmtRatio(rps('server') / rps(SAME_BYTES_PEER))})`,
          goal: 'report',
          met: null,
        },
        {
          name: `${op.name}: bare node:http / limit, req/s per core (answered req/s)`,
          value: `${fmtPercent(perCore(BARE_HTTP) / perCore(LIMIT))} (${fmtPercent(rps(BARE_HTTP) / rps(LIMIT))})`,
          goal: 'report',
          met: null,
        },
      );
      if (op.freshTarget) {
        goals.push({
          name: op.freshTarget,
          value: `${fmtPercent(renderedOfLimit)} per core (answered ${fmtPercent(rps(UNCACHED) / rps(LIMIT))})`,
          goal: `≥ ${FRESH_PAGE_SHARE * 100} %`,
          met: renderedOfLimit >= FRESH_PAGE_SHARE,
        });
      }
      for (const [name, rounds] of Object.entries(results)) {
        const failed = failures(`${op.name} on ${name}`, rounds);
        if (failed) notes.push(failed);
      }
    }
    notes.push(
      `${options.connections} connections, ${options.rounds} round(s) of ${options.seconds} s per target and operation, interleaved; medians. ` +
        "The load generator (autocannon, in the harness process) shares the two cores with the target, so each target is measured twice: the requests per second it answered, and the requests per second one core gives it (its 2xx responses per CPU-second of its own process, all threads, from /proc/<pid>/stat). The targets are judged on the second: on the fast targets the generator saturates first and the answered rates are its ceiling, not theirs; Prism, which is far from that ceiling, spends more than one core (its collector's threads), and per core counts that against it. The framework floor is a bare Hono app on @hono/node-server replaying the same bytes: the gap between it and the limit is the framework's, the gap between it and the server is the server's own code. Prism answers the description's example, which is smaller than the server's page; a second Prism, on a copy of the bundle whose only example for each operation is the server's recorded body, answers the same JSON (the targets are judged against the first, Prism as shipped). " +
        'The server replays a read from its read cache while nothing has been written since it was rendered (the load repeats one URL, so every request after the first is replayed); the row "read cache off" is the same server rendering every request: authentication, enrollment clock, SQLite, presenting and serializing.',
    );
    return {
      title: 'Reads',
      about:
        "The server (authentication, version, request validation, SQLite storage on a file) against the limit, a bare `node:http` server on the same Node replaying the server's own response bytes from memory, and the peer, the Prism mock of the same operation.",
      tables,
      targets: goals,
      notes,
    };
  } finally {
    await prism.mock.stop();
    await sameBytesPrism?.mock.stop();
    await bare.stop();
    await bareHttp.stop();
    await floor.stop();
    await before?.stop();
    await uncached.stop();
    await server.stop();
  }
}

/** The current bundle with each listed GET's 200 answer documented by one example: the given body. */
function withRecordedExamples(bodies: { template: string; body: Uint8Array }[]): OpenApiDocument {
  const doc = structuredClone(loadBundle('2020-10-12'));
  for (const { template, body } of bodies) {
    const get = (doc.paths as Record<string, Record<string, JsonObject>>)[template]!.get!;
    const media = ((get.responses as Record<string, JsonObject>)['200']!.content as Record<string, JsonObject>)['application/json']!;
    media.examples = { Recorded: { value: JSON.parse(Buffer.from(body).toString()) } };
  }
  return doc;
}
