// What every command shares: the global options (--base-url, --token, --json), the typed sandbox client, and
// one way to turn a failed call into a message and an exit code.
import { ApiError, createSandboxClient, isSandboxToken } from '@aggregation/client';
import type { Command } from 'commander';
import { paint, printJson } from './output.ts';
import { rememberedToken } from './remembered.ts';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

export interface GlobalOptions {
  baseUrl: string;
  token?: string;
  json?: boolean;
}

/** A command's failure that has already been explained; `main` only sets the exit code. */
export class CliError extends Error {
  readonly body: unknown;
  constructor(message: string, body?: unknown) {
    super(message);
    this.body = body ?? { error: { code: 'cli', message } };
  }
}

export class Context {
  readonly baseUrl: string;
  readonly json: boolean;
  private readonly givenToken: string | undefined;
  /** Set once a command uses a token remembered from `aggregation enroll`, which a reset server no longer knows. */
  private usesRememberedToken = false;

  constructor(options: GlobalOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.json = options.json === true;
    // An empty --token or AGGREGATION_TOKEN is no token: the remembered one applies.
    this.givenToken = options.token || undefined;
  }

  static of(command: Command): Context {
    return new Context(command.optsWithGlobals<GlobalOptions>());
  }

  /** --token, else AGGREGATION_TOKEN, else the remembered token of `enrollmentId` or of the last `aggregation enroll`. */
  token(enrollmentId?: string): string {
    const given = enrollmentId === undefined ? this.givenToken : undefined;
    if (given) return given;
    const token = rememberedToken(this.baseUrl, enrollmentId);
    if (token) {
      this.usesRememberedToken = true;
      return token;
    }
    if (enrollmentId !== undefined) {
      throw new CliError(`No token of ${enrollmentId} is known for ${this.baseUrl}: it was not made by \`aggregation enroll\` here; pass --token.`);
    }
    throw new CliError('No sandbox token: pass --token, set AGGREGATION_TOKEN, or run `aggregation enroll` first.');
  }

  sandbox(token?: string) {
    if (token !== undefined && !isSandboxToken(token)) throw new CliError('The sandbox control API takes sandbox tokens (test_token_...).');
    return createSandboxClient({ baseUrl: this.baseUrl, ...(token ? { token } : {}), fetch: (request) => this.fetch(request) });
  }

  /** fetch, with an unreachable server explained once, here. */
  async fetch(request: Request): Promise<Response> {
    try {
      return await fetch(request);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const why = cause?.code === 'ECONNREFUSED' ? 'connection refused' : (cause?.code ?? cause?.message ?? (error as Error).message);
      throw new CliError(`Cannot reach the server at ${this.baseUrl} (${why}). Start one with \`aggregation serve\`, or pass --base-url.`);
    }
  }

  /** The body of a 2xx answer of the sandbox client, or a CliError saying what the server refused. */
  async ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>, operation: string): Promise<T> {
    const { data, error, response } = await call;
    if (response.ok) return data as T;
    const failure = ApiError.fromResponse(response, error, operation);
    const request = failure.requestId ? `, request ${failure.requestId}` : '';
    const fields = Object.entries(failure.params ?? {}).map(([field, messages]) => `\n  ${field}: ${messages.join('; ')}`);
    const hint =
      this.usesRememberedToken && failure.status === 403 && failure.code === 'forbidden'
        ? `\nThe token was the one \`aggregation enroll\` made for ${this.baseUrl}, and the server no longer accepts it (its database was reset, or the enrollment was deleted): run \`aggregation enroll\` again, or pass --token.`
        : '';
    throw new CliError(`${failure.message} (${failure.status} ${failure.code}${request})${fields.join('')}${hint}`, failure.body);
  }

  /** Prints `value` as JSON with --json, else the human text. */
  print(value: unknown, human: () => string): void {
    if (this.json) printJson(value);
    else console.log(human());
  }

  /** Reports a failure on stderr (and as JSON on stdout with --json). */
  fail(error: unknown): void {
    const message = error instanceof CliError ? error.message : String((error as Error)?.stack ?? error);
    if (this.json) printJson(error instanceof CliError ? error.body : { error: { code: 'cli', message } });
    console.error(paint('red', `Error: ${message}`, process.stderr));
  }
}
