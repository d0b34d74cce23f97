// `npm run test:consumer-mutants -w @aggregation/contract-tests`: the consumer mode proves its bite. The reference
// integration (reference/app.js, reference/receiver.js) must pass every fault round and every receiver check; each
// broken copy of it (consumer-mutants/breaks.ts) must make the command exit 1 with a failed testcase in junit.xml that
// names what it broke. Integrations run as users run them (`consumer --faults <rounds> -- node app.js`), receivers with
// `webhooks --url <receiver> --secret <secret>` while the copy serves.
//
//   --bin <path>    the contract tests command (default: this package's built dist/cli.js; an installed bin works too)
//   --reference <dir>  the reference integration to copy (default: this package's reference/; an installed one works too)
//   --only <names>  some of the broken copies, comma-separated
//   --jobs <n>      runs at a time (default 2)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Command, Option } from 'commander';
import pMap from 'p-map';
import { FAULT_ROUNDS } from '../src/report/types.ts';
import { type ConsumerMutant, consumerMutants } from './consumer-mutants/breaks.ts';
import { runBin } from './mutants/bin.ts';
import { failedTestcases } from './mutants/junit.ts';

const options = new Command('test:consumer-mutants')
  .addOption(new Option('--bin <path>', 'the contract tests command').default(join(import.meta.dirname, '..', 'dist', 'cli.js')))
  .addOption(new Option('--reference <dir>', 'the reference integration to copy').default(join(import.meta.dirname, '..', 'reference')))
  .addOption(new Option('--only <names>', 'broken copies to run, comma-separated'))
  .addOption(new Option('--jobs <n>', 'runs at a time').default('2'))
  .parse()
  .opts<{ bin: string; reference: string; only?: string; jobs: string }>();

const reference = options.reference;
const chosen = options.only ? consumerMutants.filter((m) => options.only!.split(',').includes(m.name)) : consumerMutants;
const unbrokenApp: ConsumerMutant = { name: 'reference app', what: 'unbroken', file: 'app.js', replace: [], faults: [...FAULT_ROUNDS], caughtBy: /$^/ };
const unbrokenReceiver: ConsumerMutant = { name: 'reference receiver', what: 'unbroken', file: 'receiver.js', replace: [], faults: [], caughtBy: /$^/ };
const unbroken = [unbrokenApp, unbrokenReceiver];

const work = await mkdtemp(join(tmpdir(), 'consumer-mutants-'));
// The copies import @aggregation/client as the reference does: the one the reference's own place resolves.
const client = dirname(createRequire(join(reference, 'receiver.js')).resolve('@aggregation/client/package.json'));
await mkdir(join(work, 'node_modules', '@aggregation'), { recursive: true });
await symlink(client, join(work, 'node_modules', '@aggregation', 'client'));

/** A copy of the reference with the mutant's lines changed, in a folder of its own. */
async function copyOf(mutant: ConsumerMutant): Promise<string> {
  const dir = join(work, mutant.name.replaceAll(' ', '-'));
  await mkdir(dir, { recursive: true });
  for (const file of ['app.js', 'receiver.js']) {
    let text = await readFile(join(reference, file), 'utf8');
    if (file === mutant.file)
      for (const [from, to] of mutant.replace) {
        if (text.split(from).length !== 2) throw new Error(`${mutant.name}: "${from.trim()}" is not in reference/${file} exactly once`);
        text = text.replace(from, () => to);
      }
    await writeFile(join(dir, file), text);
  }
  await writeFile(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  return dir;
}

/** Starts a receiver copy on a free port; resolves with its URL and a way to stop it. */
async function serveReceiver(dir: string, secret: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['receiver.js'], {
    cwd: dir,
    env: { ...process.env, PORT: '0', AGGREGATION_WEBHOOK_SECRET: secret },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  for await (const line of lines) {
    const url = /listening on (\S+)/.exec(line)?.[1];
    if (url) {
      lines.on('line', () => {});
      return {
        url,
        stop: async () => {
          child.kill('SIGTERM');
          if (child.exitCode === null) await once(child, 'exit');
        },
      };
    }
  }
  throw new Error(`the receiver copy in ${dir} ended without listening`);
}

type Outcome = { mutant: ConsumerMutant; code: number; failed: string[]; caughtBy: string[]; seconds: number; output: string };

async function check(mutant: ConsumerMutant): Promise<Outcome> {
  const begun = Date.now();
  const dir = await copyOf(mutant);
  const reportDir = join(dir, 'reports');
  let result: { code: number; output: string };
  if (mutant.file === 'receiver.js') {
    const secret = `whsec_${mutant.name.replace(/\W/g, '')}`;
    const receiver = await serveReceiver(dir, secret);
    try {
      result = await runBin(options.bin, ['webhooks', '--url', receiver.url, '--secret', secret, '--report-dir', reportDir]);
    } finally {
      await receiver.stop();
    }
  } else {
    const faults = mutant.faults.length ? ['--faults', mutant.faults.join(',')] : [];
    result = await runBin(options.bin, ['consumer', ...faults, '--report-dir', reportDir, '--', process.execPath, join(dir, 'app.js')]);
  }
  const failed = await failedTestcases(join(reportDir, 'junit.xml'), true).catch(() => []);
  const outcome = {
    mutant,
    code: result.code,
    failed,
    caughtBy: failed.filter((f) => mutant.caughtBy.test(f)),
    seconds: (Date.now() - begun) / 1000,
    output: result.output,
  };
  const verdict = unbroken.includes(mutant)
    ? result.code === 0
      ? 'passes'
      : 'FAILS'
    : result.code === 1 && outcome.caughtBy.length
      ? 'caught'
      : 'NOT CAUGHT';
  console.log(
    `${mutant.name.padEnd(26)} exit ${result.code}  ${verdict.padEnd(10)} ${outcome.seconds.toFixed(0).padStart(4)} s  ${outcome.caughtBy[0] ?? failed[0] ?? ''}`,
  );
  return outcome;
}

const started = Date.now();
let outcomes: Outcome[];
try {
  outcomes = await pMap([...unbroken, ...chosen], check, { concurrency: Number(options.jobs) });
} catch (error) {
  await rm(work, { recursive: true, force: true });
  throw error;
}
const caught = outcomes.filter((o) => !unbroken.includes(o.mutant) && o.code === 1 && o.caughtBy.length > 0);
const bad = outcomes.filter((o) => (unbroken.includes(o.mutant) ? o.code !== 0 : !caught.includes(o)));
for (const o of bad) {
  console.log(
    `\n${o.mutant.name} (${o.mutant.what}): exit ${o.code}; expected ${unbroken.includes(o.mutant) ? 'exit 0' : `a failed testcase matching ${o.mutant.caughtBy}`}; failed: ${o.failed.slice(0, 10).join('; ') || 'none'}`,
  );
  console.log(
    o.output
      .split('\n')
      .filter((line) => !line.startsWith('app:'))
      .slice(0, 40)
      .join('\n'),
  );
}
console.log(
  `\nmutation score: ${caught.length} of ${chosen.length} broken copies caught (${((100 * caught.length) / chosen.length).toFixed(0)} %); ` +
    `the reference ${unbroken.every((m) => outcomes.find((o) => o.mutant === m)?.code === 0) ? 'passes every round and receiver check' : 'FAILS'}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
const passed = bad.length === 0;
if (passed) await rm(work, { recursive: true, force: true });
else console.log(`the copies and their reports are in ${work}`);
process.exit(passed ? 0 : 1);
