// The options of `aggregation-contract-tests consumer [options] -- <command...>` and of `aggregation-contract-tests
// webhooks`, parsed by commander: every option in --help, a bad value refused in one line with the usage (exit 2).

import type { DocumentName } from '@aggregation/openapi/contract';
import { CURRENT_VERSION, VERSIONS } from '@aggregation/openapi/versions';
import { Command, InvalidArgumentError, Option } from 'commander';
import { percentOf, urlOf } from '../options.ts';
import { FAULT_ROUNDS, type FaultRound } from '../report/types.ts';
import type { ConsumerOptions } from './run.ts';
import type { WebhooksOptions } from './webhooks.ts';

/** The default seed of the fault rounds' choices (which 5xx each operation gets). */
export const DEFAULT_SEED = 20201012;
/** --timeout's default: ten minutes per run of the command. */
export const DEFAULT_TIMEOUT = '10m';

function versionOf(value: string): DocumentName {
  if (!(VERSIONS as readonly string[]).includes(value)) throw new InvalidArgumentError(`one of ${VERSIONS.join(', ')}.`);
  return value as DocumentName;
}

export function faultsOf(value: string): FaultRound[] {
  const chosen = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (chosen.length === 1 && chosen[0] === 'all') return [...FAULT_ROUNDS];
  const unknown = chosen.filter((s) => !(FAULT_ROUNDS as readonly string[]).includes(s));
  if (unknown.length || !chosen.length) throw new InvalidArgumentError(`"all", or rounds from ${FAULT_ROUNDS.join(', ')}, comma-separated.`);
  return FAULT_ROUNDS.filter((s) => chosen.includes(s));
}

/** `90`, `90s`, `10m`, `1h` as milliseconds. */
export function durationOf(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(value.trim());
  const ms = match ? Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000 }[(match[2] ?? 's') as 's' | 'm' | 'h'] : Number.NaN;
  if (!(ms > 0) || ms > 24 * 3_600_000)
    throw new InvalidArgumentError('a duration such as 90s, 10m or 1h (seconds when no unit is given), at most 24h.');
  return ms;
}

function seedOf(value: string): number {
  if (!/^\d{1,15}$/.test(value)) throw new InvalidArgumentError('a whole number.');
  return Number(value);
}

function secretOf(value: string): string {
  if (!value.trim()) throw new InvalidArgumentError('the signing secret the receiver checks with (whsec_...).');
  return value;
}

const program = (name: string) => new Command(name).allowExcessArguments(false).showHelpAfterError(true).exitOverride();

export function consumerProgram(): Command {
  return program('aggregation-contract-tests consumer')
    .usage('[options] -- <command...>')
    .description(
      'Runs your command (your tests, a script, your app) against a checked API: every request it sends is checked against the description and recorded; fault rounds answer documented failures and judge what it does next.\n' +
        'The command gets AGGREGATION_BASE_URL, AGGREGATION_TOKEN and AGGREGATION_WEBHOOK_SECRET.\n' +
        'Exit codes: 0 the command passed and kept the contract; 1 a request broke the description, a fault round found a defect, the command failed, or coverage is under --min-coverage; 2 usage or setup.',
    )
    .argument('<command...>', 'the command to run, after --')
    .addOption(new Option('--version <version>', 'the API version the command is checked against').default(CURRENT_VERSION).argParser(versionOf))
    .addOption(new Option('--upstream <url>', 'a running server to use instead of the sandbox (or the mock)').argParser(urlOf))
    .addOption(new Option('--token <token>', 'with --upstream: the sandbox token the command gets (when the server has no sandbox control API)'))
    .addOption(new Option('--faults <rounds>', `fault rounds after the clean run: "all", or ${FAULT_ROUNDS.join(', ')}`).argParser(faultsOf))
    .addOption(new Option('--faults-must-pass', 'a command that fails in a fault round is a defect too'))
    .addOption(
      new Option('--webhook-url <url>', "your receiver, which the command serves: it gets the sandbox's events and the receiver checks").argParser(
        urlOf,
      ),
    )
    .addOption(new Option('--report-dir <dir>', 'where junit.xml, summary.md and report.json go').default('contract-reports/consumer'))
    .addOption(new Option('--min-coverage <percent>', "fail when the command used fewer of the version's operations").argParser(percentOf))
    .addOption(new Option('--seed <n>', "the seed of the fault rounds' choices (a run is reproduced by it)").default(DEFAULT_SEED).argParser(seedOf))
    .addOption(
      new Option('--timeout <duration>', 'how long one run of the command may take; then its process group is ended')
        .default(durationOf(DEFAULT_TIMEOUT), DEFAULT_TIMEOUT)
        .argParser(durationOf),
    );
}

export function consumerOptionsOf(command: Command): ConsumerOptions {
  const given = command.opts<{
    version: DocumentName;
    upstream?: string;
    token?: string;
    faults?: FaultRound[];
    faultsMustPass?: boolean;
    webhookUrl?: string;
    reportDir: string;
    minCoverage?: number;
    seed: number;
    timeout: number;
  }>();
  if (given.token && !given.upstream) throw new InvalidArgumentError('--token goes with --upstream (the sandbox started here makes its own tokens).');
  return {
    command: command.args,
    version: given.version,
    ...(given.upstream ? { upstream: given.upstream } : {}),
    ...(given.token ? { token: given.token } : {}),
    reportDir: given.reportDir,
    minCoverage: given.minCoverage ?? null,
    faults: given.faults ?? [],
    faultsMustPass: given.faultsMustPass === true,
    ...(given.webhookUrl ? { webhookUrl: given.webhookUrl } : {}),
    seed: given.seed,
    timeoutMs: given.timeout,
  };
}

export function webhooksProgram(): Command {
  return program('aggregation-contract-tests webhooks')
    .description(
      'Checks your webhook receiver: every event type of the description validly signed, then forged, unsigned, stale, signed with a rotated-out secret, and replayed.\n' +
        'Exit codes: 0 it accepted what is valid and refused the rest; 1 it did not; 2 usage or setup (such as nothing listening at --url).',
    )
    .addOption(new Option('--url <receiver>', 'your receiver, running').makeOptionMandatory().argParser(urlOf))
    .addOption(
      new Option('--secret <whsec>', 'the signing secret your receiver checks with')
        .env('AGGREGATION_WEBHOOK_SECRET')
        .makeOptionMandatory()
        .argParser(secretOf),
    )
    .addOption(
      new Option('--rotated-out-secret <whsec>', 'a secret your receiver used before and must no longer accept (default: one it never knew)').argParser(
        secretOf,
      ),
    )
    .addOption(new Option('--version <version>', 'the API version whose events are sent').default(CURRENT_VERSION).argParser(versionOf))
    .addOption(new Option('--report-dir <dir>', 'where junit.xml, summary.md and report.json go').default('contract-reports/webhooks'));
}

export function webhooksOptionsOf(command: Command): WebhooksOptions {
  const given = command.opts<{ url: string; secret: string; rotatedOutSecret?: string; version: DocumentName; reportDir: string }>();
  return {
    url: given.url,
    secret: given.secret,
    ...(given.rotatedOutSecret ? { rotatedOutSecret: given.rotatedOutSecret } : {}),
    version: given.version,
    reportDir: given.reportDir,
  };
}
