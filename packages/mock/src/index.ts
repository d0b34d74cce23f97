// Programmatic entry point: start the Prism mock (or validation proxy) of one bundled document.
import type { DocumentName } from '@aggregation/openapi/contract';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { bundlePath, freePort, type Running, runPrism } from './prism.ts';

export type { Running } from './prism.ts';
export { freePort } from './prism.ts';

export const defaultMockPort = 4010;

export type MockOptions = {
  /** Which document to mock: a version date or `sandbox`. Defaults to the current version. */
  version?: DocumentName;
  /** A description file to mock instead of a bundled document (a copy with other examples, say). */
  document?: string;
  /** 0 (the default for the API) picks a free port. */
  port?: number;
  host?: string;
  /** Generate responses from the schemas instead of answering with the documented examples. */
  dynamic?: boolean;
};

/** Starts a mock that answers with the description's examples; `Prefer: code=404, example=name` picks a response. */
export async function startMock(options: MockOptions = {}): Promise<Running> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  const args = ['mock', options.document ?? bundlePath(options.version ?? CURRENT_VERSION), '--errors', '--verboseLevel', 'warn'];
  if (options.dynamic) args.push('--dynamic');
  return runPrism(args, port, host);
}

export type ProxyOptions = {
  version?: DocumentName;
  /** The server to check, e.g. http://127.0.0.1:3000. */
  upstream: string;
  port?: number;
  host?: string;
};

/**
 * Starts Prism's validation proxy in front of a server: requests and responses that break the description are
 * answered with an error response (`--errors`), so a test suite run through it fails on any violation.
 */
export async function startValidationProxy(options: ProxyOptions): Promise<Running> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port || (await freePort(host));
  return runPrism(['proxy', bundlePath(options.version ?? CURRENT_VERSION), options.upstream, '--errors', '--verboseLevel', 'warn'], port, host);
}
