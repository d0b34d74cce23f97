// The delivery worker as the app runs it: each event rendered in its application's version,
// signed with the application's current secrets, and sent through the fetch that refuses the
// targets the policy refuses (checked again after DNS).
import type { LookupFunction } from 'node:net';
import { webhookDeliveryTimeoutMs } from '@aggregation/openapi/contract';
import { applicationById, versionOf } from '../domain/applications.ts';
import type { Deps } from '../domain/context.ts';
import type { EventType } from '../domain/events.ts';
import { signingSecrets } from '../domain/webhooks.ts';
import type { EventRow } from '../storage/store.ts';
import { rewriteEventPayload } from '../versions/index.ts';
import { guardedFetch, type TargetPolicy } from './targets.ts';
import { DeliveryWorker, defaultRetry, type RetryPolicy } from './worker.ts';

export interface WebhookOptions {
  /** Start delivering at once (default true). */
  autostart?: boolean;
  retry?: Partial<RetryPolicy>;
  /** Per attempt (default: the sandbox document's `x-webhook-delivery-timeout-seconds`). */
  timeoutMs?: number;
  /** Longest sleep between outbox checks (default 1 s). */
  pollMs?: number;
  /** How long a claimed delivery stays out of other workers' reach (default: the timeout plus a minute). */
  leaseMs?: number;
  concurrency?: number;
  /** Version of every event payload (default: the default version of each event's application). */
  version?: string;
  /** Sends deliveries instead of the guarded fetch (which refuses what `webhookTargets` refuses, after resolution). */
  fetch?: typeof fetch;
  /** Resolves host names for deliveries (default: the system's resolver); tests give a stub. */
  lookup?: LookupFunction;
}

export interface Deliveries {
  worker: DeliveryWorker;
  /** Stops the worker (waiting for attempts in flight) and closes its connections. */
  close(): Promise<void>;
}

export function webhookDeliveries(
  deps: Deps,
  settings: { defaultVersion: string; targets: TargetPolicy; logError: (error: unknown) => void },
  options: WebhookOptions = {},
): Deliveries {
  const transport = guardedFetch(settings.targets, options.lookup);
  // Each event in its application's version at the time it is sent.
  const render = async (event: EventRow): Promise<string> => {
    const version = options.version ?? versionOf(await applicationById(deps, event.application_id), settings.defaultVersion);
    const payload = await rewriteEventPayload(version, event.type as EventType, JSON.parse(event.payload), {
      details: async () => null,
    });
    return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, payload });
  };
  const worker = new DeliveryWorker({
    store: deps.store,
    now: deps.now,
    render,
    secrets: (applicationId) => signingSecrets(deps, applicationId),
    retry: { ...defaultRetry, ...options.retry },
    timeoutMs: options.timeoutMs ?? webhookDeliveryTimeoutMs(),
    pollMs: options.pollMs ?? 1_000,
    concurrency: options.concurrency ?? 4,
    ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
    fetch: options.fetch ?? transport.fetch,
    onError: settings.logError,
  });
  if (options.autostart !== false) worker.start();
  return {
    worker,
    async close() {
      await worker.stop();
      await transport.close();
    },
  };
}
