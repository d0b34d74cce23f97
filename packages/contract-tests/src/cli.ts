#!/usr/bin/env node
// `npm run test:contract [-- options]`: every contract check against a server, with what each checked in numbers.
//
//   --base-url <url>     check a server elsewhere instead of starting this repository's server
//   --token <token>      a sandbox token for that server (needed when it has no sandbox control API)
//   --only <suites>      comma-separated: proxy, schemathesis, arazzo (default: all)
//   --max-examples <n>   Schemathesis cases per operation and phase (default 25)
//   --seed <n>           Schemathesis seed (default 20201012), for reproducible runs
//
// Exits with 1 when any suite found a problem. Python is optional on a developer machine (Schemathesis is then
// skipped with a message) and required when CI=true.
import { parseArgs } from 'node:util';
import { runArazzoSuite } from './arazzo.ts';
import { runProxySuite } from './proxy.ts';
import { printResult, type SuiteResult } from './report.ts';
import { runSchemathesisSuite } from './schemathesis.ts';
import { externalTarget, startLocalTarget, type Target } from './target.ts';

const suites = ['proxy', 'schemathesis', 'arazzo'] as const;

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string', default: process.env.CONTRACT_BASE_URL },
    token: { type: 'string', default: process.env.CONTRACT_TOKEN },
    only: { type: 'string', default: suites.join(',') },
    'max-examples': { type: 'string', default: '25' },
    seed: { type: 'string', default: '20201012' },
    workers: { type: 'string', default: '2' },
  },
});

const chosen = values.only.split(',').map((s) => s.trim());
const unknown = chosen.filter((s) => !(suites as readonly string[]).includes(s));
if (unknown.length) {
  console.error(`Unknown suite ${unknown.join(', ')}; choose from ${suites.join(', ')}.`);
  process.exit(2);
}

const started = Date.now();
let target: Target;
try {
  target = values['base-url'] ? await externalTarget(values['base-url'], values.token) : await startLocalTarget();
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
console.log(
  `Contract tests against ${target.baseUrl}${target.local ? " (this repository's server, fresh database)" : ''}` +
    `${target.sandbox ? '' : ', without a sandbox control API'}`,
);

const results: SuiteResult[] = [];
try {
  if (chosen.includes('proxy')) results.push(await runProxySuite(target));
  if (chosen.includes('schemathesis')) {
    results.push(
      await runSchemathesisSuite(target, {
        maxExamples: Number(values['max-examples']),
        seed: Number(values.seed),
        workers: Number(values.workers),
        ci: process.env.CI === 'true',
      }),
    );
  }
  if (chosen.includes('arazzo')) results.push(await runArazzoSuite(target));
} finally {
  await target.close();
}

for (const result of results) printResult(result);
if (target.serverErrors.length) {
  console.log(`\n[FAIL] the server logged ${target.serverErrors.length} unexpected errors:`);
  for (const error of target.serverErrors.slice(0, 10)) console.log(`  ${error.replace(/\n/g, '\n  ')}`);
}
const failed = results.filter((r) => r.problems.length > 0).length + (target.serverErrors.length ? 1 : 0);
const skipped = results.filter((r) => r.problems.length === 0 && r.lines.length === 0).length;
const partly = results.filter((r) => r.problems.length === 0 && r.lines.length > 0 && r.skipped.length > 0).length;
console.log(
  `\ncontract tests: ${results.length - failed - skipped} of ${results.length} suites passed` +
    `${partly ? ` (${partly} in part)` : ''}${skipped ? `, ${skipped} skipped` : ''}${failed ? `, ${failed} failed` : ''}` +
    ` in ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
process.exit(failed ? 1 : 0);
