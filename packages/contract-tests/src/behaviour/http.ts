// The behaviour checks' requests: each answer keeps what reproduces it (request, answer excerpt, curl line), so that a
// failed check carries them. Links in answers name the server itself; they are followed through the run's recorder.
import type { DocumentName } from '@aggregation/openapi/contract';
import { curlOf, excerpt } from '../report/curl.ts';
import type { Failure } from '../report/types.ts';

export type Answer = {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, or undefined. */
  json: unknown;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
};

export class Http {
  /** The recorder's address. */
  readonly baseUrl: string;
  /** The server's own address, which links name. */
  readonly serverUrl: string;
  readonly token: string;
  /** Whether the token was given by the user (then curl lines read it from $AGGREGATION_TOKEN). */
  readonly secretToken: boolean;

  constructor(baseUrl: string, serverUrl: string, token: string, secretToken: boolean) {
    this.baseUrl = baseUrl;
    this.serverUrl = serverUrl;
    this.token = token;
    this.secretToken = secretToken;
  }

  /** A link or a path, sent through the recorder. */
  url(target: string): string {
    if (target.startsWith(this.serverUrl)) return `${this.baseUrl}${target.slice(this.serverUrl.length)}`;
    if (/^https?:\/\//.test(target)) return target;
    return `${this.baseUrl}${target}`;
  }

  async send(
    method: string,
    target: string,
    options: { version?: string; body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ): Promise<Answer> {
    const token = options.token === undefined ? this.token : options.token;
    const headers: Record<string, string> = {
      ...(token ? { authorization: `Basic ${btoa(`${token}:`)}` } : {}),
      ...(options.version ? { 'service-version': options.version } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    };
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const url = this.url(target);
    const response = await fetch(url, { method, headers, ...(body ? { body } : {}) });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json, request: { method, url, headers, ...(body ? { body } : {}) } };
  }

  get(target: string, version?: string): Promise<Answer> {
    return this.send('GET', target, version ? { version } : {});
  }

  /** A failure that carries the answer it is about. */
  failure(answer: Answer, message: string, rule?: string): Failure {
    const secret = this.secretToken && answer.request.headers.authorization === `Basic ${btoa(`${this.token}:`)}`;
    const headers = secret ? Object.fromEntries(Object.entries(answer.request.headers).filter(([k]) => k !== 'authorization')) : answer.request.headers;
    const request = { ...answer.request, headers };
    return {
      message,
      request,
      response: { status: answer.status, contentType: answer.headers.get('content-type') ?? '', excerpt: excerpt(answer.text) },
      curl: curlOf(request, secret ? 'AGGREGATION_TOKEN' : undefined),
      ...(rule ? { rule } : {}),
    };
  }
}

/** An error answer's `error.code`, when it has one. */
export const errorCodeOf = (answer: Answer): string | undefined => {
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? code : undefined;
};

/** What a check reports of an answer in one line: its status, and its error code or the start of its body. */
export const shortly = (answer: Answer): string => `${answer.status} ${errorCodeOf(answer) ?? answer.text.slice(0, 200)}`;

/** The operation of a document a check is about, for the testcase's name. */
export type Where = { document: DocumentName; operation: string };
