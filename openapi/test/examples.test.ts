// Every example in every bundle validates against the schema it illustrates.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { ContractValidator, deref, documentNames, type JsonObject, loadBundle } from '../src/contract.ts';

type Found = { pointer: string; schemaPointer: string; value: unknown };

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Walks a bundle and collects every example together with the pointer of the schema it belongs to. */
function collectExamples(doc: JsonObject): Found[] {
  const found: Found[] = [];
  const visit = (node: unknown, pointer: string) => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, `${pointer}/${i}`);
      return;
    }
    const object = node as JsonObject;
    // Media types, parameters and headers carry `schema` beside `example`/`examples`.
    if ('schema' in object && !pointer.includes('/schema/')) {
      const schemaPointer = `${pointer}/schema`;
      if ('example' in object) found.push({ pointer: `${pointer}/example`, schemaPointer, value: object.example });
      for (const [name, example] of Object.entries((object.examples ?? {}) as Record<string, unknown>)) {
        const resolved = deref(doc as never, example);
        if ('value' in resolved) found.push({ pointer: `${pointer}/examples/${escapePointer(name)}`, schemaPointer, value: resolved.value });
      }
    }
    for (const [key, child] of Object.entries(object)) {
      if (key === 'examples' || key === 'example') continue;
      visit(child, `${pointer}/${escapePointer(key)}`);
    }
  };
  visit(doc.paths, '#/paths');
  visit(doc.webhooks, '#/webhooks');
  visit(doc.components, '#/components');
  // Schema-level examples (JSON Schema `examples` arrays) on named schemas.
  const schemas = ((doc.components as JsonObject | undefined)?.schemas ?? {}) as Record<string, JsonObject>;
  for (const [name, schema] of Object.entries(schemas)) {
    const list = Array.isArray(schema.examples) ? schema.examples : [];
    for (const [i, value] of list.entries()) {
      found.push({ pointer: `#/components/schemas/${name}/examples/${i}`, schemaPointer: `#/components/schemas/${name}`, value });
    }
  }
  return found;
}

for (const name of documentNames) {
  describe(`examples of ${name}`, () => {
    const doc = loadBundle(name);
    const validator = new ContractValidator(doc);
    const examples = collectExamples(doc);

    test('the document has examples', () => {
      assert.ok(examples.length >= 10, `only ${examples.length} examples found`);
    });

    test('each example validates against its schema', () => {
      const problems = examples.flatMap((example) =>
        validator.validateAt(example.schemaPointer, example.value).map((p) => `${example.pointer}: ${p.message}`),
      );
      assert.deepEqual(problems, []);
    });

    test('every 2xx JSON response of every operation has a named example', () => {
      const missing: string[] = [];
      for (const [path, item] of Object.entries(doc.paths ?? {})) {
        for (const [method, operation] of Object.entries(item)) {
          if (typeof operation !== 'object' || !operation || !('responses' in operation)) continue;
          for (const [status, rawResponse] of Object.entries(operation.responses as Record<string, unknown>)) {
            if (!status.startsWith('2')) continue;
            const response = deref(doc, rawResponse);
            for (const [mediaType, media] of Object.entries((response.content ?? {}) as Record<string, JsonObject>)) {
              if (!mediaType.includes('json')) continue;
              if (!media.example && !Object.keys((media.examples ?? {}) as object).length) {
                missing.push(`${method.toUpperCase()} ${path} ${status} ${mediaType}`);
              }
            }
          }
        }
      }
      assert.deepEqual(missing, []);
    });
  });
}

test('a broken example is caught (the check can fail)', () => {
  const validator = ContractValidator.forDocument('2020-10-12');
  const problems = validator.validateAt('#/components/schemas/Account', { id: 'acc_1', type: 'savings' });
  assert.ok(problems.length > 0);
});
