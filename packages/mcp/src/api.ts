// What talking to the API takes: the client, the tools' validators (call.ts) and the declared error codes.
// The server imports this module on its first call, not at start: the client (with undici) and Ajv cost more to load
// than everything `tools/list` needs.
import { ApiError, createClient, isLiveToken, isSandboxToken } from '@aggregation/client';
import { loadBundle } from '@aggregation/openapi/bundles';
import { type ErrorCode, errorCodesOf } from '@aggregation/openapi/error-codes';
import type { Version } from '@aggregation/openapi/versions';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { type CallContext, callTool, type ToolOutcome } from './call.ts';
import { apiFailure, thrownFailure } from './errors.ts';
import { PromptArgumentError, summarizeSpending } from './prompts.ts';
import type { ToolDefinition } from './tools.ts';

export type ApiOptions = {
  baseUrl: string;
  token: string | undefined;
  version: Version;
  maxRetries: number | undefined;
  cert: string | undefined;
  key: string | undefined;
  /** The client's log lines (AGGREGATION_LOG) go here, never to stdout. */
  log: (line: string) => void;
};

export const NO_TOKEN =
  'No access token: start the server with AGGREGATION_TOKEN set (or --token). A sandbox token comes from `npx aggregation enroll` or `POST /sandbox/enrollments`.';

/** A prompt that cannot be given: `invalid` for its arguments or a 4xx of the API, `internal` otherwise. */
export class PromptFailure extends Error {
  readonly kind: 'invalid' | 'internal';
  /** For the log: status and code, or the kind of failure. */
  readonly summary: string;
  constructor(kind: 'invalid' | 'internal', message: string, summary: string) {
    super(message);
    this.kind = kind;
    this.summary = summary;
  }
}

export class Api {
  private readonly context: CallContext;
  /** Why there is no client although a token was given (a live token without a certificate). */
  readonly problem: string | undefined;

  constructor(options: ApiOptions) {
    const token = options.token?.trim();
    let client: CallContext['client'];
    let problem: string | undefined;
    if (token && isLiveToken(token) && (options.cert === undefined || options.key === undefined)) {
      problem =
        'A live token (token_...) needs the TLS client certificate issued to your application: start the server with --cert and --key (PEM files).';
    } else if (token) {
      const line = (message: string) => options.log(message);
      try {
        client = createClient({
          token,
          baseUrl: options.baseUrl,
          version: options.version,
          logger: { error: line, warn: line, info: line, debug: line },
          ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
          ...(options.cert === undefined ? {} : { cert: options.cert }),
          ...(options.key === undefined ? {} : { key: options.key }),
        }) as unknown as CallContext['client'];
      } catch (error) {
        problem = thrownFailure(error, options.baseUrl).text;
      }
    }
    this.problem = problem;
    this.context = {
      client,
      baseUrl: options.baseUrl,
      sandbox: token !== undefined && isSandboxToken(token),
      codes: errorCodesOf(loadBundle(options.version)) as readonly ErrorCode[],
      noClient: problem ?? NO_TOKEN,
    };
  }

  call(tool: ToolDefinition, args: Record<string, unknown> | undefined): Promise<ToolOutcome> {
    return callTool(tool, args, this.context);
  }

  async prompt(args: Record<string, string | undefined>): Promise<GetPromptResult> {
    const { client } = this.context;
    if (!client) throw new PromptFailure('invalid', this.context.noClient, 'no client');
    try {
      return await summarizeSpending(client, args);
    } catch (error) {
      if (error instanceof PromptArgumentError) throw new PromptFailure('invalid', error.message, 'invalid arguments');
      const failure = error instanceof ApiError ? apiFailure(error, this.context.codes) : thrownFailure(error, this.context.baseUrl);
      throw new PromptFailure(error instanceof ApiError && error.status < 500 ? 'invalid' : 'internal', failure.text, failure.summary);
    }
  }
}
