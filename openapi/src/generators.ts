// The variant of a bundle made for client generators (openapi-generator, openapi-python-client, oapi-codegen, ...):
// the same paths and components, without OpenAPI 3.1's `webhooks`, the `mutualTLS` security scheme and the form
// encoding of request bodies also offered as JSON (each see below). Generators that do not know `webhooks` turn each
// event into a client method that POSTs to a path named after the event, which does not compile (openapi-generator's
// typescript-fetch `WebhooksApi.ts`) or is not valid code (its python `webhooks_api.py`). The event payloads stay
// under `components/schemas`, so a generated client still has a model to parse each event with.
import { join } from 'node:path';
import { type DocumentName, distDir, type JsonObject, type OpenApiDocument } from './bundles.ts';

/** `openapi/dist/<name>.generators.json` (or `.yaml`): the file to feed a client generator. */
export function generatorsBundlePath(name: DocumentName, ext: 'json' | 'yaml' = 'json'): string {
  return join(distDir, `${name}.generators.${ext}`);
}

/**
 * `openapi/dist/<name>.openapi-3.0.json` (or `.yaml`): the generators' variant converted to OpenAPI 3.0.3, for
 * generators that do not read 3.1 (written by the build, scripts/openapi-3.0.ts).
 */
export function openApi30Path(name: DocumentName, ext: 'json' | 'yaml' = 'json'): string {
  return join(distDir, `${name}.openapi-3.0.${ext}`);
}

const note =
  'This variant of the description is made for client generators: it leaves out `webhooks`, which many ' +
  'generators turn into client methods that do not compile. Each event is still described, as a schema under ' +
  '`components/schemas` (`<Name>Event`), to parse the events your webhook endpoint receives. It also leaves out the ' +
  "`mutualTLS` security scheme, which generators do not know: live requests still need the developer's TLS client " +
  'certificate, set on the HTTP client. Request bodies are offered as JSON alone; the service also accepts them ' +
  'form-encoded, as the full description says.';

/** The generators' variant of a bundle. Throws when an event's payload is not a named component schema. */
export function forGenerators(bundle: OpenApiDocument): OpenApiDocument {
  const { webhooks = {}, ...rest } = structuredClone(bundle);
  for (const [event, pathItem] of Object.entries(webhooks)) {
    for (const operation of Object.values(pathItem)) {
      const content = ((operation.requestBody as JsonObject | undefined)?.content ?? {}) as Record<string, JsonObject>;
      for (const media of Object.values(content)) {
        const ref = (media.schema as JsonObject | undefined)?.$ref;
        if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) {
          throw new Error(`webhook ${event}: its payload must be a schema under components/schemas to survive without webhooks`);
        }
      }
    }
  }
  const variant = rest as OpenApiDocument;
  const hadMutualTls = dropMutualTls(variant);
  const hadFormBodies = jsonBodiesOnly(variant);
  if (Object.keys(webhooks).length === 0 && !hadMutualTls && !hadFormBodies) return variant;
  variant.info = { ...variant.info, description: `${String(variant.info.description ?? '').trimEnd()}\n\n${note}\n` };
  // A tag that only events carried (Webhooks) would be an empty group in a generated client or its docs.
  const usedTags = new Set(
    Object.values(variant.paths ?? {}).flatMap((pathItem) =>
      Object.values(pathItem).flatMap((operation) => ((operation as JsonObject)?.tags ?? []) as string[]),
    ),
  );
  if (Array.isArray(variant.tags)) variant.tags = (variant.tags as { name: string }[]).filter((tag) => usedTags.has(tag.name));
  return variant;
}

/**
 * The `mutualTLS` scheme is left out with every requirement that names it; a requirement that named it beside another
 * keeps the other, once. The certificate is a setting of the HTTP client's TLS, not of a request: generators have
 * nothing to generate for it, and openapi-generator reports it as an unknown type once per operation, which ogen
 * refuses outright (OpenAPI 3.0 has no such type either).
 */
function dropMutualTls(document: OpenApiDocument): boolean {
  const schemes = (document.components?.securitySchemes ?? {}) as Record<string, JsonObject>;
  const names = Object.keys(schemes).filter((name) => schemes[name]!.type === 'mutualTLS');
  if (names.length === 0) return false;
  for (const name of names) delete schemes[name];
  const strip = (requirements: unknown): unknown => {
    if (!Array.isArray(requirements)) return requirements;
    const kept = new Map<string, JsonObject>();
    for (const requirement of requirements as JsonObject[]) {
      const rest = Object.fromEntries(Object.entries(requirement).filter(([name]) => !names.includes(name)));
      // `{}` (no credentials) stays only where it was written as such.
      if (Object.keys(rest).length === 0 && Object.keys(requirement).length > 0) continue;
      kept.set(JSON.stringify(rest), rest);
    }
    return [...kept.values()];
  };
  if (document.security) document.security = strip(document.security);
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(pathItem)) {
      if (operation && typeof operation === 'object' && 'security' in operation) operation.security = strip(operation.security);
    }
  }
  return true;
}

/**
 * A request body offered as JSON and form-encoded keeps JSON alone; says whether there was one. Generators that take
 * both build a union of the two that cannot tell them apart: openapi-python-client's client picks the form for its
 * one model and sends `payee` as a string (`payee must be of type object`, 422), and ogen's code for the form's
 * `deepObject` encoding does not compile. The wire format is unchanged: the server still takes both, and the bundle
 * says so.
 */
function jsonBodiesOnly(document: OpenApiDocument): boolean {
  const bodies = [
    ...Object.values(document.components?.requestBodies ?? {}),
    ...Object.values(document.paths ?? {}).flatMap((pathItem) =>
      Object.values(pathItem).map((operation) => (operation as JsonObject | undefined)?.requestBody as JsonObject | undefined),
    ),
  ];
  let found = false;
  for (const body of bodies) {
    const content = body?.content as Record<string, unknown> | undefined;
    if (!content?.['application/json'] || !content['application/x-www-form-urlencoded']) continue;
    delete content['application/x-www-form-urlencoded'];
    found = true;
  }
  return found;
}
