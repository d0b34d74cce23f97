// The names of enum values in the clients this workspace generates before its tests (src/generate.ts): openapi-python-
// client's and oapi-codegen's, on which the released Python package and Go module are built, and openapi-generator's
// typescript-fetch, python and java. Each is its language's, as matrix.yaml declares; `npm run test:generators` checks
// all 13 targets the same way.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { skipWhenMissing } from '@aggregation/test-support';
import { describe, it } from 'vitest';
import { enumNameProblems, enumSourceOf, readEnumNames } from '../src/enum-names.ts';
import { readTargets } from '../src/matrix.ts';
import { findToolchain, missingTool, type Tool } from '../src/toolchain.ts';

const toolchain = findToolchain();
const generatedHere: Record<string, Tool[]> = {
  'openapi-python-client': ['python'],
  'oapi-codegen': ['go'],
  'openapi-generator-typescript-fetch': ['java', 'maven'],
  'openapi-generator-python': ['java', 'maven'],
  'openapi-generator-java': ['java', 'maven'],
};

describe('enum values as each language writes them', () => {
  for (const target of readTargets().filter((candidate) => candidate.name in generatedHere)) {
    const missing = generatedHere[target.name]!.map((tool) => missingTool(tool, toolchain)).find(Boolean);
    it.skipIf(skipWhenMissing(`${target.name}'s enum names`, missing))(`${target.name}: ${target.enumValues.written}`, () => {
      assert.ok(existsSync(enumSourceOf(target, 'PayeeType')), `${target.name} was not generated: run npm run generate -w @aggregation/polyglot`);
      assert.deepEqual(enumNameProblems(target, readEnumNames(target)), []);
    });
  }
});
