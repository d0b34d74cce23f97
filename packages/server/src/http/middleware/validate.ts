// Validates each request against its operation in the bundled description before the
// handler runs: invalid parameters or bodies answer 422 with `params`, and nothing is written.
import type { MiddlewareHandler } from 'hono';
import { setOwn } from '../../contract/own-property.ts';
import type { RequestValidator } from '../../contract/requests.ts';
import { ApiError, badRequest, unprocessable } from '../../domain/errors.ts';
import { upgradeRequest } from '../../versions/index.ts';
import type { AppEnv } from '../env.ts';

export const MAX_BODY_BYTES = 1 << 20;

export interface Validators {
  /** By version, for the main API. */
  api: Map<string, RequestValidator>;
  sandbox: RequestValidator | undefined;
}

const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/**
 * `a=1&b[c]=2` to `{a: '1', b: {c: '2'}}`. Every field is an own property, even `__proto__` or `constructor`, so
 * that a field name reaches no prototype and the schema check refuses it like any unknown field.
 */
export function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.split(/\[|\]\[|\]/).filter((part, index) => index === 0 || part !== '');
    let node = out;
    for (const [index, key] of path.entries()) {
      if (index === path.length - 1) {
        setOwn(node, key, value);
      } else {
        const child = Object.hasOwn(node, key) ? node[key] : undefined;
        if (typeof child !== 'object' || child === null) setOwn(node, key, {});
        node = node[key] as Record<string, unknown>;
      }
    }
  }
  return out;
}

async function readBody(text: string, contentType: string | undefined): Promise<{ mediaType: string; value: unknown } | undefined> {
  if (text.trim() === '') return undefined;
  const mediaType = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  // `curl -d '{...}'` labels JSON as a form: a form body cannot start with `{`.
  const looksJson = /^\s*[{[]/.test(text);
  if (mediaType === JSON_TYPE || mediaType.endsWith('+json') || (looksJson && (mediaType === FORM || mediaType === ''))) {
    try {
      return { mediaType: JSON_TYPE, value: JSON.parse(text) };
    } catch {
      throw badRequest('The request body is not valid JSON.');
    }
  }
  if (mediaType === FORM || mediaType === '') return { mediaType: FORM, value: parseForm(text) };
  throw new ApiError(400, 'bad_request', `Unsupported Content-Type "${mediaType}": send ${JSON_TYPE} or ${FORM}.`);
}

export function validateRequest(validators: Validators, operationId: string, document: 'api' | 'sandbox'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const version = c.get('version');
    const validator = document === 'sandbox' ? validators.sandbox : validators.api.get(version);
    if (!validator) throw new Error(`no description loaded for ${document} ${version}`);
    let body: { mediaType: string; value: unknown } | undefined;
    if (c.req.method !== 'GET' && c.req.method !== 'DELETE' && c.req.method !== 'OPTIONS') {
      body = await readBody(await c.req.text(), c.req.header('content-type'));
      if (body && document === 'api') body = { ...body, value: upgradeRequest(version, operationId, body.value) };
    }
    const result = validator.validate(operationId, {
      path: c.req.param() as Record<string, string>,
      query: c.req.query(),
      headers: c.req.raw.headers,
      body,
    });
    if (!result.ok) throw unprocessable(result.params);
    c.set('params', result.value.params);
    c.set('body', result.value.body);
    await next();
  };
}
