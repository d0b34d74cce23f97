// The fields of a schema as rows a reader scans: `details.category`, its type, whether it is required and what it
// means. References are followed (a schema met again on the same branch is named, not expanded), `allOf` is merged
// and each alternative of a `oneOf`/`anyOf` is listed under its own name.
import { deref, type JsonObject, type OpenApiDocument } from '@aggregation/openapi/contract';
import { typeLabel } from './diff.ts';

export type Field = { name: string; type: string; required: boolean; description: string };

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const refOf = (node: unknown) => (isObject(node) && typeof node.$ref === 'string' ? node.$ref : undefined);

/** The first paragraph of a description, on one line. */
export function firstParagraph(text: unknown): string {
  if (typeof text !== 'string') return '';
  return (text.trim().split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ');
}

/** Properties and required names of a schema, with `allOf` merged. */
function objectParts(document: OpenApiDocument, schema: JsonObject): { properties: Record<string, unknown>; required: string[] } {
  const properties: Record<string, unknown> = { ...(isObject(schema.properties) ? schema.properties : {}) };
  const required = Array.isArray(schema.required) ? schema.required.map(String) : [];
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const merged = objectParts(document, deref<JsonObject>(document, part));
    Object.assign(properties, merged.properties);
    required.push(...merged.required);
  }
  return { properties, required };
}

function walk(document: OpenApiDocument, node: unknown, prefix: string, seen: readonly string[], out: Field[]): void {
  const ref = refOf(node);
  if (ref && seen.includes(ref)) return;
  const schema = deref<JsonObject>(document, node);
  if (!isObject(schema)) return;
  const trail = ref ? [...seen, ref] : seen;
  const alternatives = (Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : []) as unknown[];
  for (const alternative of alternatives) {
    if (deref<JsonObject>(document, alternative)?.type === 'null') continue;
    const label = typeLabel(alternative);
    walk(document, alternative, prefix ? `${prefix} (${label})` : `(${label})`, trail, out);
  }
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) {
    walk(document, schema.items, `${prefix}[]`, trail, out);
    return;
  }
  const { properties, required } = objectParts(document, schema);
  for (const [name, property] of Object.entries(properties)) {
    const resolved = deref<JsonObject>(document, property);
    const path = prefix ? `${prefix}.${name}` : name;
    const description = firstParagraph((isObject(property) && property.description) || resolved?.description);
    out.push({ name: path, type: typeLabel(property), required: required.includes(name), description });
    walk(document, property, path, trail, out);
  }
}

/** Every field a schema reaches, depth first, in the order the description lists them. */
export function fieldsOf(document: OpenApiDocument, schema: unknown): Field[] {
  const out: Field[] = [];
  walk(document, schema, '', [], out);
  return out;
}
