// The OpenAPI 3.0.3 variant of each bundle (dist/<name>.openapi-3.0.json and .yaml): valid 3.0, the same operations,
// nothing left that only 3.1 can say, and no error from Spectral's stock ruleset.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Document, Spectral } from '@stoplight/spectral-core';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, test } from 'vitest';
import { parse } from 'yaml';
import { toOpenApi30 } from '../scripts/openapi-3.0.ts';
import { Json } from '../scripts/spectral.ts';
import { documentNames, type JsonObject, loadBundle, type OpenApiDocument, operationsOf } from '../src/contract.ts';
import { openApi30Path } from '../src/generators.ts';

const readVariant = (name: (typeof documentNames)[number]) => JSON.parse(readFileSync(openApi30Path(name), 'utf8')) as OpenApiDocument;

/** Every schema keyword or value that OpenAPI 3.0's schema dialect does not have, with where it stands. */
function only31(node: unknown, pointer = '#'): string[] {
  if (!node || typeof node !== 'object') return [];
  const found: string[] = [];
  const object = node as JsonObject;
  if (Array.isArray(object.type) || object.type === 'null') found.push(`${pointer}/type`);
  for (const keyword of ['const', '$schema', '$id', 'contentMediaType', 'contentEncoding', 'prefixItems', '$defs']) {
    if (keyword in object && !Array.isArray(node)) found.push(`${pointer}/${keyword}`);
  }
  // `examples` of a schema is JSON Schema's list; a media type's `examples` is a map, which 3.0 has too.
  if (Array.isArray(object.examples)) found.push(`${pointer}/examples`);
  for (const [key, child] of Object.entries(object)) {
    // Examples are data, whatever keys they hold.
    if (key !== 'example' && key !== 'examples') found.push(...only31(child, `${pointer}/${key}`));
  }
  return found;
}

describe.each(documentNames)('%s', (name) => {
  test('is valid OpenAPI 3.0.3, and its YAML holds the same document', async () => {
    const variant = readVariant(name);
    assert.equal(variant.openapi, '3.0.3');
    const result = await new Validator().validate(structuredClone(variant));
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.deepEqual(parse(readFileSync(openApi30Path(name, 'yaml'), 'utf8'), { version: '1.1' }), variant);
  });

  test('has every operation of the bundle, and nothing only 3.1 can say', () => {
    const variant = readVariant(name);
    const operations = (document: OpenApiDocument) =>
      operationsOf(document).map((operation) => `${operation.method} ${operation.path} ${operation.operationId}`);
    assert.deepEqual(operations(variant), operations(loadBundle(name)));
    assert.deepEqual(only31(variant), []);
    assert.equal(variant.webhooks, undefined);
    assert.equal(variant.info.summary, undefined);
    // Neither a scheme nor a requirement names it (descriptions may).
    assert.ok(!JSON.stringify(variant).includes('"mutualTLS":'));
    // Request bodies in JSON alone, as in the generators' variant it is made from.
    assert.ok(!JSON.stringify(variant).includes('"application/x-www-form-urlencoded":'));
  });
});

test('a nullable reference becomes the referenced schema, nullable; an enum lists null among its values', () => {
  const schemas = readVariant('2020-10-12').components!.schemas!;
  const transaction = schemas.Transaction!.properties as Record<string, JsonObject>;
  assert.equal(transaction.running_balance!.type, 'string');
  assert.equal(transaction.running_balance!.nullable, true);
  assert.match(String(transaction.running_balance!.description), /running/i);
  const counterparty = schemas.TransactionCounterparty!.properties as Record<string, JsonObject>;
  assert.deepEqual(counterparty.type!.enum, ['organization', 'person', null]);
});

test('mutualTLS is left out: a requirement that named it beside Basic keeps Basic, once', () => {
  const variant = readVariant('2020-10-12');
  assert.deepEqual(variant.security, [{ basicAuth: [] }]);
  assert.ok(!('mutualTLS' in (variant.components!.securitySchemes ?? {})));
  const bundle = structuredClone(loadBundle('2020-10-12'));
  bundle.security = [{ mutualTLS: [] }, {}];
  assert.deepEqual(toOpenApi30(bundle).security, [{}]);
});

test('the license keeps a 3.0 form: its SPDX identifier becomes the SPDX page', () => {
  assert.deepEqual(readVariant('2020-10-12').info.license, { name: 'MIT', url: 'https://spdx.org/licenses/MIT.html' });
});

test("Spectral's stock spectral:oas ruleset finds no error in the current version's 3.0 variant", async () => {
  const spectral = new Spectral();
  spectral.setRuleset(oas as never);
  const path = openApi30Path('2020-10-12');
  const results = await spectral.run(new Document(readFileSync(path, 'utf8'), Json, path));
  // Severity 0 is an error.
  const errors = results.filter((result) => result.severity === 0).map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`);
  assert.deepEqual(errors, []);
  // The check can fail: a 3.1 type array in a 3.0 document is an error, where it stands. Shown on a document of the
  // variant's one schema, which the ruleset finds no error in until the type is broken (the whole variant takes
  // Spectral most of this test's time, once is enough).
  const variant = JSON.parse(readFileSync(path, 'utf8')) as OpenApiDocument;
  const small = (money: JsonObject) =>
    JSON.stringify({ openapi: variant.openapi, info: variant.info, servers: variant.servers, paths: {}, components: { schemas: { Money: money } } });
  const money = variant.components!.schemas!.Money as JsonObject;
  const errorsOf = async (text: string) => (await spectral.run(new Document(text, Json, path))).filter((result) => result.severity === 0);
  assert.deepEqual(await errorsOf(small(money)), []);
  const brokenErrors = await errorsOf(small({ ...money, type: ['string', 'null'] }));
  assert.ok(
    brokenErrors.some((result) => result.path.join('.').startsWith('components.schemas.Money')),
    JSON.stringify(brokenErrors.map((result) => `${result.code} ${result.path.join('.')}`)),
  );
});
