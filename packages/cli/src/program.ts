// The `aggregation` command: its global options and every subcommand.
import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { approveCommand } from './commands/approve.ts';
import { clockCommand } from './commands/clock.ts';
import { deliveriesCommand } from './commands/deliveries.ts';
import { enrollCommand } from './commands/enroll.ts';
import { listenCommand } from './commands/listen.ts';
import { logsCommand } from './commands/logs.ts';
import { reconnectCommand } from './commands/reconnect.ts';
import { serveCommand } from './commands/serve.ts';
import { triggerCommand } from './commands/trigger.ts';
import { Context, DEFAULT_BASE_URL, type GlobalOptions } from './context.ts';

/** The package's own version, from its package.json (next to `src/` and `dist/` alike). */
export function cliVersion(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export function buildProgram(): Command {
  const program = new Command('aggregation')
    .version(cliVersion(), '-v, --version', 'print the version of the aggregation command')
    .description('Develop against the account-aggregation and payments API: the sandbox, its webhooks and its request log.')
    .addOption(new Option('--base-url <url>', 'the server').env('AGGREGATION_BASE_URL').default(DEFAULT_BASE_URL))
    .addOption(new Option('--token <token>', 'a sandbox access token (default: the last `aggregation enroll`)').env('AGGREGATION_TOKEN'))
    .option('--json', 'print JSON for scripts instead of text')
    .showHelpAfterError()
    .addHelpText(
      'after',
      `
Examples:
  $ aggregation serve                                          # the sandbox on http://127.0.0.1:3000
  $ aggregation enroll                                         # a test user; prints its token and accounts
  $ aggregation listen --forward-to http://localhost:4242/webhooks
  $ aggregation trigger webhook.test
  $ aggregation clock advance 3d
  $ aggregation deliveries --failed
  $ aggregation approve <connect_token>                        # an MFA challenge, as its user would
  $ aggregation reconnect                                      # a disconnected enrollment
  $ aggregation logs tail

Every command takes --base-url, --token and --json; \`aggregation <command> --help\` shows its own examples.`,
    );
  program.configureHelp({ showGlobalOptions: true });
  serveCommand(program);
  enrollCommand(program);
  listenCommand(program);
  triggerCommand(program);
  clockCommand(program);
  deliveriesCommand(program);
  logsCommand(program);
  approveCommand(program);
  reconnectCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    new Context(program.opts<GlobalOptions>()).fail(error);
    process.exitCode = 1;
  }
}
