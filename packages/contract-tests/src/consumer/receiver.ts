// The checks of an integrator's webhook receiver: every event type of the description's `webhooks` (its documented
// example, with a fresh id and timestamp) sent validly signed, then forged (the body changed after signing), unsigned,
// stale (signed longer ago than the tolerance), signed only with a rotated-out secret, and replayed (the valid event
// again, same id). A receiver passes when it answers 2xx to the valid events and to the replays, and anything else
// to the rest, each within the sandbox's delivery timeout. Signatures are made by the client's own signWebhook, with
// its tolerance; the delivery timeout is the sandbox document's.
import { connect } from 'node:net';
import { DEFAULT_TOLERANCE_SECONDS, SIGNATURE_HEADER, signWebhook } from '@aggregation/client';
import { type DocumentName, deref, type JsonObject, loadBundle, webhookDeliveryTimeoutMs, webhooksOf } from '@aggregation/openapi/contract';
import { validatorOf } from '../coverage.ts';
import { Collector } from '../report/collect.ts';
import { curlOf } from '../report/curl.ts';
import type { Testsuite } from '../report/types.ts';

/** The receiver checks, in the order they are sent; each is a testcase per event type. */
export const RECEIVER_CHECKS = [
  'valid signature',
  'forged signature',
  'unsigned',
  'stale timestamp',
  'rotated-out secret',
  'replayed event id',
] as const;
export type ReceiverCheck = (typeof RECEIVER_CHECKS)[number];

/** How much older than the tolerance a stale event is signed. */
const STALE_MARGIN_SECONDS = 60;

export type ReceiverOptions = {
  url: string;
  /** The secret the receiver checks signatures with. */
  secret: string;
  /** A secret that no longer signs events (the receiver must refuse an event signed with it alone). */
  rotatedOutSecret: string;
  version: DocumentName;
  /** Events of several checks are sent at once (a receiver is a server: it answers many). */
  log?: (line: string) => void;
};

export type ReceiverOutcome = { testsuites: Testsuite[]; errors: string[]; sent: number };

/** One event of each type the description documents, as its example shows it, with a fresh id and timestamp. */
export function documentedEvents(version: DocumentName, run = Date.now().toString(36)): { type: string; body: JsonObject }[] {
  const doc = loadBundle(version);
  return webhooksOf(doc).map((event, index) => {
    const media = event.requestBody?.content.find((m) => m.mediaType === 'application/json');
    const examples = Object.values((media?.media.examples ?? {}) as Record<string, unknown>);
    const example = examples.length ? deref<{ value: JsonObject }>(doc, examples[0]).value : undefined;
    if (!example) throw new Error(`the description documents no example of the ${event.name} event`);
    return { type: event.name, body: { ...example, id: `evt_check_${run}_${index}`, timestamp: new Date().toISOString() } };
  });
}

/** Problems of an event body against the description's schema of its type. */
export function eventProblems(version: DocumentName, type: string, body: unknown): string[] {
  const validator = validatorOf(version);
  const event = webhooksOf(validator.doc).find((e) => e.name === type);
  const media = event?.requestBody?.content.find((m) => m.mediaType === 'application/json');
  if (!media) return [`${type} is not a documented event`];
  return validator.validateAt(media.schemaPointer, body).map((p) => p.message);
}

/** Waits until something accepts connections at the URL; false once `stop()` says to give up. */
export async function waitUntilListening(url: string, stop: () => boolean): Promise<boolean> {
  const { hostname, port, protocol } = new URL(url);
  const target = { host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || (protocol === 'https:' ? 443 : 80)) };
  while (!stop()) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(target);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

type Delivery = { check: ReceiverCheck; type: string; body: string; headers: Record<string, string>; expect: '2xx' | 'refused' };

