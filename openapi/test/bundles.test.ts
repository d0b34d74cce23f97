// Each bundle is a valid OpenAPI 3.1 document and keeps the public paths of the contract.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'vitest';
import { distDir, documentNames, loadBundle } from '../src/contract.ts';

for (const name of documentNames) {
  test(`${name}: bundles exist as JSON and YAML`, () => {
    assert.ok(existsSync(join(distDir, `${name}.json`)));
    assert.ok(existsSync(join(distDir, `${name}.yaml`)));
  });

  test(`${name}: the bundle is valid OpenAPI 3.1`, async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(loadBundle(name)));
    assert.equal(validator.version, '3.1');
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
  });

  test(`${name}: every reference resolves inside the bundle`, () => {
    const text = JSON.stringify(loadBundle(name));
    const refs = [...text.matchAll(/"\$ref":"([^"]+)"/g)].map((m) => m[1]!);
    assert.ok(refs.length > 0);
    for (const ref of refs) assert.match(ref, /^#\//, `external reference left in the bundle: ${ref}`);
  });
}

test('versioned documents carry their date as info.version', () => {
  assert.equal(loadBundle('2020-10-12').info.version, '2020-10-12');
  assert.equal(loadBundle('2019-07-01').info.version, '2019-07-01');
});
