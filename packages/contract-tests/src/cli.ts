#!/usr/bin/env node
// `aggregation-contract-tests`: the contract tests of a server against the description, with reports for CI.
// Exit codes: 0 every check passed; 1 the server broke the contract (or coverage is below --min-coverage); 2 a usage
// or setup problem (a bad option, the server unreachable, Python missing where Schemathesis is asked for).
import { CommanderError } from 'commander';
import { optionsOf, programOf } from './options.ts';
import { runContractTests } from './run.ts';
import { SetupError } from './target.ts';

const program = programOf();
try {
  program.parse();
} catch (error) {
  // --help and --version end here with 0; a usage error has been printed with the usage.
  process.exit(error instanceof CommanderError ? (error.exitCode === 0 ? 0 : 2) : 2);
}
try {
  const { exitCode } = await runContractTests(optionsOf(program), (line) => console.log(line));
  process.exit(exitCode);
} catch (error) {
  if (!(error instanceof SetupError)) throw error;
  console.error(`aggregation-contract-tests: ${error.message}`);
  process.exit(2);
}
