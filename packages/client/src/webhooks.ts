// Webhook signatures with Web Crypto (crypto.subtle), so verification runs unchanged in Node, browsers and edge
// runtimes; that makes the API async.
import { AggregationError } from './errors.ts';
import type { CurrentVersion, Version, WebhookEvent } from './versions.ts';

export const SIGNATURE_HEADER = 'Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 180;
export const webhookEventTypes = [
  'enrollment.disconnected',
  'transactions.processed',
  'account.number_verification.processed',
  'webhook.test',
] as const;

export type WebhookVerificationFailure =
  | 'missing_header'
  | 'malformed_header'
  | 'timestamp_too_old'
  | 'timestamp_in_future'
  | 'signature_mismatch'
  | 'no_secret'
  | 'invalid_payload'
  | 'unknown_event_type';

/**
 * The event was not accepted. Answer it with a 4xx, except for `unknown_event_type`: that event is
 * authentic (its signature matched) but newer than this client; `event` holds it and a 2xx stops redelivery.
 */
export class WebhookVerificationError extends AggregationError {
  readonly reason: WebhookVerificationFailure;
  readonly event: unknown;
  constructor(reason: WebhookVerificationFailure, message: string, event?: unknown) {
    super(message);
    this.reason = reason;
    this.event = event;
  }
}

export type RawBody = string | Uint8Array | ArrayBuffer;

export type VerifyWebhookOptions<V extends Version = CurrentVersion> = {
  /** Largest accepted distance between the signed timestamp and now, either way. Default 180 s. */
  toleranceSeconds?: number;
  /** The receiver's clock: a Date or milliseconds since the epoch. Default now. */
  now?: Date | number;
  /** Chooses the event types of that version; no effect at run time. */
  version?: V;
};

export type ParsedSignatureHeader = { timestamp: number; signatures: string[] };

/**
 * Parses `t=<unix seconds>,v1=<hex>[,v1=<hex>...]`. Items of other schemes are ignored so that a new scheme can be
 * added beside v1; a header without exactly one integer `t` or without any well-formed `v1` is malformed.
 */
export function parseSignatureHeader(header: string): ParsedSignatureHeader {
  let timestamp: number | undefined;
  let timestamps = 0;
  const signatures: string[] = [];
  for (const item of header.split(',')) {
    const separator = item.indexOf('=');
    if (separator <= 0) throw malformed(`item "${item.trim()}" is not key=value`);
    const key = item.slice(0, separator).trim();
    const value = item.slice(separator + 1).trim();
    if (key === 't') {
      timestamps++;
      if (!/^\d{1,15}$/.test(value)) throw malformed('t is not a unix timestamp in seconds');
      timestamp = Number(value);
    } else if (key === 'v1') {
      if (!/^[0-9a-f]{64}$/.test(value)) throw malformed('v1 is not 64 lowercase hex digits');
      signatures.push(value);
    }
  }
  if (timestamps !== 1 || timestamp === undefined) throw malformed('expected exactly one t');
  if (signatures.length === 0) throw malformed('no v1 signature');
  return { timestamp, signatures };
}

/**
 * Verifies a webhook request and returns its typed event. `rawBody` must be the bytes as received (not re-serialized
 * JSON); `secrets` may hold several during a rotation, and any matching `v1` of the header is enough.
 * Throws {@link WebhookVerificationError}.
 */
