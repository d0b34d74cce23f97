// A schema of the description made standalone, as an MCP tool carries it: every `$ref` replaced by what it names, so
// that a host which never saw the bundle can read and validate it. Only local references exist in a bundle
// (`#/components/schemas/...`); the walk of @aggregation/openapi follows them.
import type { JsonObject, OpenApiDocument } from '@aggregation/openapi/bundles';
import { escapePointer, locate } from '@aggregation/openapi/operations';

/** Keywords that hold data, not schemas: a `$ref` inside them is text, never followed. */
const dataKeywords = new Set(['const', 'default', 'enum', 'example', 'examples']);

/** Keywords whose value maps names to schemas: the names are not keywords (a property may be called `enum`). */
const schemaMaps = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

/**
 * Keywords that only annotate. A `$ref` may stand beside them (OpenAPI 3.1, JSON Schema 2020-12): they then describe
 * this use of the referenced schema and win over its own. Any other keyword beside a `$ref` would have to hold as well
 * as the referenced schema, which a merge could not say; the description has none, and one would be refused.
 */
const annotationKeywords = new Set(['description', 'title', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The schema at `pointer` (or `value` standing there), with every reference it reaches replaced by its target. */
export function inlineSchema(document: OpenApiDocument, value: unknown, pointer: string): JsonObject {
  const inlined = inline(document, value, pointer, []);
  if (!isObject(inlined)) throw new Error(`${pointer} is not a schema object`);
  return inlined;
}

function inline(document: OpenApiDocument, value: unknown, pointer: string, trail: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item, index) => inline(document, item, `${pointer}/${index}`, trail));
  if (!isObject(value)) return value;
  if (typeof value.$ref === 'string') {
    const ref = value.$ref;
    if (trail.includes(ref)) throw new Error(`${pointer}: ${ref} refers to itself, which an inlined schema cannot hold`);
    const target = locate(document, value, pointer);
    const resolved = inline(document, target.value, target.pointer, [...trail, ref]);
    const siblings = Object.entries(value).filter(([key]) => key !== '$ref');
    const refused = siblings.filter(([key]) => !annotationKeywords.has(key)).map(([key]) => key);
    if (refused.length > 0) throw new Error(`${pointer}: ${refused.join(', ')} beside $ref ${ref} cannot be merged into it`);
    return Object.fromEntries([...Object.entries(resolved as JsonObject), ...siblings]);
  }
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    const at = `${pointer}/${escapePointer(key)}`;
    if (dataKeywords.has(key)) out[key] = child;
    else if (schemaMaps.has(key) && isObject(child)) {
      out[key] = Object.fromEntries(
        Object.entries(child).map(([name, schema]) => [name, inline(document, schema, `${at}/${escapePointer(name)}`, trail)]),
      );
    } else out[key] = inline(document, child, at, trail);
  }
  return out;
}
