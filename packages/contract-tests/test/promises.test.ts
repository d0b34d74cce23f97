// PROMISES.md and the behaviour checks in step: each promise names the checks that read it, each of them a check the
// behaviour suite runs (src/behaviour/checks.ts, whose names are the only ones the checks can record), every check
// reads a promise listed there, and every quote stands where the file says, in the bundle or in a guide.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentName } from '@aggregation/openapi/contract';
import { DOCUMENT_NAMES } from '@aggregation/openapi/versions';
import { describe, it } from 'vitest';
import { mutants } from '../scripts/mutants/breaks.ts';
import { behaviourChecks } from '../src/behaviour/checks.ts';
import { rule } from '../src/behaviour/rules.ts';

const packageDir = join(import.meta.dirname, '..');
const repoRoot = join(packageDir, '..', '..');
const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

type Quote = { source: string; pointer?: string; words: string };
type Promise_ = { line: number; promise: string; quotes: Quote[]; checks: string[]; brokenServers: string[] };

/** The rows of every table of PROMISES.md whose columns are the promise, where it is stated, and its checks. */
function promisesOf(markdown: string): Promise_[] {
  const rows: Promise_[] = [];
  const lines = markdown.split('\n');
  let inTable = false;
  lines.forEach((line, index) => {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim().replaceAll('\\|', '|'));
    if (cells.length === 0) inTable = false;
    else if (cells[0] === 'Promise') inTable = cells[2] === 'Check' && cells[3] === 'Broken server';
    else if (inTable && !/^-+$/.test(cells[0]!)) {
      const quotes = [...cells[1]!.matchAll(/`([^` ]+)(?: (#\/[^`]*))?`: “([^”]+)”/g)].map(([, source, pointer, words]) => ({
        source: source!,
        ...(pointer ? { pointer } : {}),
        words: words!,
      }));
      const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map(([, name]) => name!);
      rows.push({ line: index + 1, promise: cells[0]!, quotes, checks: names(cells[2]!), brokenServers: names(cells[3] ?? '') });
    }
  });
  return rows;
}

const promises = promisesOf(readFileSync(join(packageDir, 'PROMISES.md'), 'utf8'));

describe('PROMISES.md', () => {
  it('lists promises, each with where it is stated and the checks that read it', () => {
    assert.ok(promises.length >= 40, `${promises.length} promises`);
    for (const p of promises) {
      assert.ok(p.promise.length > 10, `line ${p.line}: no promise`);
      assert.ok(p.quotes.length > 0, `line ${p.line}: no quote of the description`);
      assert.ok(p.checks.length > 0, `line ${p.line}: no check`);
    }
  });

  it('names only checks the behaviour suite runs, and every one of them', () => {
    const known = new Set<string>(behaviourChecks);
    for (const p of promises) for (const check of p.checks) assert.ok(known.has(check), `line ${p.line}: no behaviour check is named ${check}`);
    const named = new Set(promises.flatMap((p) => p.checks));
    const unread = behaviourChecks.filter((check) => !named.has(check));
    assert.deepEqual(unread, [], 'checks that read no promise of PROMISES.md');
  });

  it('quotes the description where it says so', () => {
    for (const p of promises) {
      for (const quote of p.quotes) {
        if (quote.pointer) {
          assert.ok((DOCUMENT_NAMES as readonly string[]).includes(quote.source), `line ${p.line}: ${quote.source} is not a document`);
          assert.doesNotThrow(() => rule(quote.source as DocumentName, quote.pointer!, quote.words), `line ${p.line}`);
        } else {
          assert.match(quote.source, /^apps\/docs\/guides\/[a-z-]+\.md$/, `line ${p.line}: a quote names a document and a pointer, or a guide`);
          const guide = squeeze(readFileSync(join(repoRoot, quote.source), 'utf8'));
          assert.ok(guide.includes(squeeze(quote.words)), `line ${p.line}: ${quote.source} does not say “${quote.words}”`);
        }
      }
    }
  });

  it('names for each check a broken server of the mutation self-test that fails it by name', () => {
    const byName = new Map(mutants.map((m) => [m.name, m]));
    for (const p of promises) {
      for (const name of p.brokenServers) assert.ok(byName.has(name), `line ${p.line}: no broken server ${name} (scripts/mutants/)`);
      for (const check of p.checks) {
        // A failed testcase as the self-test reads it from junit.xml.
        const testcase = `behaviour 2020-10-12: GET /accounts · ${check}`;
        assert.ok(
          p.brokenServers.some((name) => byName.get(name)?.caughtBy.test(testcase)),
          `line ${p.line}: none of ${p.brokenServers.join(', ') || 'no broken server'} is caught by ${check}`,
        );
      }
    }
  });

  it('is read as tables of promises, and a missing quote is found', () => {
    const [row] = promisesOf(
      [
        '| Promise | Where the description states it | Check | Broken server |',
        '|---|---|---|---|',
        '| a promise of the list | `2020-10-12 #/info/description`: “no such words \\| anywhere” | `paging: newest first` | `reverse-order` |',
      ].join('\n'),
    );
    assert.deepEqual(row?.checks, ['paging: newest first']);
    assert.deepEqual(row?.brokenServers, ['reverse-order']);
    assert.deepEqual(row?.quotes, [{ source: '2020-10-12', pointer: '#/info/description', words: 'no such words | anywhere' }]);
    assert.throws(() => rule('2020-10-12', row!.quotes[0]!.pointer!, row!.quotes[0]!.words), /no longer says/);
  });
});
