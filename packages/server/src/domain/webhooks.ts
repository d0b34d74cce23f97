// Webhook settings of the (single) sandbox application: URL, signing secrets with rotation,
// and firing events on demand.
import type { EnrollmentRow, WebhookSecretRow } from '../storage/store.ts';
import { enrollmentNow, isoTime } from './clock.ts';
import { transact, type Deps } from './context.ts';
import { notFound } from './errors.ts';
import type { EventPayloads, EventType, NewEvent } from './events.ts';
import { newId, newWebhookSecret } from './ids.ts';
import { presentTransaction } from './present.ts';

/** Secrets that still sign at `now` (real time): the current one first, then by expiry. */
export function activeSecrets(rows: WebhookSecretRow[], now: number): WebhookSecretRow[] {
  return rows
    .filter((row) => row.expires_at === null || row.expires_at > now)
    .sort((a, b) => (a.expires_at ?? Number.POSITIVE_INFINITY) > (b.expires_at ?? Number.POSITIVE_INFINITY) ? -1 : 1);
}

export interface WebhookSettingsView {
  url: string | null;
  secrets: { id: string; secret: string; expires_at: string | null }[];
}

/** Makes sure there is a current signing secret (first start, or after everything expired). */
export async function ensureSigningSecret(deps: Deps): Promise<void> {
  const now = deps.now();
  if (activeSecrets(await deps.store.webhooks.listSecrets(), now).some((row) => row.expires_at === null)) return;
  await transact(deps, async (tx) => {
    // Another process may be making the first secret too: one of them does.
    await tx.webhooks.lock();
    if (activeSecrets(await tx.webhooks.listSecrets(), now).some((row) => row.expires_at === null)) return;
    await tx.webhooks.insertSecret({ id: newId('whs'), secret: newWebhookSecret(), created_at: now, expires_at: null });
  });
}

export async function webhookSettings(deps: Deps): Promise<WebhookSettingsView> {
  await ensureSigningSecret(deps);
  const url = await deps.store.webhooks.getUrl();
  const secrets = activeSecrets(await deps.store.webhooks.listSecrets(), deps.now());
  return {
    url,
    secrets: secrets.map((row) => ({
      id: row.id,
      secret: row.secret,
      expires_at: row.expires_at === null ? null : isoTime(row.expires_at),
    })),
  };
}

export async function setWebhookUrl(deps: Deps, url: string | null): Promise<WebhookSettingsView> {
  await transact(deps, (tx) => tx.webhooks.setUrl(url));
  return webhookSettings(deps);
}

/** A new current secret at once; the previous one keeps signing until `expireAt`. */
export async function rotateWebhookSecret(deps: Deps, expireAt: number): Promise<WebhookSettingsView> {
  await ensureSigningSecret(deps);
  const now = deps.now();
  await transact(deps, async (tx) => {
    await tx.webhooks.lock();
    for (const row of await tx.webhooks.listSecrets()) {
      if (row.expires_at === null) await tx.webhooks.updateSecret(row.id, { expires_at: expireAt });
    }
    await tx.webhooks.insertSecret({ id: newId('whs'), secret: newWebhookSecret(), created_at: now, expires_at: null });
  });
  return webhookSettings(deps);
}

export interface FiredEvent<T extends EventType = EventType> {
  id: string;
  type: T;
  timestamp: string;
  payload: EventPayloads[T];
}

/** Sends an event as the service would; it changes no state. Without a payload one is built from the enrollment. */
export async function fireEvent<T extends EventType>(
  deps: Deps,
  enrollment: EnrollmentRow,
  type: T,
  payload: EventPayloads[T] | undefined,
): Promise<FiredEvent<T>> {
  const body = payload ?? (await defaultPayload(deps, enrollment, type));
  const at = enrollmentNow(deps.now, enrollment);
  const event = { type, payload: body, enrollmentId: enrollment.id, at } as NewEvent;
  const id = await transact(deps, (_tx, emit) => emit(event));
  return { id, type, timestamp: isoTime(at), payload: body };
}

async function defaultPayload<T extends EventType>(deps: Deps, enrollment: EnrollmentRow, type: T): Promise<EventPayloads[T]> {
  return (await buildPayload(deps, enrollment, type)) as EventPayloads[T];
}

async function buildPayload(deps: Deps, enrollment: EnrollmentRow, type: EventType): Promise<EventPayloads[EventType]> {
  switch (type) {
    case 'webhook.test':
      return {};
    case 'enrollment.disconnected':
      return { enrollment_id: enrollment.id, reason: enrollment.status_reason };
    case 'account.number_verification.processed': {
      const [first] = await deps.store.accounts.listByEnrollment(enrollment.id);
      if (!first) throw notFound('The enrollment has no account to name in the event.');
      return { account_id: first.id, status: 'completed' as const };
    }
    case 'transactions.processed': {
      const transactions = [];
      for (const account of await deps.store.accounts.listByEnrollment(enrollment.id)) {
        const rows = await deps.store.transactions.page(account.id, { limit: 5 });
        transactions.push(...rows.map((row) => presentTransaction(deps.publicUrl, row)));
      }
      return { transactions };
    }
  }
}
