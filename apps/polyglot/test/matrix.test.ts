// The generator matrix's definitions (matrix.yaml): what each target says it runs is what it runs, with the pinned
// versions; and how a smoke program's output is counted. `npm run test:generators` runs the matrix itself.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { loadGuides } from '@aggregation/docs/guides';
import { describe, it } from 'vitest';
import { checkedEnums, enumCases, enumSourceOf, enumValues, expectedName } from '../src/enum-names.ts';
import { buildOf, readTargets } from '../src/matrix.ts';
import { openapiGeneratorVersion, readConfig } from '../src/openapi-generator.ts';
import { packageDir, repoRoot } from '../src/paths.ts';
import { requirementsFile } from '../src/python.ts';
import { countSteps, parseSteps, smokeSteps } from '../src/smoke.ts';
import { installHints, type Toolchain, tools } from '../src/toolchain.ts';

const targets = readTargets();
const require = createRequire(import.meta.url);

/** The version of a Go module that tools/go.mod requires. */
function goToolVersion(module: string): string {
  const goMod = readFileSync(join(packageDir, 'tools', 'go.mod'), 'utf8');
  const match = new RegExp(`^\\s*${module.replaceAll('.', '\\.')} v(\\S+)`, 'm').exec(goMod);
  assert.ok(match, `tools/go.mod does not require ${module}`);
  return match[1]!;
}

/** Where each generator's version is pinned. */
const pins: Record<string, () => string> = {
  'openapi-generator': () => openapiGeneratorVersion,
  '@hey-api/openapi-ts': () => (require('@hey-api/openapi-ts/package.json') as { version: string }).version,
  'openapi-python-client': () => /^openapi-python-client==(\S+)$/m.exec(readFileSync(requirementsFile, 'utf8'))![1]!,
  'oapi-codegen': () => goToolVersion('github.com/oapi-codegen/oapi-codegen/v2'),
  ogen: () => goToolVersion('github.com/ogen-go/ogen'),
};

describe('the generator matrix (matrix.yaml)', () => {
  it('has at least 12 targets in at least 7 languages, each named once', () => {
    assert.ok(targets.length >= 12, `${targets.length} targets`);
    assert.ok(new Set(targets.map((target) => target.language)).size >= 7);
    assert.equal(new Set(targets.map((target) => target.name)).size, targets.length);
  });

  it.each(targets)('$name: its version is the pinned one', (target) => {
    const tool = target.generator.split(' ')[0]!;
    assert.ok(pins[tool], `no pin known for ${tool}`);
    assert.equal(target.version, pins[tool]());
  });

  it.each(targets)('$name: its document exists, and it is run from a configuration or a command naming it', (target) => {
    assert.ok(existsSync(join(repoRoot, target.document)), `${target.document}: run npm run build`);
    assert.notEqual(target.config === undefined, target.command === undefined, 'a config or a command, not both');
    if (target.config) {
      const config = readConfig(join(repoRoot, target.config));
      assert.equal(`openapi-generator ${config.generatorName}`, target.generator);
      assert.equal(config.inputSpec, join(repoRoot, target.document));
    } else {
      assert.ok(target.command!.includes(target.document.replace('openapi/', '')), `${target.command} does not read ${target.document}`);
    }
  });

  it.each(targets)('$name: needs known tools, has a build, and says why its options are there', (target) => {
    for (const tool of target.needs) assert.ok(tool in installHints, `unknown tool ${tool}`);
    const everyTool = Object.fromEntries(tools.map((tool) => [tool, `/usr/bin/${tool}`])) as unknown as Toolchain;
    const build = buildOf(target, everyTool);
    assert.equal(typeof build.smoke, 'function');
    assert.ok(target.notes.length > 40);
  });

  it.each(targets)('$name: declares how its language writes an enum value, with an example of it and why', (target) => {
    const { case: convention, written, why } = target.enumValues;
    assert.ok(enumCases.includes(convention), `unknown convention ${convention}`);
    assert.ok(written.endsWith(expectedName(convention, 'PayeeType', 'person')), `${written} is not PayeeType's person in ${convention}`);
    assert.ok(why.length > 40);
    // Where the matrix run reads the generated names: inside the generated clients.
    for (const type of checkedEnums) assert.ok(enumSourceOf(target, type).startsWith(join(repoRoot, 'clients')), type);
  });

  it('the 3.0 variant feeds the generators that do not read 3.1; the others read the generators’ variant', () => {
    for (const target of targets) assert.match(target.document, /^openapi\/dist\/2020-10-12\.(generators|openapi-3\.0)\.json$/);
    assert.equal(targets.find((target) => target.name === 'ogen')?.document, 'openapi/dist/2020-10-12.openapi-3.0.json');
  });
});

describe("the docs' guide Generate a client", () => {
  it('shows each target with its command and what its tools are', () => {
    const guide = loadGuides().find((candidate) => candidate.name === 'generate-a-client');
    assert.ok(guide, 'no guide generate-a-client');
    for (const target of targets) {
      const shown = target.config ? `-g ${readConfig(join(repoRoot, target.config)).generatorName} -i ${target.document}` : target.command!;
      assert.ok(guide.markdown.includes(shown), `${target.name}: the guide does not show ${shown}`);
      for (const tool of target.needs) assert.ok(guide.markdown.includes(installHints[tool]), `${target.name}: ${tool}`);
      assert.ok(guide.markdown.includes(`\`${target.enumValues.written}\``), `${target.name}: the guide does not show ${target.enumValues.written}`);
    }
  });
});

describe('the names of enum values', () => {
  it('are what each convention makes of a value, of one word or several', () => {
    const names = (value: string) => enumCases.map((convention) => expectedName(convention, 'PayeeType', value));
    assert.deepEqual(names('person'), ['PERSON', 'Person', 'PAYEETYPE_PERSON', 'PayeeTypePerson', "'person'"]);
    assert.deepEqual(names('credit_card'), ['CREDIT_CARD', 'CreditCard', 'PAYEETYPE_CREDIT_CARD', 'PayeeTypeCreditCard', "'credit_card'"]);
  });

  it('are checked on the enums whose values another enum shares, and one beside them', () => {
    const values = checkedEnums.map((type) => enumValues(type));
    const shared = new Set(values.flat().filter((value, i, all) => all.indexOf(value) !== i));
    assert.deepEqual([...shared].sort(), ['pending', 'person']);
    assert.deepEqual(enumValues('PaymentSchemeName'), ['zelle']);
  });
});

describe("a smoke program's output", () => {
  it('counts each step by its line; a step without a line, or a line that says fail, failed', () => {
    const output = ['step accounts: ok 3 accounts', 'step transactions: fail the pages differ', 'noise', 'step unknown: ok'].join('\n');
    const steps = parseSteps(output);
    assert.deepEqual(Object.keys(steps), ['accounts', 'transactions']);
    assert.deepEqual(steps.transactions, { ok: false, detail: 'the pages differ' });
    assert.deepEqual(countSteps(steps), { passed: 1, failed: Object.keys(smokeSteps).length - 1 });
    const all = Object.keys(smokeSteps).map((step) => `step ${step}: ok`);
    assert.deepEqual(countSteps(parseSteps(all.join('\n'))), { passed: Object.keys(smokeSteps).length, failed: 0 });
  });
});
