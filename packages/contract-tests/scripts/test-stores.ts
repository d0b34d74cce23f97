// `npm run test:contract` (and, with --quick, the second step of this package's `npm test`): the command's run against this
// repository's server, started here on each store (SQLite, then PostgreSQL), with its logged errors counted, and the
// default application's webhook settings, secrets and deliveries compared before and after the first run.
//
// The options are the command's (`--help`), plus `--store sqlite,postgres`; with --base-url it is the command itself.
// The first store gets every chosen suite with the seeds given (default 20201012 with every phase, and a fresh one for
// the phases a seed steers); further stores get Schemathesis with the first seed, at the same time. Reports:
// reports/<store>/.
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { Option } from 'commander';
import { optionsOf, programOf } from '../src/options.ts';
import { ensureEnv, findPython } from '../src/python.ts';
import { runContractTests } from '../src/run.ts';
import type { RunOptions } from '../src/suite.ts';
import { type Server, SetupError, startLocalServer } from '../src/target.ts';
import { type WatchedApplication, watchDefaultApplication } from './default-application.ts';

const program = programOf()
  .name('test:contract')
  .addOption(new Option('--store <stores>', 'databases of the server started here, comma-separated').default('sqlite,postgres'));
program.setOptionValueWithSource('seed', [20201012, Math.floor(Math.random() * 2 ** 31)], 'default');
program.setOptionValueWithSource('reportDir', join(import.meta.dirname, '..', 'reports'), 'default');
program.parse();
const options = optionsOf(program);
const stores = String(program.opts().store)
  .split(',')
  .map((s) => s.trim());
const log = (line: string) => console.log(line);

/** What the server's test helper gives: a fresh database of its throwaway cluster, or why there is none. */
type ThrowawayPostgres = { skip: string | false; database(): Promise<string>; stop(): Promise<void> };

/** The server on a fresh PostgreSQL database of the server tests' throwaway cluster (or TEST_DATABASE_URL). */
async function postgresServer(): Promise<Server | string> {
  const { testPostgres } = (await import('../../server/test/helpers/postgres.ts')) as { testPostgres: () => Promise<ThrowawayPostgres> };
  const postgres = await testPostgres();
  if (postgres.skip) return postgres.skip;
  const server = await startLocalServer(await postgres.database());
  return {
    ...server,
    async close() {
      await server.close();
      await postgres.stop();
    },
  };
}

/** One store's run: its server started, the suites run against it, closed; what it logged comes back as one block. */
async function runStore(store: string, index: number): Promise<{ exitCode: number; lines: string[] }> {
  const lines: string[] = [];
  const log = (line: string) => void lines.push(line);
  const server = store === 'postgres' ? await postgresServer() : await startLocalServer();
  if (typeof server === 'string') {
    if (skipWhenMissing(`the contract tests on PostgreSQL`, server)) return { exitCode: 0, lines };
    return { exitCode: 1, lines };
  }
  const run: RunOptions = {
    ...options,
    reportDir: join(options.reportDir, store),
    ...(index > 0 ? { suites: ['schemathesis' as const], seeds: options.seeds.slice(0, 1) } : {}),
  };
  log(`\n== ${store}`);
  // The first run is also watched from the default application, as a developer's sandbox would be.
  const watcher: WatchedApplication | undefined = index === 0 ? await watchDefaultApplication(server.baseUrl) : undefined;
  let closed = false;
  const watched: Server = {
    ...server,
    async close() {
      // Compared while the server still runs, once every suite is done.
      if (watcher) {
        const problems = await watcher.compare();
        await watcher.close();
        for (const problem of problems) server.serverErrors.push(`the default application changed: ${problem}`);
        log(
          problems.length
            ? `the default application changed:\n  ${problems.join('\n  ')}`
            : "the default application's webhook URL, secrets and deliveries are as they were",
        );
      }
      closed = true;
      await server.close();
    },
  };
  try {
    const { exitCode } = await runContractTests(run, log, watched);
    return { exitCode, lines };
  } finally {
    if (!closed) await server.close();
  }
}

async function main(): Promise<number> {
  // A laptop without Python runs the rest and says so; CI=true fails instead (skipWhenMissing).
  if (options.suites.includes('schemathesis')) {
    const found = await findPython(options.python);
    if ('missing' in found && skipWhenMissing('the Schemathesis suite', found.missing))
      options.suites = options.suites.filter((s) => s !== 'schemathesis');
    // Made once, before the stores' runs look for it at the same time; a failure is for the run to report (exit 2).
    else if (!('missing' in found)) await ensureEnv(found, options.cacheDir, log).catch(() => undefined);
  }
  if (options.baseUrl) return (await runContractTests(options, log)).exitCode;

  // Further stores run Schemathesis only; without it the first store's run is all there is.
  const chosen = options.suites.includes('schemathesis') ? stores : stores.slice(0, 1);
  // The stores run at the same time, each against its own server and database (a PostgreSQL cluster starts while
  // SQLite is already being checked); each store's lines are printed together once its run ends.
  const results = await Promise.all(
    chosen.map(async (store, index) => {
      const result = await runStore(store, index);
      for (const line of result.lines) log(line);
      return result.exitCode;
    }),
  );
  return Math.max(0, ...results);
}

try {
  process.exit(await main());
} catch (error) {
  if (!(error instanceof SetupError)) throw error;
  console.error(`test:contract: ${error.message}`);
  process.exit(2);
}