async function deliveriesOf(options: ReceiverOptions): Promise<Delivery[]> {
  const now = Math.floor(Date.now() / 1000);
  const staleAt = now - DEFAULT_TOLERANCE_SECONDS - STALE_MARGIN_SECONDS;
  const out: Delivery[] = [];
  const json = { 'content-type': 'application/json' };
  for (const { type, body } of documentedEvents(options.version)) {
    const valid = JSON.stringify(body);
    const stale = JSON.stringify({ ...body, id: `${String(body.id)}_stale`, timestamp: new Date(staleAt * 1000).toISOString() });
    const forgedSource = JSON.stringify({ ...body, id: `${String(body.id)}_forged` });
    // The signature of one body on another: what an attacker who saw a signed event can send.
    const forged = JSON.stringify({
      ...body,
      id: `${String(body.id)}_forged`,
      payload: { ...(body.payload as JsonObject), enrollment_id: 'enr_forged' },
    });
    const rotated = JSON.stringify({ ...body, id: `${String(body.id)}_rotated` });
    const unsigned = JSON.stringify({ ...body, id: `${String(body.id)}_unsigned` });
    out.push(
      {
        check: 'valid signature',
        type,
        body: valid,
        headers: { ...json, [SIGNATURE_HEADER]: await signWebhook(valid, options.secret) },
        expect: '2xx',
      },
      {
        check: 'forged signature',
        type,
        body: forged,
        headers: { ...json, [SIGNATURE_HEADER]: await signWebhook(forgedSource, options.secret) },
        expect: 'refused',
      },
      { check: 'unsigned', type, body: unsigned, headers: json, expect: 'refused' },
      {
        check: 'stale timestamp',
        type,
        body: stale,
        headers: { ...json, [SIGNATURE_HEADER]: await signWebhook(stale, options.secret, { timestamp: staleAt }) },
        expect: 'refused',
      },
      {
        check: 'rotated-out secret',
        type,
        body: rotated,
        headers: { ...json, [SIGNATURE_HEADER]: await signWebhook(rotated, options.rotatedOutSecret) },
        expect: 'refused',
      },
      // The same event again, freshly signed as a redelivery is: a receiver acknowledges it and does its work once.
      {
        check: 'replayed event id',
        type,
        body: valid,
        headers: { ...json, [SIGNATURE_HEADER]: await signWebhook(valid, options.secret) },
        expect: '2xx',
      },
    );
  }
  return out;
}

const what: Record<ReceiverCheck, string> = {
  'valid signature': 'a validly signed event',
  'forged signature': 'an event whose body was changed after it was signed',
  unsigned: `an event without ${SIGNATURE_HEADER}`,
  'stale timestamp': `an event signed ${DEFAULT_TOLERANCE_SECONDS + STALE_MARGIN_SECONDS} s ago (the description's tolerance is ${DEFAULT_TOLERANCE_SECONDS} s)`,
  'rotated-out secret': 'an event signed only with a secret that was rotated out',
  'replayed event id': 'the valid event again, with the same id (a redelivery)',
};

const rules: Record<'2xx' | 'refused', string> = {
  '2xx': 'a receiver answers 2xx to every valid event and to a replay, within the delivery timeout',
  refused: `a receiver refuses (non-2xx) an event without a ${SIGNATURE_HEADER} that matches a live secret within ${DEFAULT_TOLERANCE_SECONDS} s`,
};

/** Sends every check to the receiver and judges its answers. */
export async function checkReceiver(options: ReceiverOptions): Promise<ReceiverOutcome> {
  const collector = new Collector('receiver');
  const timeout = webhookDeliveryTimeoutMs();
  const deliveries = await deliveriesOf(options);
  const errors: string[] = [];
  for (const delivery of deliveries) {
    const key = { document: options.version, operation: delivery.type, check: delivery.check };
    const request = { method: 'POST', url: options.url, headers: delivery.headers, body: delivery.body };
    let status: number | undefined;
    let failure: string | undefined;
    try {
      const answer = await fetch(options.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        signal: AbortSignal.timeout(timeout),
        redirect: 'manual',
      });
      status = answer.status;
      await answer.body?.cancel();
    } catch (error) {
      const cause = (error as Error & { cause?: NodeJS.ErrnoException }).cause;
      failure =
        (error as Error).name === 'TimeoutError'
          ? `no answer within the delivery timeout (${timeout / 1000} s)`
          : cause?.code === 'ECONNREFUSED'
            ? `nothing listens at ${options.url} (connection refused)`
            : `no answer: ${cause?.message ?? (error as Error).message}`;
      if (cause?.code === 'ECONNREFUSED' && !errors.length) errors.push(`the receiver at ${options.url} does not listen (connection refused)`);
    }
    const ok = status !== undefined && status >= 200 && status < 300;
    const passed = status !== undefined && (delivery.expect === '2xx' ? ok : !ok);
    collector.record(
      key,
      passed
        ? undefined
        : {
            message: `${what[delivery.check]} (${delivery.type}): ${failure ?? `answered ${status}`}, expected ${delivery.expect === '2xx' ? 'a 2xx' : 'a refusal (not 2xx)'}`,
            rule: rules[delivery.expect],
            kind: delivery.check,
            request,
            curl: curlOf(request),
            ...(status !== undefined ? { response: { status, excerpt: '' } } : {}),
          },
    );
  }
  const testsuites = collector.testsuites().map((s) => ({ ...s, suite: 'receiver' as const, name: `receiver ${options.url}` }));
  for (const s of testsuites)
    s.notes.push(
      `${deliveries.length} deliveries: ${RECEIVER_CHECKS.join(', ')}, for each of ${deliveries.length / RECEIVER_CHECKS.length} event types`,
    );
  return { testsuites, errors, sent: deliveries.length };
}
