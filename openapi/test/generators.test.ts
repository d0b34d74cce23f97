// The generators' variant of each bundle (dist/<name>.generators.json and .yaml): the same API without `webhooks`,
// every event still described by a schema under components.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { test } from 'vitest';
import { parse } from 'yaml';
import { documentNames, type JsonObject, loadBundle, type OpenApiDocument } from '../src/contract.ts';
import { forGenerators, generatorsBundlePath } from '../src/generators.ts';

const readVariant = (name: (typeof documentNames)[number]) => JSON.parse(readFileSync(generatorsBundlePath(name, 'json'), 'utf8')) as OpenApiDocument;

/** The schema `$ref` of each event's payload, by event type. */
function eventSchemas(bundle: OpenApiDocument): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bundle.webhooks ?? {}).map(([event, pathItem]) => {
      const body = pathItem.post!.requestBody as { content: Record<string, { schema: { $ref: string } }> };
      return [event, body.content['application/json']!.schema.$ref];
    }),
  );
}

for (const name of documentNames) {
  test(`${name}: the generators' variant has the bundle's paths and components, and no webhooks`, () => {
    const bundle = loadBundle(name);
    const variant = readVariant(name);
    assert.equal(variant.webhooks, undefined);
    assert.deepEqual(variant.paths, bundle.paths);
    const { securitySchemes, requestBodies, ...components } = bundle.components ?? {};
    const { mutualTLS: _mutualTLS, ...otherSchemes } = securitySchemes ?? {};
    const { securitySchemes: variantSchemes, requestBodies: variantBodies, ...variantComponents } = variant.components ?? {};
    assert.deepEqual(variantComponents, components);
    assert.deepEqual(variantSchemes, securitySchemes && otherSchemes);
    // A body offered as JSON keeps JSON alone; everything else about it is the bundle's.
    for (const [body, definition] of Object.entries((requestBodies ?? {}) as Record<string, JsonObject>)) {
      const content = definition.content as Record<string, unknown>;
      const expected = content['application/json'] ? { ...definition, content: { 'application/json': content['application/json'] } } : definition;
      assert.deepEqual(variantBodies?.[body], expected, body);
    }
    assert.deepEqual(variant.servers, bundle.servers);
    // Every requirement without mutualTLS, once.
    const withoutMutualTls = (bundle.security as JsonObject[] | undefined)?.map(({ mutualTLS: _, ...rest }) => rest);
    assert.deepEqual(variant.security, withoutMutualTls && [...new Map(withoutMutualTls.map((r) => [JSON.stringify(r), r])).values()]);
  });

  test(`${name}: every event of the bundle is a schema of the generators' variant`, () => {
    const variant = readVariant(name);
    for (const [event, ref] of Object.entries(eventSchemas(loadBundle(name)))) {
      const schemaName = ref.replace('#/components/schemas/', '');
      assert.ok(variant.components?.schemas?.[schemaName], `${event}: ${schemaName} is missing`);
    }
  });

  test(`${name}: the generators' variant is valid OpenAPI 3.1, and its YAML holds the same document`, async () => {
    const variant = readVariant(name);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(variant));
    assert.deepEqual(result.errors ?? [], []);
    // YAML 1.1 readers (Java's, Python's) take an unquoted 2020-10-12 for a date: read it as they do.
    assert.deepEqual(parse(readFileSync(generatorsBundlePath(name, 'yaml'), 'utf8'), { version: '1.1' }), variant);
  });
}

/** Extensions that name generated identifiers for one generator or language: each language names values its own way. */
const namesForOneLanguage = ['x-enum-varnames', 'x-enumNames', 'x-enum-names', 'x-go-name', 'x-go-type', 'x-java-type'];

/** The JSON pointers of every key of `names` in a document. */
function pointersOf(node: unknown, names: string[], at = '#'): string[] {
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => [
    ...(names.includes(key) ? [`${at}/${key}`] : []),
    ...pointersOf(value, names, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  ]);
}

for (const name of documentNames) {
  test(`${name}: the generators' variant names no identifier for one language (each generator names enum values its way)`, () => {
    assert.deepEqual(pointersOf(readVariant(name), namesForOneLanguage), []);
  });
}

test('the versions have events, so their variants differ from their bundles', () => {
  assert.ok(Object.keys(eventSchemas(loadBundle('2020-10-12'))).length >= 4);
  assert.ok(Object.keys(eventSchemas(loadBundle('2019-07-01'))).length >= 4);
});

test('a tag only events carried is left out; the description says where the events went', () => {
  const variant = readVariant('2020-10-12');
  const tags = (variant.tags as { name: string }[]).map((tag) => tag.name);
  assert.ok(!tags.includes('Webhooks'));
  assert.ok(tags.includes('Accounts'));
  assert.match(String(variant.info.description), /components\/schemas/);
});

test('an event whose payload is not a named schema cannot be carried over', () => {
  const bundle = structuredClone(loadBundle('2020-10-12'));
  const post = bundle.webhooks!['webhook.test']!.post as JsonObject;
  (post.requestBody as { content: Record<string, JsonObject> }).content['application/json']!.schema = { type: 'object' };
  assert.throws(() => forGenerators(bundle), /webhook\.test: its payload must be a schema under components\/schemas/);
});

test('mutualTLS, which generators do not know, is left out: a requirement that named it beside Basic keeps Basic', () => {
  const variant = readVariant('2020-10-12');
  assert.deepEqual(loadBundle('2020-10-12').security, [{ basicAuth: [] }, { basicAuth: [], mutualTLS: [] }]);
  assert.deepEqual(variant.security, [{ basicAuth: [] }]);
  assert.ok(!JSON.stringify(variant).includes('"mutualTLS":'));
  assert.match(String(variant.info.description), /mutualTLS/);
});

test('payments and payees are offered as JSON alone, which generated clients send; the bundle keeps the form encoding', () => {
  const media = (document: OpenApiDocument, body: string) =>
    Object.keys((document.components!.requestBodies![body] as JsonObject).content as JsonObject);
  for (const body of ['CreatePayment', 'CreatePayee']) {
    assert.deepEqual(media(loadBundle('2020-10-12'), body), ['application/json', 'application/x-www-form-urlencoded']);
    assert.deepEqual(media(readVariant('2020-10-12'), body), ['application/json']);
  }
  assert.match(String(readVariant('2020-10-12').info.description), /form-encoded/);
  // A body offered as the form alone keeps it: there is no JSON to offer instead.
  const bundle = structuredClone(loadBundle('2020-10-12'));
  const payee = bundle.components!.requestBodies!.CreatePayee as { content: Record<string, unknown> };
  delete payee.content['application/json'];
  assert.deepEqual(media(forGenerators(bundle), 'CreatePayee'), ['application/x-www-form-urlencoded']);
});

test('the bundle it is made from is left as it was', () => {
  const bundle = loadBundle('2020-10-12');
  const before = JSON.stringify(bundle);
  forGenerators(bundle);
  assert.equal(JSON.stringify(bundle), before);
});
