// The reference receiver's types, for the tests that start it in process.
import type { WebhookEvent } from '@aggregation/client';

export function startReceiver(options: {
  port?: number;
  /** Read at each event: a secret pushed later counts. */
  secrets: string[];
  onEvent?: (event: WebhookEvent) => void;
}): Promise<{ url: string; close(): Promise<void> }>;
