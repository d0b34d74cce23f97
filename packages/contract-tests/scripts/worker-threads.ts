// `npm run test:threads -w @aggregation/contract-tests` (CI runs it after npm test): the Schemathesis suite of
// `--quick`, with 4 workers, 30 times on Python 3.11 against this repository's server, and no run may be lost to
// CPython 3.11's fault with syntax trees built from several threads (`SystemError: AST constructor recursion depth
// mismatch`, python/cpython#106905), which schemathesis_hooks.py keeps out.
//
// The fault needs two threads building trees while a garbage collection runs a finalizer, which a plain run meets
// rarely; with --pressure (the default) one more thread in each Schemathesis process builds small trees without
// pause and litters garbage with finalizers (test/fixtures/syntax-tree-pressure), so that on Python 3.11 most runs
// without the hooks' lock lose a worker to it. `--no-pressure` runs the suite as it is.
//
// Options: --runs <n> (30), --jobs <n> (2 runs at a time: each run's workers share one interpreter lock, so a run keeps
// about one core busy), --workers <n> (4), --python <path> (python3.11, or PYTHON), --[no-]pressure, --keep (the report
// directories are kept and named). Exit 1 when a run was lost to the fault or could not finish.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { Command, Option } from 'commander';
import pMap from 'p-map';
import { defaultCacheDir, ensureEnv, findPython } from '../src/python.ts';
import { runContractTests } from '../src/run.ts';
import type { RunOptions } from '../src/suite.ts';
import { startLocalServer } from '../src/target.ts';

const program = new Command('test:threads')
  .addOption(new Option('--runs <n>', 'Schemathesis runs, one after the other').default(30).argParser(Number))
  .addOption(new Option('--jobs <n>', 'runs at a time').default(2).argParser(Number))
  .addOption(new Option('--workers <n>', 'Schemathesis workers (threads) per run').default(4).argParser(Number))
  .addOption(new Option('--python <path>', 'the Python that makes the Schemathesis environment').env('PYTHON').default('python3.11'))
  .addOption(new Option('--no-pressure', 'no extra thread building syntax trees beside the workers'))
  .addOption(new Option('--keep', 'keep each run’s report directory'))
  .parse();
const given = program.opts<{ runs: number; jobs: number; workers: number; python: string; pressure: boolean; keep?: boolean }>();

/** What Python prints when the fault strikes: in a worker (the run's output), or in the pressure thread. */
const FAULT = 'AST constructor recursion depth mismatch';

/** Whether any of Schemathesis' outputs in a run's report directory shows the fault. */
async function struck(reportDir: string): Promise<boolean> {
  const dir = join(reportDir, 'schemathesis');
  const outputs = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.txt'));
  for (const name of outputs) if ((await readFile(join(dir, name), 'utf8')).includes(FAULT)) return true;
  return false;
}

async function main(): Promise<number> {
  const found = await findPython(given.python);
  if ('missing' in found) return skipWhenMissing('the Schemathesis runs with worker threads', found.missing) ? 0 : 1;
  const cacheDir = process.env.AGGREGATION_CONTRACT_CACHE ?? defaultCacheDir();
  await ensureEnv(found, cacheDir, (line) => console.log(line));
  if (given.pressure) {
    // Handed on to each Schemathesis process: Python imports the folder's sitecustomize.py at start-up.
    const pressure = join(import.meta.dirname, '..', 'test', 'fixtures', 'syntax-tree-pressure');
    process.env.PYTHONPATH = [pressure, process.env.PYTHONPATH].filter(Boolean).join(':');
  }
  console.log(
    `test:threads: ${given.runs} runs of Schemathesis (--quick) with ${given.workers} workers on Python ${found.version}` +
      `${given.pressure ? ', with a thread building syntax trees beside the workers' : ''}`,
  );
  const server = await startLocalServer();
  const kept = { ...server, close: async () => {} };
  const scratch = await mkdtemp(join(tmpdir(), 'contract-threads-'));
  const tally = { lost: 0, unfinished: 0, failed: 0 };
  const started = Date.now();
  try {
    const each = async (run: number) => {
      const reportDir = join(scratch, `run-${run}`);
      const seed = Math.floor(Math.random() * 2 ** 31);
      const options: RunOptions = {
        suites: ['schemathesis'],
        quick: true,
        seeds: [seed],
        maxExamples: 5,
        workers: given.workers,
        reportDir,
        minCoverage: null,
        python: given.python,
        cacheDir,
        webhookWaitSeconds: 60,
      };
      const begun = Date.now();
      const { report } = await runContractTests(options, () => {}, kept);
      const seconds = ((Date.now() - begun) / 1000).toFixed(0);
      let verdict = 'ok';
      if (await struck(reportDir)) {
        tally.lost++;
        verdict = `LOST to the fault (${FAULT})`;
      } else if (report.errors.length) {
        tally.unfinished++;
        verdict = `could not finish: ${report.errors[0]!.message.split('\n').slice(0, 3).join(' ')}`;
      } else if (report.totals.failed) {
        // A contract failure is test:contract's to report; here it only says the run got through.
        tally.failed++;
        verdict = `${report.totals.failed} testcases failed (a finding of the contract tests, not of this check)`;
      }
      console.log(`run ${run}/${given.runs} seed ${seed}: ${report.totals.testcases} testcases, ${seconds} s: ${verdict}`);
    };
    await pMap(
      Array.from({ length: given.runs }, (_, i) => i + 1),
      each,
      { concurrency: given.jobs },
    );
  } finally {
    await server.close();
    if (given.keep) console.log(`reports kept in ${scratch}`);
    else await rm(scratch, { recursive: true, force: true });
  }
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    `test:threads: ${given.runs} runs, ${given.workers} workers, Python ${found.version}${given.pressure ? ', pressure' : ''}, ${minutes} min: ` +
      `${tally.lost} lost to the fault, ${tally.unfinished} could not finish otherwise, ${tally.failed} with failed testcases`,
  );
  return tally.lost || tally.unfinished ? 1 : 0;
}

process.exit(await main());
