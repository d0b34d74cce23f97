// Webhook settings of each application: URL, signing secrets with rotation, and firing events
// on demand. Every function takes the application whose settings it reads or changes.
import type { DeliveryRow, EnrollmentRow, WebhookSecretRow } from '../storage/store.ts';
import { enrollmentNow, isoTime } from './clock.ts';
import { type Deps, transact } from './context.ts';
import { ApiError, notFound } from './errors.ts';
import { type EventPayloads, type EventType, type NewEvent, queueDelivery } from './events.ts';
import { newId, newWebhookSecret } from './ids.ts';
import { disconnectedStatus } from './lifecycle.ts';

/** Secrets that still sign at `now` (real time): the current one first, then by expiry. */
export function activeSecrets(rows: WebhookSecretRow[], now: number): WebhookSecretRow[] {
  return rows
    .filter((row) => row.expires_at === null || row.expires_at > now)
    .sort((a, b) => ((a.expires_at ?? Number.POSITIVE_INFINITY) > (b.expires_at ?? Number.POSITIVE_INFINITY) ? -1 : 1));
}

export interface WebhookSettings {
  url: string | null;
  /** The secrets that sign now, the current one first. */
  secrets: WebhookSecretRow[];
}

/** Makes sure the application has a current signing secret (first use, or after everything expired). */
export async function ensureSigningSecret(deps: Deps, applicationId: string): Promise<void> {
  const now = deps.now();
  if (activeSecrets(await deps.store.webhooks.listSecrets(applicationId), now).some((row) => row.expires_at === null)) return;
  await transact(deps, async (tx) => {
    // Another process may be making the first secret too: one of them does.
    await tx.applications.getForUpdate(applicationId);
    if (activeSecrets(await tx.webhooks.listSecrets(applicationId), now).some((row) => row.expires_at === null)) return;
    await tx.webhooks.insertSecret(newSecret(applicationId, now));
  });
}

const newSecret = (applicationId: string, now: number): WebhookSecretRow => ({
  id: newId('whs'),
  application_id: applicationId,
  secret: newWebhookSecret(),
  created_at: now,
  expires_at: null,
});

/** The secrets that sign the application's events now. */
export async function signingSecrets(deps: Deps, applicationId: string): Promise<string[]> {
  await ensureSigningSecret(deps, applicationId);
  return activeSecrets(await deps.store.webhooks.listSecrets(applicationId), deps.now()).map((row) => row.secret);
}

export async function webhookSettings(deps: Deps, applicationId: string): Promise<WebhookSettings> {
  await ensureSigningSecret(deps, applicationId);
  const application = await deps.store.applications.get(applicationId);
  const secrets = activeSecrets(await deps.store.webhooks.listSecrets(applicationId), deps.now());
  return { url: application?.webhook_url ?? null, secrets };
}

export async function setWebhookUrl(deps: Deps, applicationId: string, url: string | null): Promise<WebhookSettings> {
  await transact(deps, (tx) => tx.applications.update(applicationId, { webhook_url: url }));
  return webhookSettings(deps, applicationId);
}

/** A new current secret at once; the previous one keeps signing until `expireAt`. */
export async function rotateWebhookSecret(deps: Deps, applicationId: string, expireAt: number): Promise<WebhookSettings> {
  await ensureSigningSecret(deps, applicationId);
  const now = deps.now();
  await transact(deps, async (tx) => {
    await tx.applications.getForUpdate(applicationId);
    for (const row of await tx.webhooks.listSecrets(applicationId)) {
      if (row.expires_at === null) await tx.webhooks.updateSecret(row.id, { expires_at: expireAt });
    }
    await tx.webhooks.insertSecret(newSecret(applicationId, now));
  });
  return webhookSettings(deps, applicationId);
}

export interface FiredEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  timestamp: string;
  payload: EventPayloads[T];
}

/** A fired event of any type, told apart by `type`. */
export type AnyFiredEvent = { [T in EventType]: FiredEvent<T> }[EventType];

/** Sends an event as the service would; it changes no state. Without a payload one is built from the enrollment. */
export async function fireEvent<T extends EventType>(
  deps: Deps,
  enrollment: EnrollmentRow,
  type: T,
  payload: EventPayloads[T] | undefined,
): Promise<FiredEvent<T>> {
  const body = payload ?? (await defaultPayload(deps, enrollment, type));
  const at = enrollmentNow(deps.now, enrollment);
  const event = { type, payload: body, enrollmentId: enrollment.id, applicationId: enrollment.application_id, at } as NewEvent;
  const id = await transact(deps, (_tx, emit) => emit(event));
  return { id, type, timestamp: isoTime(at), payload: body };
}

/** Deliveries the sandbox shows: the application's latest. */
const DELIVERY_LOG_SIZE = 100;

export const recentDeliveries = (deps: Deps, applicationId: string): Promise<DeliveryRow[]> =>
  deps.store.outbox.listDeliveries(applicationId, DELIVERY_LOG_SIZE);

/**
 * Sends a delivery's event again as a new delivery to the current URL (the worker signs it afresh); the earlier
 * delivery stays as it was.
 */
export async function redeliver(deps: Deps, applicationId: string, deliveryId: string): Promise<DeliveryRow> {
  const row = await transact(deps, async (tx) => {
    const earlier = await tx.outbox.getDelivery(deliveryId);
    // Another application's delivery does not exist for this one.
    if (!earlier || earlier.application_id !== applicationId) throw notFound(`No webhook delivery ${deliveryId}.`);
    const url = (await tx.applications.get(applicationId))?.webhook_url;
    if (!url) throw new ApiError(409, 'webhook.url_missing', 'No webhook URL is set; set one with PUT /sandbox/webhook first.');
    return queueDelivery(tx, { id: earlier.event_id, type: earlier.event_type, applicationId }, url, deps.now());
  });
  // After the commit: the worker's look at the outbox must see the new delivery.
  deps.onEvents();
  return row;
}

async function defaultPayload<T extends EventType>(deps: Deps, enrollment: EnrollmentRow, type: T): Promise<EventPayloads[T]> {
  return (await buildPayload(deps, enrollment, type)) as EventPayloads[T];
}

async function buildPayload(deps: Deps, enrollment: EnrollmentRow, type: EventType): Promise<EventPayloads[EventType]> {
  switch (type) {
    case 'webhook.test':
      return {};
    case 'enrollment.disconnected':
      return { enrollment_id: enrollment.id, reason: disconnectedStatus(enrollment.status_reason) };
    case 'enrollment.reconnected':
      return { enrollment_id: enrollment.id };
    case 'account.number_verification.processed': {
      const [first] = await deps.store.accounts.listByEnrollment(enrollment.id);
      if (!first) throw notFound('The enrollment has no account to name in the event.');
      return { enrollment_id: enrollment.id, account_id: first.id, status: 'completed' as const };
    }
    case 'transactions.processed': {
      const transactions = [];
      for (const account of await deps.store.accounts.listByEnrollment(enrollment.id)) {
        const rows = await deps.store.transactions.page(account.id, { limit: 5 });
        transactions.push(...rows.map(deps.eventTransaction));
      }
      return { enrollment_id: enrollment.id, transactions };
    }
  }
}
