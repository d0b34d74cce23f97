// Webhook events go to a durable outbox: one event row, plus one delivery row when the
// event's application has a webhook URL. The delivery worker sends what the outbox holds.
import type { components, sandboxComponents } from '../contract/types.ts';
import type { DeliveryRow, Repos } from '../storage/store.ts';
import { isoTime } from './clock.ts';
import { newId } from './ids.ts';

type Schemas = components['schemas'];
/** The event types of the API, and the sandbox's own (described in the sandbox document only). */
export type EventType = Schemas['WebhookEventType'] | sandboxComponents['schemas']['SandboxEventType'];

/** Payload of each event type, in the current version's shapes. */
export interface EventPayloads {
  'enrollment.disconnected': Schemas['EnrollmentDisconnectedPayload'];
  'transactions.processed': Schemas['TransactionsProcessedPayload'];
  'account.number_verification.processed': Schemas['AccountNumberVerificationProcessedPayload'];
  'webhook.test': Schemas['WebhookTestPayload'];
  'enrollment.reconnected': sandboxComponents['schemas']['EnrollmentReconnectedPayload'];
}

export const eventTypes: readonly EventType[] = [
  'enrollment.disconnected',
  'transactions.processed',
  'account.number_verification.processed',
  'webhook.test',
  'enrollment.reconnected',
];

export type NewEvent = {
  [T in EventType]: {
    type: T;
    payload: EventPayloads[T];
    enrollmentId: string | null;
    /** The application whose webhook receives it. */
    applicationId: string;
    /** When it happened, on the enrollment's clock. */
    at: number;
  };
}[EventType];

export async function recordEvent(tx: Repos, event: NewEvent, realNow: number): Promise<string> {
  const id = newId('evt');
  await tx.outbox.insertEvent({
    id,
    application_id: event.applicationId,
    type: event.type,
    enrollment_id: event.enrollmentId,
    payload: JSON.stringify(event.payload),
    timestamp: isoTime(event.at),
    created_at: realNow,
  });
  const url = (await tx.applications.get(event.applicationId))?.webhook_url;
  if (url) await queueDelivery(tx, { id, type: event.type, applicationId: event.applicationId }, url, realNow);
  return id;
}

/** A new delivery of the event to `url`, due at once. */
export async function queueDelivery(
  tx: Repos,
  event: { id: string; type: string; applicationId: string },
  url: string,
  realNow: number,
): Promise<DeliveryRow> {
  const row: DeliveryRow = {
    id: newId('dlv'),
    application_id: event.applicationId,
    event_id: event.id,
    event_type: event.type,
    url,
    status: 'pending',
    attempts: 0,
    last_status: null,
    last_error: null,
    next_attempt_at: realNow,
    delivered_at: null,
    created_at: realNow,
  };
  await tx.outbox.insertDelivery(row);
  return row;
}
