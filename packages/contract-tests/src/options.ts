// The command's options, parsed by commander: every option in --help, a bad value refused in one line with the usage.
import { Command, InvalidArgumentError, Option } from 'commander';
import { defaultCacheDir } from './python.ts';
import { SUITES, type SuiteId } from './report/types.ts';
import { defaultSeeds, parseSeeds } from './schemathesis.ts';
import type { RunOptions } from './suite.ts';

const integer = (name: string, min: number, max: number) => (value: string) => {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)
    throw new InvalidArgumentError(`${name} takes a whole number from ${min} to ${max}.`);
  return Number(value);
};

function suitesOf(value: string): SuiteId[] {
  const chosen = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = chosen.filter((s) => !(SUITES as readonly string[]).includes(s));
  if (unknown.length || !chosen.length) throw new InvalidArgumentError(`choose from ${SUITES.join(', ')}, comma-separated.`);
  return SUITES.filter((s) => chosen.includes(s));
}

function seedsOf(value: string): number[] {
  try {
    return parseSeeds(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

/** An absolute http(s) URL without its trailing slashes; an empty one (a CI template's unset variable) stays empty. */
export function urlOf(value: string): string {
  // An empty AGGREGATION_BASE_URL (a CI template's unset variable) is no URL at all.
  if (value === '') return value;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
  } catch {
    throw new InvalidArgumentError('an absolute http or https URL, such as http://localhost:3000.');
  }
  return value.replace(/\/+$/, '');
}

export function percentOf(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 100) throw new InvalidArgumentError('a percentage from 0 to 100.');
  return number;
}

/** The default of --webhook-wait: the sandbox delivers at once; the wait ends as soon as every event arrived. */
export const WEBHOOK_WAIT_SECONDS = 60;

/** Every option, its default and its environment variable, as --help shows them. */
export function programOf(): Command {
  return new Command('aggregation-contract-tests')
    .description(
      'Checks a server against the API description: behaviour checks, Prism validation proxy, Schemathesis and Arazzo workflows.\n' +
        'Exit codes: 0 passed; 1 the server broke the contract (or coverage is below --min-coverage); 2 usage or setup.',
    )
    .addOption(
      new Option('--base-url <url>', 'the server to check (default: start @aggregation/server here, when installed)')
        .env('AGGREGATION_BASE_URL')
        .argParser(urlOf),
    )
    .addOption(
      new Option(
        '--token <token>',
        "a sandbox token: work in its application instead of one of the run's own (needed when the server has no sandbox control API)",
      ).env('AGGREGATION_TOKEN'),
    )
    .addOption(
      new Option('--only <suites>', `suites to run, comma-separated: ${SUITES.join(', ')}`).default([...SUITES], SUITES.join(',')).argParser(suitesOf),
    )
    .addOption(
      new Option('--quick', 'a short run for pull requests: Schemathesis on the current version, examples and coverage phases; no Prism journeys'),
    )
    .addOption(
      new Option('--seed <seeds>', 'Schemathesis seeds, comma-separated; "random" draws one (printed)')
        .default(seedsOf(defaultSeeds), defaultSeeds)
        .argParser(seedsOf),
    )
    .addOption(
      new Option('--max-examples <n>', 'Schemathesis cases per operation, phase and seed (default 10; 5 with --quick)').argParser(
        integer('--max-examples', 1, 10_000),
      ),
    )
    .addOption(new Option('--workers <n>', 'Schemathesis workers per run').default(2).argParser(integer('--workers', 1, 64)))
    .addOption(new Option('--report-dir <dir>', "where junit.xml, summary.md, report.json and the tools' outputs go").default('contract-reports'))
    .addOption(
      new Option('--min-coverage <percent>', 'fail when a tested document has fewer of its documented responses observed').argParser(percentOf),
    )
    .addOption(
      new Option('--webhook-wait <seconds>', 'how long the fired webhook events may take to arrive (a busy CI machine may need more)')
        .default(WEBHOOK_WAIT_SECONDS)
        .argParser(integer('--webhook-wait', 1, 3600)),
    )
    .addOption(new Option('--python <path>', 'the Python 3.11+ that runs Schemathesis').env('PYTHON').default('python3'))
    .addOption(
      new Option('--cache-dir <dir>', "where Schemathesis' Python environment and Hypothesis' files are kept")
        .env('AGGREGATION_CONTRACT_CACHE')
        .default(defaultCacheDir(), '$XDG_CACHE_HOME/aggregation-contract-tests or ~/.cache/aggregation-contract-tests'),
    )
    .addHelpText(
      'after',
      '\nThe apps that call the API:\n' +
        '  aggregation-contract-tests consumer [options] -- <command...>   your command against a checked API, with fault rounds (consumer --help)\n' +
        '  aggregation-contract-tests webhooks --url <receiver> --secret <whsec_...>   checks your webhook receiver (webhooks --help)',
    )
    .version(process.env.npm_package_version ?? '0.1.0', '--version')
    .allowExcessArguments(false)
    .showHelpAfterError(true)
    .exitOverride();
}

export function optionsOf(program: Command): RunOptions {
  const given = program.opts<{
    baseUrl?: string;
    token?: string;
    only: SuiteId[];
    quick?: boolean;
    seed: number[];
    maxExamples?: number;
    workers: number;
    reportDir: string;
    minCoverage?: number;
    python: string;
    cacheDir: string;
    webhookWait: number;
  }>();
  const quick = given.quick === true;
  return {
    ...(given.baseUrl ? { baseUrl: given.baseUrl } : {}),
    ...(given.token ? { token: given.token } : {}),
    suites: given.only,
    quick,
    seeds: quick ? given.seed.slice(0, 1) : given.seed,
    maxExamples: given.maxExamples ?? (quick ? 5 : 10),
    workers: given.workers,
    reportDir: given.reportDir,
    minCoverage: given.minCoverage ?? null,
    python: given.python,
    cacheDir: given.cacheDir,
    webhookWaitSeconds: given.webhookWait,
  };
}
