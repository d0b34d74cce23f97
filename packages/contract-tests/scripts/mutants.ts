// `npm run test:mutants -w @aggregation/contract-tests`: the mutation self-test. Each broken server of
// mutants/breaks.ts (a proxy in front of this repository's server that breaks one promise of the description) is
// checked by the contract tests' command as a user runs it (`--base-url`, `--quick`, `--only` the suites whose checks
// are to catch it), which must exit 1 with a failed testcase in junit.xml naming the check that caught it; the unbroken
// server, through the same proxy, must pass every suite, with every behaviour check run (src/behaviour/checks.ts).
//
//   --bin <path>    the command to run (default: this package's built dist/cli.js; an installed bin works too)
//   --only <names>  some of the mutants, comma-separated
//   --jobs <n>      runs at a time (default 2)
//   --all-suites    every mutant against every suite of --quick (slower), not only those named to catch it
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import pMap from 'p-map';
import { behaviourChecks } from '../src/behaviour/checks.ts';
import { startLocalServer } from '../src/target.ts';
import { runBin } from './mutants/bin.ts';
import { type Mutant, mutants, unbroken } from './mutants/breaks.ts';
import { type Testcase, testcasesOf } from './mutants/junit.ts';
import { startBrokenServer } from './mutants/proxy.ts';

const options = new Command('test:mutants')
  .addOption(new Option('--bin <path>', 'the contract tests command').default(join(import.meta.dirname, '..', 'dist', 'cli.js')))
  .addOption(new Option('--only <names>', 'mutants to run, comma-separated'))
  .addOption(new Option('--jobs <n>', 'runs at a time').default('2'))
  .addOption(new Option('--all-suites', 'every mutant against every suite of --quick'))
  .parse()
  .opts<{ bin: string; only?: string; jobs: string; allSuites?: boolean }>();

const chosen = options.only ? mutants.filter((m) => options.only!.split(',').includes(m.name)) : mutants;

/** The behaviour checks no testcase of a run passed: on the unbroken server, every check must have run and passed. */
const checksNotPassed = (testcases: Testcase[]) =>
  behaviourChecks.filter(
    (check) => !testcases.some((t) => !t.failed && !t.skipped && (t.name.endsWith(`: ${check}`) || t.name.endsWith(`· ${check}`))),
  );

type Outcome = { mutant: Mutant; exitCode: number; caughtBy: string[]; failed: string[]; seconds: number; output: string };

const runCommand = (args: string[]) => runBin(options.bin, args);

const server = await startLocalServer();
const reports = await mkdtemp(join(tmpdir(), 'contract-mutants-'));
const started = Date.now();
let outcomes: Outcome[];
try {
  outcomes = await pMap(
    [unbroken, ...chosen],
    async (mutant) => {
      const broken = await startBrokenServer(server.baseUrl, mutant.break);
      const begun = Date.now();
      try {
        const reportDir = join(reports, mutant.name);
        const suites = options.allSuites ? unbroken.suites : mutant.suites;
        const { code, output } = await runCommand(['--base-url', broken.url, '--quick', '--only', suites.join(','), '--report-dir', reportDir]);
        const testcases = await testcasesOf(join(reportDir, 'junit.xml')).catch(() => []);
        const failed = testcases.filter((t) => t.failed).map((t) => t.name);
        // The unbroken server runs every behaviour check: one that never ran (or only skipped) cannot catch anything.
        const notRun = mutant === unbroken ? checksNotPassed(testcases) : [];
        const outcome = {
          mutant,
          exitCode: code === 0 && notRun.length ? 1 : code,
          failed,
          caughtBy: failed.filter((name) => mutant.caughtBy.test(name)),
          seconds: (Date.now() - begun) / 1000,
          output: notRun.length ? `${output}\n[FAIL] behaviour checks that did not run and pass: ${notRun.join('; ')}\n` : output,
        };
        const verdict =
          mutant === unbroken ? (outcome.exitCode === 0 ? 'passes' : 'FAILS') : code === 1 && outcome.caughtBy.length ? 'caught' : 'NOT CAUGHT';
        console.log(
          `${mutant.name.padEnd(24)} exit ${outcome.exitCode}  ${verdict.padEnd(10)} ${outcome.seconds.toFixed(0).padStart(4)} s  ${outcome.caughtBy[0] ?? failed[0] ?? ''}${outcome.caughtBy.length > 1 ? ` (+${outcome.caughtBy.length - 1} more)` : ''}`,
        );
        return outcome;
      } finally {
        await broken.close();
      }
    },
    { concurrency: Number(options.jobs) },
  );
} finally {
  await server.close();
}

const base = outcomes.find((o) => o.mutant === unbroken)!;
const caught = outcomes.filter((o) => o.mutant !== unbroken && o.exitCode === 1 && o.caughtBy.length > 0);
for (const o of outcomes.filter((o) => (o.mutant === unbroken ? o.exitCode !== 0 : !caught.includes(o)))) {
  console.log(
    `\n${o.mutant.name} (${o.mutant.what}): exit ${o.exitCode}; expected a failed testcase matching ${o.mutant.caughtBy}; failed: ${o.failed.slice(0, 10).join('; ') || 'none'}`,
  );
  console.log(
    o.output
      .split('\n')
      .filter((line) => /^\[FAIL\]|^ {2}failed:|^ {4}|^could not run/.test(line))
      .slice(0, 60)
      .join('\n'),
  );
}
console.log(
  `\nmutation score: ${caught.length} of ${chosen.length} broken servers caught (${((100 * caught.length) / chosen.length).toFixed(0)} %); ` +
    `the unbroken server ${base.exitCode === 0 ? 'passes' : `exits ${base.exitCode}`}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
const passed = caught.length === chosen.length && base.exitCode === 0;
if (passed) await rm(reports, { recursive: true, force: true });
else console.log(`the reports of every run are in ${reports}`);
process.exit(passed ? 0 : 1);
