// The guide "Generate a client": the generator matrix of apps/polyglot rendered from its definitions, with the last
// run's results when there are some, and the commands alone (with where the results come from) when there are none.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { parse } from 'yaml';
import { type MatrixEntry, matrixDefinitions, renderGeneratorMatrix } from '../src/generator-matrix.ts';
import { loadGuides } from '../src/guides.ts';
import { docsDir } from '../src/paths.ts';

const { targets } = parse(readFileSync(matrixDefinitions, 'utf8')) as {
  targets: { name: string; generator: string; language: string; enumValues: { case: string; written: string } }[];
};

describe('the guide Generate a client', () => {
  it('without results, shows every target with its command and says the results come from npm run test:generators', () => {
    const markdown = renderGeneratorMatrix(matrixDefinitions, undefined);
    assert.match(markdown, /The results are produced by `npm run test:generators`/);
    assert.doesNotMatch(markdown, /\| generated \|/);
    for (const target of targets) assert.match(markdown, new RegExp(`^### ${target.generator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    // openapi-generator's configuration as flags: the kotlin target's options, its type mappings among them.
    assert.match(
      markdown,
      /-g kotlin -i openapi\/dist\/2020-10-12\.generators\.json .*\n {2}--additional-properties=.*generateOneOfAnyOfWrappers=true/,
    );
    assert.match(markdown, /--type-mappings=AnyType=JsonElement/);
    assert.match(markdown, /-g go .*\n {2}--git-host=aggregation\.example/);
    assert.match(markdown, /go -C apps\/polyglot\/tools tool ogen .*2020-10-12\.openapi-3\.0\.json/);
    // How each client writes PayeeType's `person`, in the table and in its section.
    for (const target of targets) {
      assert.ok(markdown.includes(`| ${target.generator} | \`${target.enumValues.written}\` | ${target.enumValues.case} |`), target.name);
      assert.ok(markdown.includes(`Enum values: \`${target.enumValues.written}\` is \`person\` of \`PayeeType\``), target.name);
    }
    assert.match(markdown, /--enum-class-prefix=true|enumClassPrefix=true/);
  });

  it('with results, shows each target as the last run left it, and one that did not run as such', () => {
    const [first, second] = targets;
    const results: MatrixEntry[] = [
      {
        target: first!.name,
        generator: first!.generator,
        language: first!.language,
        generated: true,
        enumNames: { names: { PayeeType: { person: 'Person', business: 'Business' } }, wrong: [] },
        compiled: true,
        smoke: { passed: 8, failed: 0 },
      },
      {
        target: second!.name,
        generator: second!.generator,
        language: second!.language,
        generated: true,
        compiled: false,
        smoke: { passed: 0, failed: 8 },
        problem: 'tsc failed (2)',
      },
    ];
    const markdown = renderGeneratorMatrix(matrixDefinitions, results);
    assert.match(markdown, /The last run of `npm run test:generators`: 1 of 2 targets/);
    assert.ok(markdown.includes(`| ${first!.generator} | ${first!.language} | yes | as its language writes them | yes | 8/8 |`));
    assert.ok(markdown.includes(`| ${second!.generator} | ${second!.language} | yes |  | no | 0/8 (tsc failed (2)) |`));
    assert.ok(markdown.includes(`| ${targets[2]!.generator} | ${targets[2]!.language} | not run | | | |`));
    // The names the run's client gave, by enum.
    assert.ok(markdown.includes('| target | PayeeType `person`, `business` |'));
    assert.ok(markdown.includes(`| ${first!.generator} | \`Person\`, \`Business\` |`));
  });

  it('is a guide of the site, its commands shown and never run', () => {
    const guide = loadGuides().find((candidate) => candidate.name === 'generate-a-client');
    assert.ok(guide);
    assert.doesNotMatch(guide.markdown, /<!-- generator-matrix -->/);
    assert.match(readFileSync(join(docsDir, 'guides', 'generate-a-client.html'), 'utf8'), /openapi-generator kotlin/);
  });
});