export async function verifyWebhook<V extends Version = CurrentVersion>(
  rawBody: RawBody,
  signatureHeader: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions<V> = {},
): Promise<WebhookEvent<V>> {
  const keys = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((secret) => secret.length > 0);
  if (keys.length === 0) throw new WebhookVerificationError('no_secret', 'No signing secret given');
  if (!signatureHeader) throw new WebhookVerificationError('missing_header', `The ${SIGNATURE_HEADER} header is missing`);
  const { timestamp, signatures } = parseSignatureHeader(signatureHeader);

  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor(toMillis(options.now) / 1000);
  if (timestamp < nowSeconds - tolerance) {
    throw new WebhookVerificationError('timestamp_too_old', `Signed ${nowSeconds - timestamp} s ago, over ${tolerance} s`);
  }
  if (timestamp > nowSeconds + tolerance) {
    throw new WebhookVerificationError('timestamp_in_future', `Signed ${timestamp - nowSeconds} s ahead, over ${tolerance} s`);
  }

  const body = toBytes(rawBody);
  const message = signedMessage(timestamp, body);
  let matched = false;
  for (const secret of keys) {
    const expected = await hmacSha256(secret, message);
    // Every candidate is compared in full, so the time taken does not tell which one matched.
    for (const candidate of signatures) {
      if (constantTimeEqual(expected, hexToBytes(candidate))) matched = true;
    }
  }
  if (!matched) throw new WebhookVerificationError('signature_mismatch', 'No v1 signature matches a signing secret');

  return parseEvent<V>(body);
}

/** Signs a body the way the service does; for tests and local tooling. Returns the header value. */
export async function signWebhook(rawBody: RawBody, secrets: string | readonly string[], options: { timestamp?: number } = {}): Promise<string> {
  const keys = typeof secrets === 'string' ? [secrets] : [...secrets];
  if (keys.length === 0) throw new WebhookVerificationError('no_secret', 'No signing secret given');
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const message = signedMessage(timestamp, toBytes(rawBody));
  const items = [`t=${timestamp}`];
  for (const secret of keys) items.push(`v1=${bytesToHex(await hmacSha256(secret, message))}`);
  return items.join(',');
}

function parseEvent<V extends Version>(body: Uint8Array): WebhookEvent<V> {
  let event: unknown;
  try {
    event = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The body is not UTF-8 JSON');
  }
  const envelope = event as { id?: unknown; type?: unknown; timestamp?: unknown; payload?: unknown } | null;
  if (
    typeof envelope !== 'object' ||
    envelope === null ||
    typeof envelope.id !== 'string' ||
    typeof envelope.type !== 'string' ||
    typeof envelope.timestamp !== 'string' ||
    typeof envelope.payload !== 'object' ||
    envelope.payload === null ||
    Array.isArray(envelope.payload)
  ) {
    throw new WebhookVerificationError('invalid_payload', 'The body is not an event envelope {id, type, timestamp, payload}');
  }
  if (!(webhookEventTypes as readonly string[]).includes(envelope.type)) {
    throw new WebhookVerificationError('unknown_event_type', `Unknown event type ${envelope.type}`, event);
  }
  return event as WebhookEvent<V>;
}

const encoder = new TextEncoder();

function signedMessage(timestamp: number, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix, 0);
  message.set(body, prefix.length);
  return message;
}

// Importing a key costs more than the HMAC itself, and a receiver verifies every event with the same few secrets.
const importedKeys = new Map<string, Promise<CryptoKey>>();
const MAX_CACHED_KEYS = 32;

function hmacKey(secret: string): Promise<CryptoKey> {
  let key = importedKeys.get(secret);
  if (!key) {
    if (importedKeys.size >= MAX_CACHED_KEYS) importedKeys.clear();
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    importedKeys.set(secret, key);
    // A failed import is not kept: the next call tries again.
    key.catch(() => importedKeys.delete(secret));
  }
  return key;
}

async function hmacSha256(secret: string, message: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), message));
}

/** Compares without an early exit; lengths are public (both are SHA-256 sizes here). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= (a[i] as number) ^ (b[i] as number);
  return difference === 0;
}

function toBytes(body: RawBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  return new Uint8Array(body);
}

function toMillis(now: Date | number | undefined): number {
  if (now === undefined) return Date.now();
  return typeof now === 'number' ? now : now.getTime();
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function malformed(detail: string): WebhookVerificationError {
  return new WebhookVerificationError('malformed_header', `Malformed ${SIGNATURE_HEADER} header: ${detail}`);
}
