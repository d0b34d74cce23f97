#!/usr/bin/env node
// `npm run test:contract [-- options]`: every contract check against a server, with what each checked in numbers.
//
//   --base-url <url>     check a server elsewhere instead of starting this repository's server
//   --token <token>      a sandbox token for that server (needed when it has no sandbox control API)
//   --only <suites>      comma-separated: proxy, schemathesis, arazzo (default: all)
//   --max-examples <n>   Schemathesis cases per operation, phase and seed (default 10)
//   --seed <seeds>       Schemathesis seeds, comma-separated, `random` for a fresh one (default 20201012,7,1729,random)
//   --store <stores>     databases of the server started here: sqlite, postgres (default both; the proxy and Arazzo
//                        suites run on the first, Schemathesis on each)
//
// Exits with 1 when any suite found a problem. Python is optional on a developer machine (Schemathesis is then
// skipped with a message) and required when CI=true.
import { parseArgs } from 'node:util';
import { runArazzoSuite } from './arazzo.ts';
import { runProxySuite } from './proxy.ts';
import { newResult, printResult, type SuiteResult } from './report.ts';
import { defaultSeeds, parseSeeds, runSchemathesisSuite } from './schemathesis.ts';
import { externalTarget, startLocalTarget, type Target } from './target.ts';

const suites = ['proxy', 'schemathesis', 'arazzo'] as const;

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: process.env.CONTRACT_BASE_URL },
    token: { type: 'string', default: process.env.CONTRACT_TOKEN },
    only: { type: 'string', default: suites.join(',') },
    'max-examples': { type: 'string', default: '10' },
    seed: { type: 'string', default: defaultSeeds },
    store: { type: 'string', default: 'sqlite,postgres' },
    workers: { type: 'string', default: '2' },
  },
});

const chosen = values.only.split(',').map((s) => s.trim());
const unknown = chosen.filter((s) => !(suites as readonly string[]).includes(s));
if (unknown.length) {
  console.error(`Unknown suite ${unknown.join(', ')}; choose from ${suites.join(', ')}.`);
  process.exit(2);
}

const stores = values.store.split(',').map((s) => s.trim());
const unknownStores = stores.filter((s) => s !== 'sqlite' && s !== 'postgres');
let seeds: number[];
try {
  if (unknownStores.length) throw new Error(`Unknown store ${unknownStores.join(', ')}; choose from sqlite, postgres.`);
  seeds = parseSeeds(values.seed);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const started = Date.now();
let target: Target;
try {
  target = values['base-url']
    ? await externalTarget(values['base-url'], values.token)
    : stores[0] === 'postgres'
      ? await postgresTarget()
      : await startLocalTarget();
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
console.log(
  `Contract tests against ${target.baseUrl}${target.local ? " (this repository's server, fresh database)" : ''}` +
    `${target.sandbox ? '' : ', without a sandbox control API'}`,
);

/** A run that stopped on an error is a failed suite, and the next store still runs. */
const schemathesis = (on: Target, store: string) =>
  runSchemathesisSuite(on, {
    maxExamples: Number(values['max-examples']),
    seeds,
    workers: Number(values.workers),
    ci: process.env.CI === 'true',
    store,
  }).catch((error: Error) => {
    const result = newResult(`Schemathesis on ${store}`);
    result.problems.push(`stopped: ${error.stack ?? error.message}${error.cause ? `\ncaused by ${String(error.cause)}` : ''}`);
    return result;
  });

const results: SuiteResult[] = [];
const serverErrors: string[] = [];
try {
  if (chosen.includes('proxy')) results.push(await runProxySuite(target));
  if (chosen.includes('schemathesis')) results.push(await schemathesis(target, values['base-url'] ? 'the given server' : stores[0]!));
  if (chosen.includes('arazzo')) results.push(await runArazzoSuite(target));
} finally {
  serverErrors.push(...target.serverErrors);
  await target.close();
}
// Schemathesis again on each further store of the server started here.
for (const store of values['base-url'] || !chosen.includes('schemathesis') ? [] : stores.slice(1)) {
  const other = await postgresTarget().catch((error: Error) => error);
  if (other instanceof Error) {
    const result = newResult(`Schemathesis on ${store}`);
    (process.env.CI === 'true' ? result.problems : result.skipped).push(other.message);
    results.push(result);
    continue;
  }
  try {
    results.push(await schemathesis(other, store));
  } finally {
    serverErrors.push(...other.serverErrors);
    await other.close();
  }
}

for (const result of results) printResult(result);
if (serverErrors.length) {
  console.log(`\n[FAIL] the server logged ${serverErrors.length} unexpected errors:`);
  for (const error of serverErrors.slice(0, 10)) console.log(`  ${error.replace(/\n/g, '\n  ')}`);
}
const failed = results.filter((r) => r.problems.length > 0).length + (serverErrors.length ? 1 : 0);
const skipped = results.filter((r) => r.problems.length === 0 && r.lines.length === 0).length;
const partly = results.filter((r) => r.problems.length === 0 && r.lines.length > 0 && r.skipped.length > 0).length;
console.log(
  `\ncontract tests: ${results.length - failed - skipped} of ${results.length} suites passed` +
    `${partly ? ` (${partly} in part)` : ''}${skipped ? `, ${skipped} skipped` : ''}${failed ? `, ${failed} failed` : ''}` +
    ` in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failed ? 1 : 0);

/** What the server's test helper gives: a fresh database of its throwaway cluster, or why there is none. */
type ThrowawayPostgres = { skip: string | false; database(): Promise<string>; stop(): Promise<void> };

/** The server started here on a fresh PostgreSQL database (the server tests' throwaway cluster, or TEST_DATABASE_URL). */
async function postgresTarget(): Promise<Target> {
  // The server's own test cluster: in this repository only (the published package checks a server you run), so it is
  // imported by its address rather than compiled in.
  const helpers = new URL('../../server/test/helpers/postgres.ts', import.meta.url).href;
  const { testPostgres } = (await import(helpers)) as { testPostgres: () => Promise<ThrowawayPostgres> };
  const postgres = await testPostgres();
  if (postgres.skip) throw new Error(postgres.skip);
  const target = await startLocalTarget(await postgres.database());
  return {
    ...target,
    async close() {
      await target.close();
      await postgres.stop();
    },
  };
}
