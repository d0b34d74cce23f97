// Validates each request against its operation in the bundled description before the
// handler runs: invalid parameters or bodies answer 422 with `params`, and nothing is written.
import type { MiddlewareHandler } from 'hono';
import type { RequestValidator } from '../../contract/requests.ts';
import { ApiError, badRequest, notFound, unprocessable } from '../../domain/errors.ts';
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

/** Names that would reach an object's prototype if walked as keys. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * `a=1&b[c]=2` to `{a: '1', b: {c: '2'}}`, in prototype-less objects. A name with a segment that
 * would walk a prototype (`__proto__[x]=1`) is refused: 422 naming the field.
 */
export function parseForm(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const path = name.split(/\[|\]\[|\]/).filter((part, index) => index === 0 || part !== '');
    if (path.some((key) => PROTOTYPE_KEYS.has(key))) throw unprocessable({ [name]: ['is not allowed'] });
    let node = out;
    for (const [index, key] of path.entries()) {
      if (index === path.length - 1) {
        node[key] = value;
      } else {
        if (typeof node[key] !== 'object' || node[key] === null) node[key] = Object.create(null);
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

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; bytes that are not UTF-8 are refused rather than read as U+FFFD (which would store other text). */
function decodeBody(bytes: ArrayBuffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('The request body is not valid UTF-8.');
  }
}

/** Bodies are read as sent: a compressed one would be parsed as if it were plain, so it is refused. */
function refuseContentEncoding(encoding: string | undefined): void {
  if (encoding === undefined || encoding.trim().toLowerCase() === 'identity') return;
  throw new ApiError(415, 'unsupported_media_type', `Unsupported Content-Encoding "${encoding}": send the body uncompressed.`);
}

export function validateRequest(validators: Validators, operationId: string, document: 'api' | 'sandbox'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const version = c.get('version');
    const validator = document === 'sandbox' ? validators.sandbox : validators.api.get(version);
    if (!validator) throw new Error(`no description loaded for ${document} ${version}`);
    let body: { mediaType: string; value: unknown } | undefined;
    if (c.req.method !== 'GET' && c.req.method !== 'DELETE' && c.req.method !== 'OPTIONS') {
      refuseContentEncoding(c.req.header('content-encoding'));
      body = await readBody(decodeBody(await c.req.arrayBuffer()), c.req.header('content-type'));
      if (body && document === 'api') body = { ...body, value: upgradeRequest(version, operationId, body.value) };
    }
    const result = validator.validate(operationId, {
      path: c.req.param() as Record<string, string>,
      query: c.req.query(),
      headers: c.req.raw.headers,
      body,
    });
    if (!result.ok) {
      if (result.status === 404) throw notFound(`Nothing is found at ${new URL(c.req.url).pathname}.`);
      throw unprocessable(result.params);
    }
    c.set('params', result.value.params);
    c.set('body', result.value.body);
    await next();
  };
}
