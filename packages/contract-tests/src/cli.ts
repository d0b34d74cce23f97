#!/usr/bin/env node
// `aggregation-contract-tests`: the contract tests of a server against the description, with reports for CI; and
// `aggregation-contract-tests consumer -- <command>` / `webhooks --url <receiver>` for the apps that call the API.
// Exit codes: 0 every check passed; 1 the contract was broken (or coverage is below --min-coverage); 2 a usage or
// setup problem (a bad option, the server unreachable, Python missing where Schemathesis is asked for).
import { CommanderError, InvalidArgumentError } from 'commander';
import { consumerOptionsOf, consumerProgram, webhooksOptionsOf, webhooksProgram } from './consumer/options.ts';
import { runConsumer } from './consumer/run.ts';
import { runWebhooks } from './consumer/webhooks.ts';
import { optionsOf, programOf } from './options.ts';
import { runContractTests } from './run.ts';
import { SetupError } from './target.ts';

const [mode, ...rest] = process.argv.slice(2);
const consumerMode = mode === 'consumer' || mode === 'webhooks';
const program = mode === 'consumer' ? consumerProgram() : mode === 'webhooks' ? webhooksProgram() : programOf();
try {
  if (consumerMode) program.parse(rest, { from: 'user' });
  else program.parse();
} catch (error) {
  // --help and --version end here with 0; a usage error has been printed with the usage.
  process.exit(error instanceof CommanderError ? (error.exitCode === 0 ? 0 : 2) : 2);
}
try {
  const print = (line: string) => console.log(line);
  // In the consumer modes the first line on standard output is the verdict: what happens meanwhile goes to standard error.
  const progress = (line: string) => console.error(line);
  const { exitCode } =
    mode === 'consumer'
      ? await runConsumer(consumerOptionsOf(program), progress, print)
      : mode === 'webhooks'
        ? await runWebhooks(webhooksOptionsOf(program), print)
        : await runContractTests(optionsOf(program), print);
  process.exit(exitCode);
} catch (error) {
  if (error instanceof InvalidArgumentError) {
    console.error(`aggregation-contract-tests ${mode}: ${error.message}`);
    process.exit(2);
  }
  if (!(error instanceof SetupError)) throw error;
  console.error(`aggregation-contract-tests: ${error.message}`);
  process.exit(2);
}
