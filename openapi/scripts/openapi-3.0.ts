// The OpenAPI 3.0.3 variant of a bundle, for generators that do not take 3.1 (progenitor, ogen, NSwag, older
// openapi-generator templates). Made from the generators' variant (no `webhooks`, each event a schema under
// components; no `mutualTLS`, which 3.0 has no type for either; request bodies in JSON alone) by
// @apiture/openapi-down-convert, which handles what has a 3.0 form: `type: [x, "null"]` to `nullable`, `const` to a
// one-value `enum`, schema `examples` to `example`, `$ref` siblings, the license's SPDX `identifier`, `$schema`/`$id`,
// `contentMediaType`/`contentEncoding`. What it leaves alone is finished here, and each step says why; the README
// lists what a 3.0 reader loses.
import { Converter } from '@apiture/openapi-down-convert';
import type { JsonObject, OpenApiDocument } from '../src/bundles.ts';
import { forGenerators } from '../src/generators.ts';
import { deref } from '../src/operations.ts';

const note =
  'This is the OpenAPI 3.0.3 form of the description, converted from the OpenAPI 3.1 one for generators that do not ' +
  "read 3.1. Like the generators' variant it is made from, it leaves out `webhooks` and the `mutualTLS` security scheme.";

/** The SPDX license page, standing in for the `identifier` that 3.0's License Object lacks. */
const spdxUrl = (identifier: string) => `https://spdx.org/licenses/${identifier}.html`;

export function toOpenApi30(bundle: OpenApiDocument): OpenApiDocument {
  const source = forGenerators(bundle);
  const license = source.info.license as { name: string; identifier?: string; url?: string } | undefined;
  // allOfTransform: a `$ref` with a sibling `description` becomes `allOf: [<ref>]` beside it, so the property keeps its
  // own description (without it, the sibling would be left in place, which 3.0 forbids). verbose off: the converter
  // reports each change on stderr, and the build's output stays for real problems.
  const converted = new Converter(structuredClone(source), { verbose: false, allOfTransform: true }).convert() as OpenApiDocument;
  nullableUnions(converted);
  // 3.0's Info Object has no `summary`; the description says the same at more length.
  const { summary: _summary, ...info } = converted.info;
  converted.info = { ...info, description: `${String(info.description ?? '').trimEnd()}\n\n${note}\n` };
  if (license?.identifier && !license.url) converted.info.license = { name: license.name, url: spdxUrl(license.identifier) };
  dropUnreferenced(converted, ['examples', 'parameters', 'headers']);
  return converted;
}

/**
 * `anyOf: [<schema>, {type: "null"}]` (a nullable reference, which the converter leaves as it is) becomes the
 * referenced schema inline with `nullable: true`, the property's own keywords kept over it. 3.0.3 lets `nullable`
 * widen only the `type` beside it: `allOf: [<ref>]` with `nullable` would still refuse `null` (Spectral's example
 * check says so), so the named schema gives way to its content there.
 */
function nullableUnions(document: OpenApiDocument, node: unknown = document): void {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) nullableUnions(document, item);
    return;
  }
  const schema = node as JsonObject;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches) || branches.length !== 2) continue;
    const nonNull = branches.filter((branch) => (branch as JsonObject).type !== 'null');
    if (nonNull.length !== 1) continue;
    const { title: _title, description: _description, ...target } = structuredClone(deref(document, nonNull[0]));
    // A union of its own (`oneOf` of objects) stays a reference: `nullable` would widen no branch of it, so a branch
    // that is `null` takes the place of `{type: "null"}`.
    if (target.type === undefined && (target.oneOf || target.anyOf)) {
      schema[keyword] = [nonNull[0], { type: 'object', nullable: true, enum: [null] }];
      continue;
    }
    delete schema[keyword];
    Object.assign(schema, { ...target, ...schema, nullable: true });
    // An enum lists every value it allows: under 3.0.3, `nullable` does not add `null` to it. Its constant names
    // (`x-enum-varnames`) belong to the named schema and would no longer line up with its values.
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) {
      schema.enum = [...schema.enum, null];
      delete schema['x-enum-varnames'];
    }
  }
  for (const child of Object.values(schema)) nullableUnions(document, child);
}

/**
 * Components of these kinds that nothing references any more (the events' examples and the signature header
 * parameter were used by `webhooks` only) are left out. Schemas stay: the event schemas are kept on purpose.
 */
function dropUnreferenced(document: OpenApiDocument, kinds: readonly string[]): void {
  const components = document.components ?? {};
  for (let removed = true; removed; ) {
    removed = false;
    for (const kind of kinds) {
      for (const name of Object.keys(components[kind] ?? {})) {
        // Every reference in the document but the component's own definition.
        const others = JSON.stringify({ ...document, components: { ...components, [kind]: { ...components[kind], [name]: null } } });
        if (others.includes(JSON.stringify(`#/components/${kind}/${name}`))) continue;
        delete components[kind]![name];
        removed = true;
      }
      if (components[kind] && Object.keys(components[kind]).length === 0) delete components[kind];
    }
  }
}
