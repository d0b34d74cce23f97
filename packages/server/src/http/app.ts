// The Hono app: the edge's tracking, errors and not-found answers, the version and body limit
// middleware, the routes of each document, the rendered reference under /docs and the enrollment widget under /connect.
// The serving half only: the package's main entry also loads the Postman converter, some 50 MB the server never uses.
import type { IncomingMessage } from 'node:http';
import { connectApp } from '@aggregation/connect/serve';
import { docsApp } from '@aggregation/docs/serve';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RequestValidator } from '../contract/requests.ts';
import { ApiError } from '../domain/errors.ts';
import { VERSIONS } from '../versions/index.ts';
import type { Edge } from './edge.ts';
import type { AppEnv, Runtime } from './env.ts';
import { errorResponse, notFoundResponse } from './middleware/errors.ts';
import { addressCaller, limitRate, rateLimitByAddress } from './middleware/rate-limit.ts';
import { MAX_BODY_BYTES, type Validators } from './middleware/validate.ts';
import { versionMiddleware } from './middleware/version.ts';
import type { ReadCache } from './read-cache.ts';
import { registerOperations } from './routes.ts';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

const tooLarge = () => new ApiError(413, 'payload_too_large', 'The request body is too large.');

/** The body's length as the Node request declares it; undefined when it streams in chunks (or runs outside Node). */
function declaredLength(incoming: IncomingMessage | undefined): number | undefined {
  const length = incoming?.headers['content-length'];
  if (length === undefined || incoming!.headers['transfer-encoding'] !== undefined) return undefined;
  return Number(length);
}

export function loadValidators(sandbox: boolean): Validators {
  try {
    return {
      api: new Map(VERSIONS.map((version) => [version, RequestValidator.forDocument(version)])),
      sandbox: sandbox ? RequestValidator.forDocument('sandbox') : undefined,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error('The bundled description is missing (openapi/dist); build it first: npm run build -w @aggregation/openapi', {
      cause: error,
    });
  }
}

export interface HttpAppOptions {
  edge: Edge;
  validators: Validators;
  readCache: ReadCache | undefined;
  /** Absolute base of links; undefined: the origin of each request. */
  publicUrl: string | undefined;
  logError: (error: unknown) => void;
}

export function httpApp(runtime: Runtime, { edge, validators, readCache, publicUrl, logError }: HttpAppOptions): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(edge.track);
  const documented = [...validators.api.values()].slice(0, 1).concat(validators.sandbox ? [validators.sandbox] : []);
  app.onError((error, c) => errorResponse(c, error, logError));
  const answerNotFound = notFoundResponse((path) => documented.flatMap((validator) => validator.contract.allowedMethods(path)));
  // Requests no route takes count against the client address like unauthenticated ones.
  app.notFound((c) => {
    try {
      limitRate(runtime.rateLimit, addressCaller(c.env?.incoming));
    } catch (error) {
      return errorResponse(c, error, logError);
    }
    return answerNotFound(c);
  });
  app.use(versionMiddleware(runtime.defaultVersion, publicUrl));
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw tooLarge();
    },
  });
  // bodyLimit reads `c.req.raw.body`, which makes the adapter build a full Request (with an abort signal and a
  // stream of the body), a large share of a request's cost and of its garbage. Bodyless methods skip it, and so does a
  // body of a declared length within the limit (Node's parser reads no byte past it), which the adapter then reads
  // directly; only a chunked body is counted as it streams in.
  app.use((c, next) => {
    if (BODYLESS.has(c.req.method)) return next();
    const declared = declaredLength(c.env?.incoming);
    if (declared === undefined) return limitBody(c, next);
    if (declared > MAX_BODY_BYTES) throw tooLarge();
    return next();
  });

  registerOperations(app, runtime, validators, readCache);
  // The rendered reference of every document, next to the API it describes.
  if (runtime.rateLimit) app.use('/docs/*', rateLimitByAddress(runtime));
  app.route('/docs', docsApp());
  // The enrollment widget: /connect/connect.js for the integrator's pages, and the frame it opens. It enrolls through
  // the sandbox control API, so it is served with it only.
  if (validators.sandbox) {
    if (runtime.rateLimit) app.use('/connect/*', rateLimitByAddress(runtime));
    app.route('/connect', connectApp());
  }
  return app;
}
