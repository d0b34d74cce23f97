// Outbox rows, and a delivery worker, for tests that drive the worker or the store's claims directly.
import { DEFAULT_APPLICATION_ID, type DeliveryRow, type EventRow, type Repos } from '../../src/storage/store.ts';
import { DeliveryWorker, defaultRetry, type WorkerOptions } from '../../src/webhooks/worker.ts';

export const testEvent: EventRow = {
  id: 'evt_1',
  application_id: DEFAULT_APPLICATION_ID,
  type: 'webhook.test',
  enrollment_id: null,
  payload: '{}',
  timestamp: '2024-01-01T00:00:00Z',
  created_at: 1,
};

/** A pending delivery of `testEvent`, due at `due`. */
export const pendingDelivery = (id: string, due: number): DeliveryRow => ({
  id,
  application_id: DEFAULT_APPLICATION_ID,
  event_id: testEvent.id,
  event_type: testEvent.type,
  url: 'http://127.0.0.1:9/webhooks',
  status: 'pending',
  attempts: 0,
  last_status: null,
  last_error: null,
  next_attempt_at: due,
  delivered_at: null,
  created_at: due,
});

/** Records `testEvent` and a pending delivery of it per id, all due at `due`. */
export async function insertPending(tx: Repos, ids: string[], due: number): Promise<void> {
  await tx.outbox.insertEvent(testEvent);
  for (const id of ids) await tx.outbox.insertDelivery(pendingDelivery(id, due));
}

/** A worker at a fixed time (2000, after `insertPending(..., 1000)`) that sends through `options.fetch`. */
export function testWorker(options: Pick<WorkerOptions, 'store' | 'fetch' | 'pollMs' | 'concurrency'> & Partial<WorkerOptions>): DeliveryWorker {
  return new DeliveryWorker({
    now: () => 2000,
    render: async () => '{}',
    secrets: async () => ['whsec_test_secret_value'],
    retry: defaultRetry,
    timeoutMs: 1000,
    ...options,
  });
}
