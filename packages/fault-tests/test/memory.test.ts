// Memory under load, on SQLite and PostgreSQL: a bounded load of reads over many distinct URLs (pages of a long
// history, each asked once, far more bytes than the read cache's budget) leaves the server's memory bounded. Both
// are measured against a baseline taken in the same run, after a warm-up of the same kind that fills the read cache
// and the rendered rows to their budget: what stays after a full collection (heap and buffers: what the server keeps)
// grows by less than that budget over eighteen times its bytes served, and the resident memory's peak stays within a
// generous bound (the collector sizes its heap as it likes). The load is bounded in requests, not time.
import assert from 'node:assert/strict';
import { readRss, sampleRss } from '@aggregation/test-support';
import { afterAll, beforeAll, test } from 'vitest';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import { basic, callerOf, type Enrolled, enroll } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

/** The read cache's budget, in MiB: the load serves many times more distinct bytes. */
const CACHE_MB = 4;
const WARM_UP_REQUESTS = 100;
const LOAD_REQUESTS = 1_500;
const CONCURRENCY = 8;
/** Transactions per page, and the history they are paged from. */
const PAGE = 100;
const HISTORY = 'history.1000';
/**
 * What the server may keep beyond the baseline: the read cache's budget (full after the warm-up). A read that kept a
 * fiftieth of its bytes would exceed it; what the server keeps is measured to within about a megabyte (two
 * collections: test-support's memoryAfterCollection).
 */
const KEPT_GROWTH_BOUND = CACHE_MB * 2 ** 20;
/** Resident memory may grow this much over the baseline (young generation and heap sizing included). */
const RSS_GROWTH_BOUND = 160 * 2 ** 20;

const MB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const kept = (usage: NodeJS.MemoryUsage) => usage.heapUsed + usage.external;

const kinds = await storeKinds();

for (const kind of kinds) {
  describeUnless(kind.skip, `memory under load on ${kind.name}`, () => {
    let server: ServerProcess;
    let enrolled: Enrolled;
    let urls: string[];

    beforeAll(async () => {
      server = await startServerProcess(await kind.location(), { SANDBOX_READ_CACHE_MB: String(CACHE_MB), NODE_OPTIONS: '--expose-gc' });
      const call = callerOf(server.url);
      enrolled = await enroll(call, HISTORY);
      const history = await call('GET', `/accounts/${enrolled.checking}/transactions?count=10000`, { token: enrolled.token });
      assert.equal(history.status, 200, history.text);
      // Every page of the history, from each transaction on, with two page sizes: each URL asked once.
      const ids = (history.body as { id: string }[]).map((transaction) => transaction.id);
      urls = [PAGE, PAGE - 1].flatMap((count) =>
        ids.map((id) => `${server.url}/accounts/${enrolled.checking}/transactions?count=${count}&from_id=${id}`),
      );
      assert.ok(urls.length >= WARM_UP_REQUESTS + LOAD_REQUESTS, `only ${urls.length} distinct pages`);
    });
    afterAll(() => server?.stop());

    /** Reads `list` with CONCURRENCY clients; answers the bytes served. */
    const read = async (list: string[]) => {
      let next = 0;
      let bytes = 0;
      const client = async () => {
        while (next < list.length) {
          const response = await fetch(list[next++]!, { headers: { authorization: basic(enrolled.token) } });
          assert.equal(response.status, 200);
          bytes += (await response.arrayBuffer()).byteLength;
          tally.requests++;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, client));
      return bytes;
    };

    test(`${LOAD_REQUESTS} reads of distinct pages after ${WARM_UP_REQUESTS} of warm-up: memory kept and resident stay bounded`, async () => {
      await read(urls.slice(0, WARM_UP_REQUESTS));
      const baseline = { kept: kept(await server.memoryAfterCollection()), rss: readRss(server.pid) };
      const sampler = sampleRss(server.pid, 50);
      const served = await read(urls.slice(WARM_UP_REQUESTS, WARM_UP_REQUESTS + LOAD_REQUESTS));
      const { peak } = sampler.stop();
      const after = kept(await server.memoryAfterCollection());
      const summary = `kept ${MB(baseline.kept)} → ${MB(after)}, resident ${MB(baseline.rss)} → peak ${MB(peak)}, over ${LOAD_REQUESTS} reads serving ${MB(served)}`;
      tally.memory.push(`${kind.name}: ${summary}`);
      assert.ok(served > 4 * CACHE_MB * 2 ** 20, `the load served only ${MB(served)}: ${summary}`);
      assert.ok(after - baseline.kept < KEPT_GROWTH_BOUND, `the server kept ${MB(after - baseline.kept)} more: ${summary}`);
      assert.ok(peak - baseline.rss < RSS_GROWTH_BOUND, `resident memory grew ${MB(peak - baseline.rss)}: ${summary}`);
      assert.deepEqual(server.errors(), []);
    });
  });
}
