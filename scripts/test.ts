// `npm test`: lint, type checks and tests of every workspace through turbo, streamed as turbo prints them, then one
// closing line that adds up what vitest reported in each workspace (turbo prefixes every line, and replays the same
// lines from its cache, so the sum is right on a cached run too).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';

const tasks = ['lint', 'lint:biome', 'lint:cycles', 'typecheck', 'test'];
const turbo = spawn('turbo', ['run', ...tasks, ...process.argv.slice(2)], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1', ...process.env },
});

const totals = { passed: 0, failed: 0, skipped: 0 };
// vitest's closing count, e.g. `      Tests  1 failed | 120 passed | 2 skipped | 1 todo (124)`.
const summaryLine = /^(?:\S+:\s+)?\s*Tests\s+((?:\d+ [a-z]+(?: \| )?)+)\s+\(\d+\)\s*$/;
const countOf = /(\d+) ([a-z]+)/g;

createInterface({ input: turbo.stdout! }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const match = summaryLine.exec(stripVTControlCharacters(line));
  if (!match) return;
  for (const [, count, state] of match[1]!.matchAll(countOf)) {
    // A todo is a test that did not run: it counts as skipped.
    const key = state === 'todo' ? 'skipped' : state;
    if (key && key in totals) totals[key as keyof typeof totals] += Number(count);
  }
});

turbo.on('close', (code) => {
  console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  process.exit(code ?? 1);
});
